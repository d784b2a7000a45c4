import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sendJson, startHttp, type RecordedRequest } from './http.ts';

/**
 * A local stand-in for the Crypto Pay API (CryptoBot), in its documented format: POST /api/<method> with
 * the token in the Crypto-Pay-API-Token header and JSON parameters; answers {ok: true, result} or
 * {ok: false, error: {code, name}}. Only createInvoice is implemented. It also builds the webhook updates
 * Crypto Pay sends ({update_id, update_type, request_date, payload: Invoice}) and signs them the documented
 * way: crypto-pay-api-signature = hex HMAC-SHA-256(raw body, key = SHA-256(token)).
 */
export interface CryptoPayStandIn {
  /** API base, like https://pay.crypt.bot/api */
  url: string;
  token: string;
  requests: RecordedRequest[];
  invoices: Map<number, Invoice>;
  /** the next createInvoice fails: an HTTP status with a Crypto Pay error name */
  failNext(status: number, name: string): void;
  close(): Promise<void>;
}

export interface Invoice {
  invoice_id: number;
  hash: string;
  currency_type: 'crypto';
  asset: string;
  amount: string;
  pay_url: string;
  bot_invoice_url: string;
  mini_app_invoice_url: string;
  web_app_invoice_url: string;
  description?: string;
  status: 'active' | 'paid' | 'expired';
  created_at: string;
  allow_comments: boolean;
  allow_anonymous: boolean;
  payload?: string;
  paid_at?: string;
  paid_asset?: string;
  paid_amount?: string;
  fee_asset?: string;
  fee_amount?: string;
  paid_usd_rate?: string;
  paid_anonymously?: boolean;
}

export async function startCryptoPay(
  token = '12345:AAcryptoPayStandInTokenForTests',
): Promise<CryptoPayStandIn> {
  const invoices = new Map<number, Invoice>();
  const failures: { status: number; name: string }[] = [];
  let nextId = 1000;
  const http = await startHttp((req, res) => {
    const method = req.path.replace(/^\/api\//, '');
    if (req.headers['crypto-pay-api-token'] !== token) {
      sendJson(res, 401, { ok: false, error: { code: 401, name: 'UNAUTHORIZED' } });
      return;
    }
    if (method !== 'createInvoice' || req.method !== 'POST') {
      sendJson(res, 405, { ok: false, error: { code: 405, name: 'METHOD_NOT_FOUND' } });
      return;
    }
    const failure = failures.shift();
    if (failure) {
      sendJson(res, failure.status, { ok: false, error: { code: failure.status, name: failure.name } });
      return;
    }
    let p: Record<string, unknown>;
    try {
      p = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, { ok: false, error: { code: 400, name: 'PARAMS_INVALID' } });
      return;
    }
    if (typeof p.asset !== 'string' || typeof p.amount !== 'string' || !/^\d+(\.\d+)?$/.test(p.amount)) {
      sendJson(res, 400, { ok: false, error: { code: 400, name: 'PARAMS_INVALID' } });
      return;
    }
    const hash = 'IV' + randomBytes(6).toString('hex');
    const invoice: Invoice = {
      invoice_id: nextId++,
      hash,
      currency_type: 'crypto',
      asset: p.asset,
      amount: p.amount,
      pay_url: `https://t.me/CryptoTestnetBot?start=${hash}`,
      bot_invoice_url: `https://t.me/CryptoTestnetBot?start=${hash}`,
      mini_app_invoice_url: `https://t.me/CryptoTestnetBot/app?startapp=invoice-${hash}&mode=compact`,
      web_app_invoice_url: `https://testnet-app.send.tg/invoices/${hash}`,
      description: typeof p.description === 'string' ? p.description : undefined,
      status: 'active',
      created_at: new Date().toISOString(),
      allow_comments: true,
      allow_anonymous: true,
      payload: typeof p.payload === 'string' ? p.payload : undefined,
    };
    invoices.set(invoice.invoice_id, invoice);
    sendJson(res, 200, { ok: true, result: invoice });
  });
  return {
    url: `${http.origin}/api`,
    token,
    requests: http.requests,
    invoices,
    failNext(status, name) {
      failures.push({ status, name });
    },
    close: http.close,
  };
}

let updateId = 1;

/** The invoice_paid update Crypto Pay posts once the invoice is paid. */
export function invoicePaidUpdate(invoice: Invoice, changes: Partial<Invoice> = {}): Record<string, unknown> {
  return {
    update_id: updateId++,
    update_type: 'invoice_paid',
    request_date: new Date().toISOString(),
    payload: {
      ...invoice,
      status: 'paid',
      paid_at: new Date().toISOString(),
      paid_asset: invoice.asset,
      paid_amount: invoice.amount,
      fee_asset: invoice.asset,
      fee_amount: '0',
      paid_usd_rate: '5.5',
      paid_anonymously: false,
      ...changes,
    },
  };
}

/** The crypto-pay-api-signature of a raw body. */
export function signRaw(token: string, body: string): string {
  const key = createHash('sha256').update(token).digest();
  return createHmac('sha256', key).update(body).digest('hex');
}

/** The raw body and crypto-pay-api-signature header of a webhook request, signed with the app token. */
export function signedWebhook(token: string, update: unknown): { body: string; signature: string } {
  const body = JSON.stringify(update);
  return { body, signature: signRaw(token, body) };
}
