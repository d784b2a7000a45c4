import { randomUUID } from 'node:crypto';
import { Type } from 'typebox';
import { ApiError, Ok } from '../../contract/common.ts';
import { BalanceResponse } from '../../contract/users.ts';
import {
  CryptobotInvoiceRequest,
  CryptobotInvoiceResponse,
  DEPOSIT_MAX_TON,
  DEPOSIT_MIN_TON,
  DemoDepositRequest,
  DemoDepositResponse,
  DepositInfo,
} from '../../contract/deposit.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { getUser } from '../users.ts';
import { HttpError, badRequest, notFound, unauthorized } from '../lib/errors.ts';
import type { Payments } from '../payments/index.ts';
import { publicTonAddress } from '../payments/index.ts';
import { depositCommentFor } from '../payments/comments.ts';
import { DEMO_TON_ADDRESS, newDemoCreditId } from '../payments/demo.ts';
import {
  CryptoPayError,
  createCryptoPayInvoice,
  handleCryptoPayUpdate,
  verifyCryptoPaySignature,
} from '../payments/cryptopay.ts';
import { formatTon, parseTon, tryParseTon } from '../../contract/money.ts';
import { holdsNul, nulRefused } from '../lib/text.ts';
import type { TelegramService } from '../telegram/index.ts';

/** The player's deposit endpoints (/deposit/...) and the payment providers' webhooks (/payments/...). */
export function depositRoutes(
  app: App,
  ctx: AppContext,
  payments: Payments,
  telegram: Pick<TelegramService, 'giftAccount' | 'mode'>,
): void {
  const auth = requireUser(ctx);
  const { modes } = payments;

  app.get(
    '/deposit/balance',
    { preHandler: auth, schema: { response: { 200: BalanceResponse } } },
    async (request) => {
      const user = await getUser(ctx.db, request.userId);
      return { balance: formatTon(user.balance_nano) };
    },
  );

  app.get(
    '/deposit/info',
    { preHandler: auth, schema: { response: { 200: DepositInfo } } },
    async (request) => {
      let ton: DepositInfo['ton'] = null;
      if (modes.ton !== 'off') {
        ton = {
          address: modes.ton === 'real' ? publicTonAddress(ctx.config)! : DEMO_TON_ADDRESS,
          comment: await depositCommentFor(ctx.db, request.userId),
          demo: modes.ton === 'demo',
        };
      }
      return {
        ton,
        cryptobot: modes.cryptobot !== 'off',
        cryptobotDemo: modes.cryptobot === 'demo',
        demo: modes.ton === 'demo' || modes.cryptobot === 'demo',
        gifts: telegram.giftAccount ? { demo: telegram.mode === 'simulated' } : null,
        minAmount: DEPOSIT_MIN_TON,
        maxAmount: DEPOSIT_MAX_TON,
      };
    },
  );

  app.post(
    '/deposit/cryptobot-invoice',
    {
      preHandler: auth,
      schema: {
        body: CryptobotInvoiceRequest,
        response: { 200: CryptobotInvoiceResponse, 404: ApiError, 502: ApiError },
      },
    },
    async (request) => {
      const amountNano = depositAmountNano(request.body.amount);
      if (modes.cryptobot === 'off') {
        throw notFound('DEPOSIT_METHOD_OFF', 'CryptoBot deposits are not available on this server');
      }
      if (modes.cryptobot === 'demo') {
        const invoiceId = randomUUID();
        const creditId = newDemoCreditId();
        await ctx.db
          .insertInto('deposit_invoices')
          .values({
            id: invoiceId,
            user_id: request.userId,
            provider: 'demo',
            provider_invoice_id: creditId,
            asset: 'TON',
            amount_nano: amountNano,
            status: 'active',
          })
          .execute();
        payments.demo.schedule(request.userId, amountNano, 'cryptobot', {
          ref: invoiceId,
          externalId: creditId,
        });
        const base = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
        return {
          invoiceUrl: `${base.replace(/\/$/, '')}/api/deposit/demo-invoice/${invoiceId}`,
          miniAppInvoiceUrl: null,
          webAppInvoiceUrl: null,
          invoiceId,
          amount: formatTon(amountNano),
          demo: true,
        };
      }
      try {
        const created = await createCryptoPayInvoice(ctx, payments.cryptoPay!, request.userId, amountNano);
        return { ...created, amount: formatTon(amountNano), demo: false };
      } catch (err) {
        if (!(err instanceof CryptoPayError)) throw err;
        request.log.error({ err }, 'Crypto Pay invoice not created');
        throw new HttpError(
          502,
          'INVOICE_CREATE_FAILED',
          'CryptoBot did not create the invoice; try again later',
        );
      }
    },
  );

  app.post(
    '/deposit/demo',
    {
      preHandler: auth,
      schema: { body: DemoDepositRequest, response: { 200: DemoDepositResponse, 404: ApiError } },
    },
    async (request) => {
      const { method } = request.body;
      if (modes[method] !== 'demo') {
        throw notFound(
          'DEMO_DEPOSITS_OFF',
          `Demo deposits are off for ${method}: the server is not in demo mode or the real provider is configured`,
        );
      }
      const amountNano = depositAmountNano(request.body.amount);
      const id = payments.demo.schedule(request.userId, amountNano, method);
      return {
        id,
        amount: formatTon(amountNano),
        method,
        creditInMs: payments.demo.delayMs,
        demo: true as const,
      };
    },
  );

  // The page a demo CryptoBot invoice link opens: says what happens instead of a payment.
  if (modes.cryptobot === 'demo') {
    app.get(
      '/deposit/demo-invoice/:id',
      { schema: { params: Type.Object({ id: Type.String({ format: 'uuid' }) }) } },
      async (request, reply) => {
        const row = await ctx.db
          .selectFrom('deposit_invoices')
          .select(['amount_nano', 'provider_invoice_id'])
          .where('id', '=', request.params.id)
          .where('provider', '=', 'demo')
          .executeTakeFirst();
        if (!row) throw notFound('INVOICE_UNKNOWN', 'No such demo invoice');
        const credited = row.provider_invoice_id
          ? !!(await ctx.db
              .selectFrom('ledger')
              .select('id')
              .where('external_id', '=', row.provider_invoice_id)
              .executeTakeFirst())
          : false;
        void reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(demoInvoicePage(formatTon(row.amount_nano), credited));
      },
    );
  }

  // Crypto Pay webhook: the signature covers the raw body, so this route alone reads the body as bytes.
  const cryptoPayToken = ctx.config.cryptoPayToken;
  if (cryptoPayToken) {
    void app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post(
        '/payments/cryptopay/webhook',
        { schema: { response: { 200: Ok, 400: ApiError, 401: ApiError } } },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          if (!verifyCryptoPaySignature(cryptoPayToken, raw, request.headers['crypto-pay-api-signature'])) {
            throw unauthorized(
              'SIGNATURE_INVALID',
              'The crypto-pay-api-signature header is missing or wrong',
            );
          }
          let update: unknown;
          try {
            update = JSON.parse(raw.toString('utf8'));
          } catch {
            throw badRequest('INVALID_JSON', 'The request body is not valid JSON');
          }
          if (holdsNul(update)) {
            // signed, but holding text no column can store: refused whole, nothing looked up or credited
            request.log.warn({ bytes: raw.length }, 'Crypto Pay webhook refused: NUL character in its text');
            throw nulRefused('webhook body');
          }
          const outcome = await handleCryptoPayUpdate(ctx, update, request.log);
          request.log.info({ outcome }, 'Crypto Pay webhook');
          return { ok: true as const };
        },
      );
    });
  }
}

function demoInvoicePage(amount: string, credited: boolean): string {
  const status = credited
    ? 'The demo credit has landed on your balance.'
    : 'The demo credit lands on your balance in a few seconds.';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Demo invoice</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#e8e8f0;background:#14141c}
.tag{display:inline-block;padding:.2rem .6rem;border-radius:1rem;background:#f5a623;color:#14141c;font-weight:700}</style>
</head><body>
<p><span class="tag">DEMO</span></p>
<h1>Demo CryptoBot invoice: ${amount} TON</h1>
<p>This server runs without a Crypto Pay token, so no payment is taken here and none is needed.</p>
<p>${status} You can close this tab.</p>
</body></html>`;
}

const MIN_NANO = parseTon(DEPOSIT_MIN_TON);
const MAX_NANO = parseTon(DEPOSIT_MAX_TON);

/** A typed deposit amount → exact nanoTON, or 400 INVALID_AMOUNT (not a decimal, finer than 1 nanoTON, out of range). */
function depositAmountNano(text: string): bigint {
  const nano = tryParseTon(text);
  if (nano === null) {
    throw badRequest('INVALID_AMOUNT', 'amount must be a decimal number of TON with at most 9 decimals');
  }
  if (nano < MIN_NANO || nano > MAX_NANO) {
    throw badRequest(
      'INVALID_AMOUNT',
      `amount must be between ${DEPOSIT_MIN_TON} and ${DEPOSIT_MAX_TON} TON`,
    );
  }
  return nano;
}
