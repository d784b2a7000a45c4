import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import {
  createTestDatabase,
  postgresUrl,
  startServer,
  type TestDatabase,
  type TestServer,
} from './harness.ts';
import { createBus, MAX_MESSAGE_BYTES } from '../../server/realtime/bus.ts';
import {
  invoicePaidUpdate,
  signedWebhook,
  startCryptoPay,
  type CryptoPayStandIn,
} from '../stand-ins/cryptopay.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket, type TestSocket } from '../stand-ins/ws-client.ts';

async function authedSocket(server: TestServer, token: string): Promise<TestSocket> {
  const socket = await openSocket(server.baseUrl.replace('http', 'ws') + '/api/ws/deposits');
  socket.send({ type: 'auth', token });
  await socket.next('auth_ok');
  return socket;
}

describe('the event bus', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('delivers by channel, stops after unsubscribe, and refuses bad channels and oversized payloads', async () => {
    const bus = await createBus(db.database);
    try {
      const got: unknown[] = [];
      const other: unknown[] = [];
      const off = bus.subscribe('drops', (p) => got.push(p));
      bus.subscribe('deposits', (p) => other.push(p));
      await bus.publish('drops', { id: 1, item: 'flower_pink' });
      await waitFor(() => got.length === 1, 'a delivery');
      expect(got).toEqual([{ id: 1, item: 'flower_pink' }]);
      expect(other).toEqual([]);
      off();
      await bus.publish('drops', { id: 2 });
      await bus.publish('deposits', { ok: true });
      await waitFor(() => other.length === 1, 'the other channel');
      expect(got).toHaveLength(1);
      await expect(bus.publish('Bad Channel!', {})).rejects.toThrow(RangeError);
      await expect(bus.publish('drops', { blob: 'x'.repeat(MAX_MESSAGE_BYTES) })).rejects.toThrow(RangeError);
      // a failing subscriber does not stop the others
      bus.subscribe('drops', () => {
        throw new Error('boom');
      });
      const after: unknown[] = [];
      bus.subscribe('drops', (p) => after.push(p));
      await bus.publish('drops', { id: 3 });
      await waitFor(() => after.length === 1, 'delivery past a failing subscriber');
    } finally {
      await bus.close();
    }
  });
});

describe.skipIf(!postgresUrl)('two instances on one Postgres', () => {
  let cryptoPay: CryptoPayStandIn;
  let shared: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    cryptoPay = await startCryptoPay();
    shared = await createTestDatabase();
    const env = { CRYPTOPAY_TOKEN: cryptoPay.token, CRYPTOPAY_URL: cryptoPay.url };
    a = await startServer({ database: shared.database, env });
    b = await startServer({ database: shared.database, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
    await cryptoPay?.close();
  });

  it('a bus message published on one instance reaches subscribers on the other, once', async () => {
    const onA: unknown[] = [];
    const onB: unknown[] = [];
    a.built.ctx.bus.subscribe('drops', (p) => onA.push(p));
    b.built.ctx.bus.subscribe('drops', (p) => onB.push(p));
    await a.built.ctx.bus.publish('drops', { n: 1 });
    await b.built.ctx.bus.publish('drops', { n: 2 });
    await waitFor(() => onA.length === 2 && onB.length === 2, 'both messages on both instances');
    await new Promise((r) => setTimeout(r, 100)); // and no echo of its own message arrives later
    // each instance gets each message once; order across instances is not promised (its own comes first)
    const byN = (xs: unknown[]) => [...xs].sort((x, y) => (x as { n: number }).n - (y as { n: number }).n);
    expect(byN(onA)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(byN(onB)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('many messages published at once travel packed and reach the other instance whole, in order', async () => {
    const onB: unknown[] = [];
    const onA: unknown[] = [];
    b.built.ctx.bus.subscribe('packed', (p) => onB.push(p));
    a.built.ctx.bus.subscribe('packed', (p) => onA.push(p));
    // 300 drops of about 400 bytes: over 100 KB, so more than one statement and many notifications
    const sent = Array.from({ length: 300 }, (_, n) => ({
      n,
      name: `Plush Pepe ${'🐸'.repeat(n % 7)}`,
      pad: 'x'.repeat(360),
    }));
    // what Postgres carries: a listener of our own counts the notifications
    const listener = new pg.Client({ connectionString: shared.url! });
    await listener.connect();
    let notifications = 0;
    listener.on('notification', () => (notifications += 1));
    await listener.query('LISTEN giftcases_bus');
    await Promise.all([
      a.built.ctx.bus.publishAll('packed', sent.slice(0, 150)),
      ...sent.slice(150).map((m) => a.built.ctx.bus.publish('packed', m)),
    ]);
    await waitFor(() => onB.length === sent.length, 'every message on the other instance');
    await new Promise((r) => setTimeout(r, 100));
    await listener.end();
    expect(onB).toEqual(sent);
    // about 20 to a notification (over 7 KB each), where each message was one before
    expect(notifications).toBeGreaterThan(10);
    expect(notifications).toBeLessThan(40);
    // the publisher had them at publish, once each: its own notifications, packed or not, are skipped
    expect(onA).toEqual(sent);
  });

  it('a credit made by instance A reaches the player socket on instance B, and only that player', async () => {
    const token = await a.login({ id: 950001 });
    const otherToken = await b.login({ id: 950002 });
    const onB = await authedSocket(b, token);
    const otherOnB = await authedSocket(b, otherToken);
    const otherOnA = await authedSocket(a, otherToken);

    // the invoice is made on A, and Crypto Pay's webhook lands on A too
    const res = await a.call<{ invoiceId: string }>('POST', '/deposit/cryptobot-invoice', {
      token,
      body: { amount: '4' },
    });
    const invoice = [...cryptoPay.invoices.values()].find((i) => i.payload === res.body.invoiceId)!;
    const hook = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
    const paid = await a.call('POST', '/payments/cryptopay/webhook', {
      rawBody: hook.body,
      headers: { 'content-type': 'application/json', 'crypto-pay-api-signature': hook.signature },
    });
    expect(paid.status).toBe(200);
    expect(await onB.next('deposit_credited')).toEqual({
      type: 'deposit_credited',
      amount: '4',
      balance: '4',
      method: 'cryptobot',
      id: `cryptopay:${invoice.invoice_id}`,
      demo: false,
    });
    // the same webhook replayed on B credits nothing and notifies no one
    const replay = await b.call('POST', '/payments/cryptopay/webhook', {
      rawBody: hook.body,
      headers: { 'content-type': 'application/json', 'crypto-pay-api-signature': hook.signature },
    });
    expect(replay.status).toBe(200);

    // the other player then gets their own credit, on both instances, and never saw the first one
    const res2 = await b.call<{ invoiceId: string }>('POST', '/deposit/cryptobot-invoice', {
      token: otherToken,
      body: { amount: '1' },
    });
    const invoice2 = [...cryptoPay.invoices.values()].find((i) => i.payload === res2.body.invoiceId)!;
    const hook2 = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice2));
    await b.call('POST', '/payments/cryptopay/webhook', {
      rawBody: hook2.body,
      headers: { 'content-type': 'application/json', 'crypto-pay-api-signature': hook2.signature },
    });
    for (const s of [otherOnA, otherOnB]) {
      await s.next('deposit_credited');
      expect(s.messages.filter((m) => m.type === 'deposit_credited')).toEqual([
        expect.objectContaining({ id: `cryptopay:${invoice2.invoice_id}`, amount: '1' }),
      ]);
    }
    expect(onB.messages.filter((m) => m.type === 'deposit_credited')).toHaveLength(1);
    for (const s of [onB, otherOnA, otherOnB]) s.close();
  });
});

if (!postgresUrl) {
  console.log(
    '[deposit-bus] the two-instance LISTEN/NOTIFY tests were skipped: set TEST_DATABASE_URL to a Postgres server',
  );
}
