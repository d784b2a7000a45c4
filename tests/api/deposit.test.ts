import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signLaunchData, startServer, type TestServer } from './harness.ts';
import {
  invoicePaidUpdate,
  signRaw,
  signedWebhook,
  startCryptoPay,
  type CryptoPayStandIn,
} from '../stand-ins/cryptopay.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket, type TestSocket } from '../stand-ins/ws-client.ts';
import { parseTon } from '../../contract/money.ts';

const WEBHOOK = '/payments/cryptopay/webhook';

function wsUrl(server: TestServer): string {
  return server.baseUrl.replace('http', 'ws') + '/api/ws/deposits';
}

async function authedSocket(server: TestServer, token: string): Promise<TestSocket> {
  const socket = await openSocket(wsUrl(server));
  socket.send({ type: 'auth', token });
  await socket.next('auth_ok');
  return socket;
}

async function balance(server: TestServer, token: string): Promise<string> {
  const res = await server.call<{ balance: string }>('GET', '/deposit/balance', { token });
  expect(res.status).toBe(200);
  return res.body.balance;
}

async function ledgerFor(server: TestServer, prefix: string) {
  return server.built.ctx.db
    .selectFrom('ledger')
    .selectAll()
    .where('external_id', 'like', `${prefix}%`)
    .orderBy('id')
    .execute();
}

function postWebhook(server: TestServer, body: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['crypto-pay-api-signature'] = signature;
  return server.call('POST', WEBHOOK, { rawBody: body, headers });
}

describe('CryptoBot deposits through Crypto Pay', () => {
  let cryptoPay: CryptoPayStandIn;
  let server: TestServer;

  beforeAll(async () => {
    cryptoPay = await startCryptoPay();
    server = await startServer({ env: { CRYPTOPAY_TOKEN: cryptoPay.token, CRYPTOPAY_URL: cryptoPay.url } });
  });
  afterAll(async () => {
    await server.close();
    await cryptoPay.close();
  });

  /** Creates an invoice for the player through our API; returns it as Crypto Pay stored it. */
  async function invoiceFor(token: string, amount: string) {
    const res = await server.call<{ invoiceUrl: string; invoiceId: string }>(
      'POST',
      '/deposit/cryptobot-invoice',
      {
        token,
        body: { amount },
      },
    );
    expect(res.status).toBe(200);
    const invoice = [...cryptoPay.invoices.values()].find((i) => i.payload === res.body.invoiceId)!;
    expect(invoice).toBeDefined();
    return { res: res.body, invoice };
  }

  it('reports CryptoBot as available, TON as off, and no demo', async () => {
    const token = await server.login({ id: 920001 });
    const info = await server.call('GET', '/deposit/info', { token });
    expect(info).toEqual({
      status: 200,
      body: {
        ton: null,
        cryptobot: true,
        cryptobotDemo: false,
        demo: false,
        gifts: null,
        minAmount: '0.01',
        maxAmount: '10000',
      },
    });
  });

  it('creates an invoice with the documented request and answers its link', async () => {
    const token = await server.login({ id: 920002 });
    const before = cryptoPay.requests.length;
    const res = await server.call<Record<string, unknown>>('POST', '/deposit/cryptobot-invoice', {
      token,
      body: { amount: '1.25' },
    });
    expect(res.status).toBe(200);
    const req = cryptoPay.requests[before]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/createInvoice');
    expect(req.headers['crypto-pay-api-token']).toBe(cryptoPay.token);
    const sent = JSON.parse(req.body) as Record<string, unknown>;
    expect(sent).toEqual({
      asset: 'TON',
      amount: '1.25',
      payload: res.body.invoiceId,
      description: expect.any(String),
    });
    const invoice = cryptoPay.invoices.get(Math.max(...cryptoPay.invoices.keys()))!;
    expect(res.body).toEqual({
      invoiceUrl: invoice.bot_invoice_url,
      miniAppInvoiceUrl: invoice.mini_app_invoice_url,
      webAppInvoiceUrl: invoice.web_app_invoice_url,
      invoiceId: invoice.payload,
      amount: '1.25',
      demo: false,
    });
    const row = await server.built.ctx.db
      .selectFrom('deposit_invoices')
      .selectAll()
      .where('id', '=', res.body.invoiceId as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      user_id: 920002n,
      provider: 'cryptopay',
      provider_invoice_id: String(invoice.invoice_id),
      asset: 'TON',
      amount_nano: 1_250_000_000n,
      status: 'active',
      url: invoice.bot_invoice_url,
    });
    // typed amounts are exact to the nanoTON at any size (8192 TON and up once lost a nanoTON to floats)
    for (const [typed, exact] of [
      ['8192.000000001', '8192.000000001'],
      ['9999,999999999', '9999.999999999'],
      ['2.50', '2.5'],
      ['0.01', '0.01'],
    ] as const) {
      const answer = await server.call<{ amount: string }>('POST', '/deposit/cryptobot-invoice', {
        token,
        body: { amount: typed },
      });
      expect(answer.body.amount, typed).toBe(exact);
      expect(JSON.parse(cryptoPay.requests.at(-1)!.body)).toMatchObject({ amount: exact });
    }
  });

  it('refuses bad amounts and strangers, asking Crypto Pay nothing', async () => {
    const token = await server.login({ id: 920003 });
    const before = cryptoPay.requests.length;
    for (const [body, code] of [
      [{ amount: '0' }, 'INVALID_AMOUNT'],
      [{ amount: '-1' }, 'INVALID_AMOUNT'],
      [{ amount: '0.001' }, 'INVALID_AMOUNT'],
      [{ amount: '10000.000000001' }, 'INVALID_AMOUNT'],
      [{ amount: '2.0000000019' }, 'INVALID_AMOUNT'], // finer than a nanoTON: not silently floored
      [{ amount: '1.2.3' }, 'INVALID_AMOUNT'],
      [{ amount: 'NaN' }, 'INVALID_AMOUNT'],
      [{ amount: '' }, 'VALIDATION_ERROR'],
      [{ amount: 5 }, 'VALIDATION_ERROR'], // amounts are decimal text, never binary floats
      [{}, 'VALIDATION_ERROR'],
      [{ amount: '1', asset: 'BTC' }, 'VALIDATION_ERROR'],
    ] as const) {
      const res = await server.call('POST', '/deposit/cryptobot-invoice', { token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code });
    }
    expect((await server.call('POST', '/deposit/cryptobot-invoice', { body: { amount: '1' } })).status).toBe(
      401,
    );
    expect(cryptoPay.requests.length).toBe(before);
  });

  it('answers 502 when Crypto Pay refuses or cannot be reached', async () => {
    const token = await server.login({ id: 920004 });
    cryptoPay.failNext(400, 'AMOUNT_TOO_SMALL');
    const refused = await server.call('POST', '/deposit/cryptobot-invoice', { token, body: { amount: '1' } });
    expect(refused).toMatchObject({
      status: 502,
      body: { statusCode: 502, error: 'Bad Gateway', code: 'INVOICE_CREATE_FAILED' },
    });
    const failed = await server.built.ctx.db
      .selectFrom('deposit_invoices')
      .select('status')
      .where('user_id', '=', 920004n)
      .execute();
    expect(failed).toEqual([{ status: 'failed' }]);

    const down = await startCryptoPay();
    const url = down.url;
    await down.close();
    const orphan = await startServer({ env: { CRYPTOPAY_TOKEN: 'x:y', CRYPTOPAY_URL: url } });
    try {
      const t = await orphan.login({ id: 920005 });
      const res = await orphan.call('POST', '/deposit/cryptobot-invoice', {
        token: t,
        body: { amount: '1' },
      });
      expect(res).toMatchObject({ status: 502, body: { code: 'INVOICE_CREATE_FAILED' } });
    } finally {
      await orphan.close();
    }
  });

  it('credits a paid invoice once, however often the webhook is replayed', async () => {
    const token = await server.login({ id: 920006 });
    const socket = await authedSocket(server, token);
    const { invoice } = await invoiceFor(token, '3.5');
    const hook = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
    for (let i = 0; i < 3; i++) {
      const res = await postWebhook(server, hook.body, hook.signature);
      expect(res).toEqual({ status: 200, body: { ok: true } });
    }
    expect(await socket.next('deposit_credited')).toEqual({
      type: 'deposit_credited',
      amount: '3.5',
      balance: '3.5',
      method: 'cryptobot',
      id: `cryptopay:${invoice.invoice_id}`,
      demo: false,
    });
    expect(await balance(server, token)).toBe('3.5');
    const credits = await ledgerFor(server, `cryptopay:${invoice.invoice_id}`);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({
      user_id: 920006n,
      delta_nano: 3_500_000_000n,
      kind: 'deposit_cryptobot',
    });
    // a second update for the same invoice (a new update_id) credits nothing either
    const again = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
    expect((await postWebhook(server, again.body, again.signature)).status).toBe(200);
    expect(await ledgerFor(server, `cryptopay:${invoice.invoice_id}`)).toHaveLength(1);
    const row = await server.built.ctx.db
      .selectFrom('deposit_invoices')
      .select(['status', 'paid_at'])
      .where('provider_invoice_id', '=', String(invoice.invoice_id))
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
    expect(row.paid_at).toBeInstanceOf(Date);
    expect(socket.messages.filter((m) => m.type === 'deposit_credited')).toHaveLength(1);
    socket.close();
  });

  it('answers 401 and credits nothing for a missing or wrong signature', async () => {
    const token = await server.login({ id: 920007 });
    const { invoice } = await invoiceFor(token, '2');
    const update = invoicePaidUpdate(invoice);
    const good = signedWebhook(cryptoPay.token, update);
    const otherToken = signedWebhook('999:another-app-token', update);
    const tampered = good.body.replace('"amount":"2"', '"amount":"200"');
    const cases: [string, string | undefined][] = [
      [good.body, undefined],
      [good.body, ''],
      [good.body, 'deadbeef'],
      [good.body, otherToken.signature],
      [tampered, good.signature],
      [good.body, good.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))],
    ];
    for (const [body, signature] of cases) {
      const res = await postWebhook(server, body, signature);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, code: 'SIGNATURE_INVALID' });
    }
    expect(await ledgerFor(server, `cryptopay:${invoice.invoice_id}`)).toHaveLength(0);
    expect(await balance(server, token)).toBe('0');
  });

  it('credits nothing for an unknown invoice, or one whose amount or asset disagree with ours', async () => {
    const token = await server.login({ id: 920008 });
    const { invoice } = await invoiceFor(token, '1');
    const updates = [
      invoicePaidUpdate({ ...invoice, invoice_id: 987654, payload: 'not-ours' }),
      invoicePaidUpdate({ ...invoice, invoice_id: 987655, payload: undefined }),
      invoicePaidUpdate(invoice, { amount: '1000' }),
      invoicePaidUpdate(invoice, { asset: 'USDT' }),
      {
        update_id: 1,
        update_type: 'something_else',
        request_date: new Date().toISOString(),
        payload: invoice,
      },
    ];
    for (const update of updates) {
      const hook = signedWebhook(cryptoPay.token, update);
      expect((await postWebhook(server, hook.body, hook.signature)).status).toBe(200);
    }
    expect(await ledgerFor(server, 'cryptopay:98765')).toHaveLength(0);
    expect(await ledgerFor(server, `cryptopay:${invoice.invoice_id}`)).toHaveLength(0);
    expect(await balance(server, token)).toBe('0');
    // a correctly signed body that is not JSON is a 400
    const junk = await postWebhook(server, '{"update_id":', signRaw(cryptoPay.token, '{"update_id":'));
    expect(junk).toMatchObject({ status: 400, body: { code: 'INVALID_JSON' } });
  });

  it('refuses a signed update holding a NUL character with a 400, crediting nothing', async () => {
    const token = await server.login({ id: 920009 });
    const { invoice } = await invoiceFor(token, '2');
    // a NUL in our id (looked up in the database), in a field we never read, and in a key: Postgres text
    // cannot hold one, so each is refused before any lookup instead of failing inside one
    const updates = [
      invoicePaidUpdate({ ...invoice, invoice_id: 987700, payload: `${invoice.payload}\u0000` }),
      invoicePaidUpdate(invoice, { description: 'Giftcases\u0000deposit' }),
      { ...invoicePaidUpdate(invoice), ['update\u0000id']: 1 },
    ];
    for (const update of updates) {
      const hook = signedWebhook(cryptoPay.token, update);
      expect(hook.body).toContain('\\u0000'); // JSON carries it as an escape, as Crypto Pay would
      const res = await postWebhook(server, hook.body, hook.signature);
      expect(res).toMatchObject({ status: 400, body: { statusCode: 400, code: 'INVALID_TEXT' } });
    }
    expect(await ledgerFor(server, `cryptopay:${invoice.invoice_id}`)).toHaveLength(0);
    expect(await ledgerFor(server, 'cryptopay:987700')).toHaveLength(0);
    expect(await balance(server, token)).toBe('0');
    // the invoice itself is untouched: its clean update still credits it, once
    const clean = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
    expect((await postWebhook(server, clean.body, clean.signature)).status).toBe(200);
    expect(await balance(server, token)).toBe('2');
  });
});

describe('the deposit socket', () => {
  let cryptoPay: CryptoPayStandIn;
  let server: TestServer;

  beforeAll(async () => {
    cryptoPay = await startCryptoPay();
    server = await startServer({
      env: { CRYPTOPAY_TOKEN: cryptoPay.token, CRYPTOPAY_URL: cryptoPay.url, SOCKET_AUTH_TIMEOUT_MS: '300' },
    });
  });
  afterAll(async () => {
    await server.close();
    await cryptoPay.close();
  });

  async function pay(token: string, amount: string): Promise<number> {
    const res = await server.call<{ invoiceId: string }>('POST', '/deposit/cryptobot-invoice', {
      token,
      body: { amount },
    });
    const invoice = [...cryptoPay.invoices.values()].find((i) => i.payload === res.body.invoiceId)!;
    const hook = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
    expect((await postWebhook(server, hook.body, hook.signature)).status).toBe(200);
    return invoice.invoice_id;
  }

  it("reaches every socket of the credited player and no one else's", async () => {
    const alice = await server.login({ id: 930001, first_name: 'Alice' });
    const bob = await server.login({ id: 930002, first_name: 'Bob' });
    const alice1 = await authedSocket(server, alice);
    const alice2 = await authedSocket(server, alice);
    const bob1 = await authedSocket(server, bob);

    const aliceInvoice = await pay(alice, '1');
    for (const s of [alice1, alice2]) {
      expect(await s.next('deposit_credited')).toMatchObject({
        amount: '1',
        balance: '1',
        id: `cryptopay:${aliceInvoice}`,
      });
    }
    const bobInvoice = await pay(bob, '2');
    // messages arrive in order: had Bob's socket been sent Alice's credit, it would be there before his own
    expect(await bob1.next('deposit_credited')).toMatchObject({
      amount: '2',
      balance: '2',
      id: `cryptopay:${bobInvoice}`,
    });
    expect(bob1.messages.filter((m) => m.type === 'deposit_credited')).toHaveLength(1);
    await pay(alice, '0.5');
    await waitFor(
      () => alice1.messages.filter((m) => m.type === 'deposit_credited').length === 2,
      'a second credit',
    );
    expect(alice1.messages.at(-1)).toMatchObject({ amount: '0.5', balance: '1.5' });
    // a closed socket is simply gone; the other one still gets credits
    alice2.close();
    await alice2.closed;
    await pay(alice, '0.25');
    await waitFor(
      () => alice1.messages.filter((m) => m.type === 'deposit_credited').length === 3,
      'a third credit',
    );
    expect(bob1.messages.filter((m) => m.type === 'deposit_credited')).toHaveLength(1);
    alice1.close();
    bob1.close();
  });

  it('closes a socket that does not authenticate', async () => {
    const bad = await openSocket(wsUrl(server));
    bad.send({ type: 'auth', token: 'not.a.token' });
    expect(await bad.closed).toBe(4401);

    const forged = await openSocket(wsUrl(server));
    const token = await server.login({ id: 930003 });
    forged.send({ type: 'auth', token: token.slice(0, -4) + 'AAAA' });
    expect(await forged.closed).toBe(4401);

    const wrongFirst = await openSocket(wsUrl(server));
    wrongFirst.send({ type: 'hello' });
    expect(await wrongFirst.closed).toBe(4400);

    const notJson = await openSocket(wsUrl(server));
    notJson.send('garbage' as unknown as object);
    expect(await notJson.closed).toBe(4400);

    // no message at all: closed when the auth time runs out (10 s by default; 300 ms here)
    const start = Date.now(); // before connecting: the server's clock starts after this
    const silent = await openSocket(wsUrl(server));
    expect(await silent.closed).toBe(4408);
    expect(Date.now() - start).toBeGreaterThanOrEqual(295);
    // and an unauthenticated socket never hears of deposits
    const lurker = await openSocket(wsUrl(server));
    const owner = await server.login({ id: 930005 });
    await pay(owner, '1');
    expect(await lurker.closed).toBe(4408);
    expect(lurker.messages).toEqual([]);
  });

  it('answers a ping after auth', async () => {
    const token = await server.login({ id: 930004 });
    const socket = await authedSocket(server, token);
    socket.send({ type: 'ping' });
    expect(await socket.next('pong')).toEqual({ type: 'pong' });
    socket.close();
  });
});

describe('demo deposits', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer({ env: { BOT_TOKEN: '', DEMO_DEPOSIT_DELAY_MS: '100' } });
    const login = await server.call<{ token: string }>('POST', '/auth/login', {
      body: {
        initData: signLaunchData({ id: 940001, first_name: 'Demo tester' }, server.built.ctx.botToken),
      },
    });
    token = login.body.token;
  });
  afterAll(() => server.close());

  it('labels both methods as demo and gives a demo TON address', async () => {
    const info = await server.call<{ ton: { address: string; comment: string; demo: boolean } }>(
      'GET',
      '/deposit/info',
      {
        token,
      },
    );
    expect(info.body).toMatchObject({
      ton: { demo: true },
      cryptobot: true,
      cryptobotDemo: true,
      demo: true,
    });
    expect(info.body.ton.address).toMatch(/^[kE]Q/);
    expect(info.body.ton.comment).toMatch(/^gc-/);
  });

  it('credits a demo TON deposit after the delay, through the ledger, and says so on the socket', async () => {
    const socket = await authedSocket(server, token);
    const start = Date.now();
    const res = await server.call<{ id: string }>('POST', '/deposit/demo', {
      token,
      body: { amount: '2.5', method: 'ton' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^demo:[0-9a-f-]{36}$/),
      amount: '2.5',
      method: 'ton',
      creditInMs: 100,
      demo: true,
    });
    const msg = await socket.next('deposit_credited');
    expect(Date.now() - start).toBeGreaterThanOrEqual(90);
    expect(msg).toEqual({
      type: 'deposit_credited',
      amount: '2.5',
      balance: '2.5',
      method: 'ton',
      id: res.body.id,
      demo: true,
    });
    expect(await balance(server, token)).toBe('2.5');
    expect(await ledgerFor(server, res.body.id)).toMatchObject([
      { kind: 'deposit_demo', delta_nano: 2_500_000_000n },
    ]);
    socket.close();
  });

  it('answers a demo CryptoBot invoice with a local demo page and credits it', async () => {
    const before = await balance(server, token);
    const res = await server.call<{ invoiceUrl: string; demo: boolean; invoiceId: string }>(
      'POST',
      '/deposit/cryptobot-invoice',
      { token, body: { amount: '1' } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ demo: true, amount: '1', miniAppInvoiceUrl: null });
    expect(res.body.invoiceUrl).toBe(`${server.baseUrl}/api/deposit/demo-invoice/${res.body.invoiceId}`);
    const page = await fetch(res.body.invoiceUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('DEMO');
    await waitFor(
      async () => parseTon(await balance(server, token)) === parseTon(before) + 1_000_000_000n,
      'the demo invoice credit',
    );
    const credits = await server.built.ctx.db
      .selectFrom('ledger')
      .selectAll()
      .where('ref', '=', res.body.invoiceId)
      .execute();
    expect(credits).toMatchObject([{ kind: 'deposit_demo', delta_nano: 1_000_000_000n }]);
    expect(await (await fetch(res.body.invoiceUrl)).text()).toContain('has landed');
  });

  it('is off outside demo mode, and when the real provider is configured', async () => {
    const real = await startServer();
    try {
      const t = await real.login({ id: 940002 });
      const res = await real.call('POST', '/deposit/demo', {
        token: t,
        body: { amount: '1', method: 'ton' },
      });
      expect(res).toMatchObject({ status: 404, body: { code: 'DEMO_DEPOSITS_OFF' } });
      const info = await real.call('GET', '/deposit/info', { token: t });
      expect(info.body).toMatchObject({ ton: null, cryptobot: false, demo: false });
      const invoice = await real.call('POST', '/deposit/cryptobot-invoice', {
        token: t,
        body: { amount: '1' },
      });
      expect(invoice).toMatchObject({ status: 404, body: { code: 'DEPOSIT_METHOD_OFF' } });
    } finally {
      await real.close();
    }
    expect(
      (await server.call('POST', '/deposit/demo', { token, body: { amount: '1', method: 'card' } })).status,
    ).toBe(400);
  });
});
