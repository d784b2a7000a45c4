import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { creditDeposit } from './credit.ts';
import { formatTon, tryParseTon } from '../../contract/money.ts';

/**
 * Crypto Pay (CryptoBot) API: https://pay.crypt.bot/api/<method> (testnet: https://testnet-pay.crypt.bot/api),
 * the token in the Crypto-Pay-API-Token header, answers {ok: true, result} or {ok: false, error}.
 * Webhook updates are {update_id, update_type: 'invoice_paid', request_date, payload: Invoice}, signed in
 * the crypto-pay-api-signature header: hex HMAC-SHA-256 of the raw body, keyed with SHA-256(token).
 */

/** The Invoice fields we read (others pass through untouched). */
export interface CryptoPayInvoice {
  invoice_id: number;
  status?: string;
  asset?: string;
  amount?: string;
  payload?: string;
  bot_invoice_url?: string;
  mini_app_invoice_url?: string;
  web_app_invoice_url?: string;
  /** deprecated by Crypto Pay in favour of bot_invoice_url; read as a fallback */
  pay_url?: string;
}

export class CryptoPayError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly errorName: string | null = null,
  ) {
    super(message);
    this.name = 'CryptoPayError';
  }
}

export interface CryptoPayOptions {
  url: string;
  token: string;
  timeoutMs?: number;
}

interface ApiAnswer {
  ok?: unknown;
  result?: unknown;
  error?: { name?: unknown; code?: unknown };
}

export class CryptoPayClient {
  constructor(private readonly options: CryptoPayOptions) {}

  async createInvoice(params: {
    asset: string;
    amount: string;
    payload: string;
    description: string;
  }): Promise<CryptoPayInvoice> {
    const result = await this.call('createInvoice', params);
    const invoice = result as Partial<CryptoPayInvoice> | null;
    if (!invoice || (typeof invoice.invoice_id !== 'number' && typeof invoice.invoice_id !== 'string')) {
      throw new CryptoPayError('createInvoice answered without an invoice_id', 200);
    }
    if (!invoice.bot_invoice_url && !invoice.pay_url) {
      throw new CryptoPayError('createInvoice answered without an invoice URL', 200);
    }
    return invoice as CryptoPayInvoice;
  }

  private async call(method: string, body: Record<string, unknown>): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.options.url}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'crypto-pay-api-token': this.options.token },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new CryptoPayError(`Crypto Pay unreachable: ${(err as Error).message}`, null);
    }
    let answer: ApiAnswer | null = null;
    try {
      answer = (await res.json()) as ApiAnswer | null;
    } catch {
      // handled below
    }
    if (!res.ok || !answer || answer.ok !== true) {
      const name = typeof answer?.error?.name === 'string' ? answer.error.name : null;
      throw new CryptoPayError(
        `Crypto Pay ${method} failed (${res.status}${name ? ` ${name}` : ''})`,
        res.status,
        name,
      );
    }
    return answer.result;
  }
}

/** hex HMAC-SHA-256 of the raw body keyed with SHA-256(token): the crypto-pay-api-signature value. */
export function cryptoPaySignature(token: string, rawBody: Buffer | string): string {
  const key = createHash('sha256').update(token).digest();
  return createHmac('sha256', key).update(rawBody).digest('hex');
}

/** Checks a webhook signature header against the raw body, in constant time. */
export function verifyCryptoPaySignature(
  token: string,
  rawBody: Buffer | string,
  header: string | string[] | undefined,
): boolean {
  if (typeof header !== 'string' || !/^[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = Buffer.from(cryptoPaySignature(token, rawBody), 'hex');
  const given = Buffer.from(header, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface CreatedInvoice {
  invoiceId: string;
  invoiceUrl: string;
  miniAppInvoiceUrl: string | null;
  webAppInvoiceUrl: string | null;
}

/**
 * Stores an invoice for the player, asks Crypto Pay for it (outside any transaction), and keeps its id and
 * link. Our invoice id travels as the Crypto Pay payload, so the webhook finds the stored invoice and
 * credits the stored amount. Throws CryptoPayError when Crypto Pay refuses or cannot be reached.
 */
export async function createCryptoPayInvoice(
  ctx: AppContext,
  client: CryptoPayClient,
  userId: bigint,
  amountNano: bigint,
): Promise<CreatedInvoice> {
  const id = randomUUID();
  const asset = ctx.config.cryptoPayAsset;
  await ctx.db
    .insertInto('deposit_invoices')
    .values({
      id,
      user_id: userId,
      provider: 'cryptopay',
      asset,
      amount_nano: amountNano,
      status: 'creating',
    })
    .execute();
  let invoice: CryptoPayInvoice;
  try {
    invoice = await client.createInvoice({
      asset,
      amount: formatTon(amountNano),
      payload: id,
      description: `Giftcases balance top-up: ${formatTon(amountNano)} ${asset}`,
    });
  } catch (err) {
    await ctx.db
      .updateTable('deposit_invoices')
      .set({ status: 'failed', updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    throw err;
  }
  const invoiceUrl = (invoice.bot_invoice_url ?? invoice.pay_url)!;
  await ctx.db
    .updateTable('deposit_invoices')
    .set({
      status: 'active',
      provider_invoice_id: String(invoice.invoice_id),
      url: invoiceUrl,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
  return {
    invoiceId: id,
    invoiceUrl,
    miniAppInvoiceUrl: invoice.mini_app_invoice_url ?? null,
    webAppInvoiceUrl: invoice.web_app_invoice_url ?? null,
  };
}

export type WebhookOutcome = 'credited' | 'already_credited' | 'ignored' | 'unknown_invoice' | 'mismatch';

/**
 * Handles a verified webhook update. Only invoice_paid moves money: the stored invoice (found by Crypto
 * Pay's invoice id, or by our id in its payload) must agree with the update on asset and amount, and then
 * its stored amount is credited to its player once (external id cryptopay:<invoice_id>).
 */
export async function handleCryptoPayUpdate(
  ctx: AppContext,
  update: unknown,
  log?: FastifyBaseLogger,
): Promise<WebhookOutcome> {
  const u = update as { update_type?: unknown; payload?: unknown } | null;
  if (!u || u.update_type !== 'invoice_paid') return 'ignored';
  const inv = u.payload as Partial<Record<keyof CryptoPayInvoice, unknown>> | null;
  const providerId =
    typeof inv?.invoice_id === 'number' || typeof inv?.invoice_id === 'string'
      ? String(inv.invoice_id)
      : null;
  if (!inv || !providerId || !/^\d{1,20}$/.test(providerId)) return 'ignored';
  const ourId = typeof inv.payload === 'string' ? inv.payload : null;

  let row = await ctx.db
    .selectFrom('deposit_invoices')
    .selectAll()
    .where('provider', '=', 'cryptopay')
    .where('provider_invoice_id', '=', providerId)
    .executeTakeFirst();
  if (!row && ourId) {
    // paid before we stored Crypto Pay's id (only if its answer to createInvoice was lost): match our id
    row = await ctx.db
      .selectFrom('deposit_invoices')
      .selectAll()
      .where('provider', '=', 'cryptopay')
      .where('id', '=', ourId)
      .where('provider_invoice_id', 'is', null)
      .executeTakeFirst();
  }
  if (!row) {
    log?.warn({ invoiceId: providerId }, 'Crypto Pay: paid invoice unknown here; nothing credited');
    return 'unknown_invoice';
  }
  const amountNano = parseAmount(inv.amount);
  if (
    (ourId !== null && ourId !== row.id) ||
    (typeof inv.asset === 'string' && inv.asset.toUpperCase() !== row.asset.toUpperCase()) ||
    (inv.status !== undefined && inv.status !== 'paid') ||
    amountNano !== row.amount_nano
  ) {
    log?.error(
      { invoiceId: providerId, ours: row.id, asset: inv.asset, amount: inv.amount, status: inv.status },
      'Crypto Pay: paid invoice does not match the stored one; nothing credited',
    );
    return 'mismatch';
  }
  const credited = await creditDeposit(
    ctx,
    {
      userId: row.user_id,
      amountNano: row.amount_nano,
      method: 'cryptobot',
      externalId: `cryptopay:${providerId}`,
      ref: row.id,
    },
    log,
  );
  await ctx.db
    .updateTable('deposit_invoices')
    .set({ status: 'paid', provider_invoice_id: providerId, paid_at: new Date(), updated_at: new Date() })
    .where('id', '=', row.id)
    .where('status', '!=', 'paid')
    .execute();
  return credited ? 'credited' : 'already_credited';
}

function parseAmount(value: unknown): bigint | null {
  if (typeof value === 'number') return Number.isFinite(value) ? tryParseTon(String(value)) : null;
  return typeof value === 'string' ? tryParseTon(value) : null;
}
