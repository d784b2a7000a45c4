import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { SignJWT } from 'jose';
import { MAX_PAGE } from '../../contract/common.ts';
import { SocketCloseCode } from '../../contract/deposit.ts';
import { sweepIdempotencyKeys } from '../../server/lib/idempotency.ts';
import { BOT_TOKEN, signLaunchData, startServer, type TestServer } from './harness.ts';
import { grantItems } from './holdings.ts';
import { TON } from './games.ts';
import { startToncenter, transferTx, type ToncenterStandIn, type TxJson } from '../stand-ins/toncenter.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket } from '../stand-ins/ws-client.ts';

// One test (at least) per finding of the hostile-traffic review that would fail on the code before it:
// a poisoned TON transfer, text and numbers the database cannot take, launch data and tokens out of
// bounds, a session of a player that does not exist, a socket path asked for as plain HTTP, and stored
// idempotency keys that never expired. The lock order (findings 2-3) has its own suite:
// tests/api/money-concurrency.test.ts.

const WALLET = new Address(0, Buffer.alloc(32, 0x6b));
const JWT_SECRET = 'test-secret-test-secret-test-secret';

let toncenter: ToncenterStandIn;
let server: TestServer;

const hex = (tx: TxJson) => Buffer.from(tx.hash, 'base64').toString('hex');
let nextLt = 61_000_000_000_000n;
const lt = () => (nextLt += 1_000n);

async function balanceNano(userId: number): Promise<bigint> {
  const row = await server.built.ctx.db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', BigInt(userId))
    .executeTakeFirstOrThrow();
  return row.balance_nano;
}

/** Launch data signed like Telegram does, for user JSON of the test's choosing (no library involved). */
function signedRaw(userJson: string, authDate: Date): string {
  const date = String(Math.floor(authDate.getTime() / 1000));
  const pairs = [`auth_date=${date}`, `user=${userJson}`].sort().join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(BOT_TOKEN).digest();
  const hash = createHmac('sha256', secret).update(pairs).digest('hex');
  return new URLSearchParams({ user: userJson, auth_date: date, hash }).toString();
}

function token(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + 600)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

function expectJsonError(res: { status: number; body: unknown }, status: number, code?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = res.body as { statusCode?: unknown; code?: unknown; message?: unknown };
  expect(body.statusCode).toBe(status);
  expect(typeof body.message).toBe('string');
  if (typeof code === 'string') expect(body.code).toBe(code);
  else if (code) expect(body.code).toMatch(code);
}

describe('money hardening: the findings of the hostile-traffic review', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    toncenter = await startToncenter();
    server = await startServer({
      env: {
        TON_DEPOSIT_ADDRESS: WALLET.toString(),
        TONCENTER_URL: toncenter.url,
        TON_POLL_INTERVAL_MS: '20',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await toncenter?.close();
  });

  it('finding 1: poisoned transfers are skipped and recorded once; the valid deposit after them is credited once, a replay credits nothing', async () => {
    const id = 930_001;
    const tokenA = await server.login({ id });
    const info = await server.call<{ ton: { comment: string } }>('GET', '/deposit/info', { token: tokenA });
    const comment = info.body.ton.comment;

    const poison: TxJson[] = [
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: 'gc-\u0000' }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: `${comment}\u0000` }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: `gc-\ud800${comment.slice(3)}` }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: `${comment}\udfff` }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment, bounced: true }),
      transferTx({ to: WALLET, lt: lt(), value: '99999999999999999999999999', comment }),
      transferTx({ to: WALLET, lt: lt(), value: (2n ** 63n).toString(), comment }),
      transferTx({ to: WALLET, lt: lt(), value: '-5', comment }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: 'x'.repeat(5000) }),
    ];
    // a garbage body that toncenter could not decode
    const garbage = transferTx({ to: WALLET, lt: lt(), value: TON, comment, decoded: false });
    garbage.in_msg!.message_content = { hash: 'x', body: '%%% not a bag of cells %%%', decoded: null };
    // fields of the wrong types, and a hash that is no hash
    const wrongTypes = transferTx({ to: WALLET, lt: lt(), value: TON, comment });
    (wrongTypes as unknown as { out_msgs: unknown }).out_msgs = 'nope';
    const noHash = transferTx({ to: WALLET, lt: lt(), value: TON, comment });
    noHash.hash = '\u0000not-a-hash\ud800';
    const weirdMsg = transferTx({ to: WALLET, lt: lt(), value: TON, comment });
    Object.assign(weirdMsg.in_msg!, { value: { nested: true }, message_content: 'text', bounced: 'no' });
    poison.push(garbage, wrongTypes, noHash, weirdMsg);
    const valid = transferTx({ to: WALLET, lt: lt(), value: 3n * TON, comment });
    toncenter.transactions.push(...poison, valid);

    await waitFor(async () => (await balanceNano(id)) === 3n * TON, 'the valid deposit', 30_000);
    const skips = () => server.built.ctx.db.selectFrom('payment_skips').selectAll().execute();
    const recorded = await skips();
    expect(recorded).toHaveLength(poison.length);
    for (const row of recorded) {
      // stored as printable ASCII: unsafe characters were escaped
      expect(row.detail).toMatch(/^[\x20-\x7e]*$/);
      expect(row.method).toBe('ton');
    }
    expect(recorded.map((r) => r.external_id)).toContain(`ton:${hex(garbage)}`);
    expect(recorded.find((r) => r.external_id === `ton:${hex(poison[4]!)}`)?.reason).toBe('bounced');

    // everything again, from scratch: nothing more credited, nothing recorded twice
    toncenter.replayEverything = true;
    await server.built.ctx.db.deleteFrom('payment_cursors').execute();
    const before = toncenter.answered();
    await waitFor(() => toncenter.answered() >= before + 10, 'ten polls of the whole chain', 30_000);
    expect(await balanceNano(id)).toBe(3n * TON);
    const credits = await server.built.ctx.db
      .selectFrom('ledger')
      .select(['external_id', 'delta_nano'])
      .where('external_id', 'like', 'ton:%')
      .execute();
    expect(credits).toEqual([{ external_id: `ton:${hex(valid)}`, delta_nano: 3n * TON }]);
    expect(await skips()).toHaveLength(poison.length);
    toncenter.replayEverything = false;
  });

  it('finding 4: NUL bytes and lone surrogates in text fields are 400, not 500', async () => {
    const id = 930_002;
    const t = await server.login({ id });
    await grantItems(server, id, { cake: 2 });
    const bad = ['cake\u0000', '\u0000', 'ca\ud800ke', '\udc00'];
    for (const text of bad) {
      expectJsonError(
        await server.call('POST', '/inventory/sell', { token: t, body: { itemId: text, quantity: 1 } }),
        400,
        // a NUL is refused at the edge for every route, before validation
        text.includes('\u0000') ? 'INVALID_TEXT' : 'VALIDATION_ERROR',
      );
      expectJsonError(
        await server.call('POST', '/inventory/withdraw', { token: t, body: { itemId: text, quantity: 1 } }),
        400,
      );
      expectJsonError(await server.call('POST', '/cases/open', { token: t, body: { caseId: text } }), 400);
      expectJsonError(
        await server.call('POST', '/upgrade/roll', {
          token: t,
          body: { baseChance: 0.39, coef: 2, itemId: text },
        }),
        400,
      );
      expectJsonError(
        await server.call('POST', '/battles', {
          token: t,
          body: { format: '1v1', mode: 'normal', caseIds: [text] },
        }),
        400,
      );
    }
    expectJsonError(await server.call('GET', `/cases/${encodeURIComponent('a\u0000')}`), 400);
    expectJsonError(
      await server.call('GET', `/upgrade/options?itemId=${encodeURIComponent('a\u0000')}&coef=2`, {
        token: t,
      }),
      400,
    );
    expectJsonError(
      await server.call('POST', '/auth/login', { body: { initData: 'user=%00&hash=\u0000' } }),
      400,
    );
    const after = await server.built.ctx.db
      .selectFrom('inventory')
      .select('quantity')
      .where('user_id', '=', BigInt(id))
      .where('item_id', '=', 'cake')
      .executeTakeFirstOrThrow();
    expect(after.quantity).toBe(2);
  });

  it('finding 4: page numbers are bounded (?page=1e20 is 400, MAX_PAGE is fine)', async () => {
    const t = await server.login({ id: 930_003 });
    for (const path of ['/cases/history', '/upgrade/history', '/fairness/history']) {
      for (const page of ['1e20', String(MAX_PAGE + 1), '9007199254740993', '-1', '0', '1.5', 'Infinity']) {
        expectJsonError(await server.call('GET', `${path}?page=${page}`, { token: t }), 400);
      }
      const ok = await server.call('GET', `${path}?page=${MAX_PAGE}`, { token: t });
      expect(ok.status).toBe(200);
    }
  });

  it('finding 4: launch data dated in the future, or with a user id above int64, is refused with 401', async () => {
    const future = await server.call('POST', '/auth/login', {
      body: { initData: signLaunchData({ id: 930_004 }, BOT_TOKEN, new Date(Date.now() + 3600_000)) },
    });
    expectJsonError(future, 401, 'INIT_DATA_AUTH_DATE_FUTURE');
    for (const userId of ['99999999999999999999', '9223372036854775808', '-7', '0']) {
      const res = await server.call('POST', '/auth/login', {
        body: { initData: signedRaw(`{"id":${userId},"first_name":"X"}`, new Date()) },
      });
      expectJsonError(res, 401, /^INIT_DATA_/);
    }
    const nul = await server.call('POST', '/auth/login', {
      body: { initData: signedRaw('{"id":930005,"first_name":"A\\u0000B"}', new Date()) },
    });
    expectJsonError(nul, 401, 'INIT_DATA_USER_INVALID');
  });

  it('finding 4: a token whose sub is beyond int64 is 401, and the deposit socket closes with 4401, not 1011', async () => {
    for (const sub of ['99999999999999999999', '9223372036854775808', '0', '-1']) {
      const t = await token(sub);
      expectJsonError(await server.call('GET', '/auth/me', { token: t }), 401, 'TOKEN_INVALID');
      expectJsonError(await server.call('GET', '/deposit/info', { token: t }), 401, 'TOKEN_INVALID');
      const socket = await openSocket(server.baseUrl.replace('http', 'ws') + '/api/ws/deposits');
      socket.send({ type: 'auth', token: t });
      expect(await socket.closed).toBe(SocketCloseCode.UNAUTHORIZED);
    }
  });

  it('finding 4: a validly signed token of a player who does not exist is 401 USER_UNKNOWN everywhere', async () => {
    const t = await token('930999');
    expectJsonError(await server.call('GET', '/deposit/info', { token: t }), 401, 'USER_UNKNOWN');
    expectJsonError(await server.call('GET', '/fairness', { token: t }), 401, 'USER_UNKNOWN');
    expectJsonError(await server.call('GET', '/auth/me', { token: t }), 401, 'USER_UNKNOWN');
    expectJsonError(
      await server.call('POST', '/inventory/sell', { token: t, body: { sellAll: true } }),
      401,
      'USER_UNKNOWN',
    );
    expectJsonError(
      await server.call('POST', '/cases/open', {
        token: t,
        body: { caseId: 'starter' },
        headers: { 'idempotency-key': 'ghost-1' },
      }),
      401,
      'USER_UNKNOWN',
    );
    expectJsonError(await server.call('POST', '/fairness/rotate', { token: t }), 401, 'USER_UNKNOWN');
    const user = await server.built.ctx.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', 930999n)
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('finding 4: a plain GET of a socket path is 426 with a JSON body', async () => {
    for (const path of ['/ws/deposits', '/ws/drops', '/ws/battles']) {
      const res = await fetch(`${server.baseUrl}/api${path}`);
      expect(res.status).toBe(426);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ statusCode: 426, code: 'UPGRADE_REQUIRED' });
    }
  });

  it('finding 9: a stored Idempotency-Key expires after 24 hours, and the sweeper deletes expired keys', async () => {
    const id = 930_006;
    const t = await server.login({ id });
    await grantItems(server, id, { cake: 3 });
    const sell = (key: string) =>
      server.call<{ balance: string }>('POST', '/inventory/sell', {
        token: t,
        body: { itemId: 'cake', quantity: 1 },
        headers: { 'idempotency-key': key },
      });
    const first = await sell('sell-expiry-1');
    expect(first.status).toBe(200);
    const replay = await sell('sell-expiry-1');
    expect(replay.body).toEqual(first.body);
    const db = server.built.ctx.db;
    const age = (key: string, hours: number) =>
      db
        .updateTable('idempotency_keys')
        .set({ created_at: new Date(Date.now() - hours * 3600_000) })
        .where('user_id', '=', BigInt(id))
        .where('key', '=', key)
        .execute();
    // 23 hours on, still a replay; 25 hours on, the key is forgotten and the same request runs afresh
    await age('sell-expiry-1', 23);
    expect((await sell('sell-expiry-1')).body).toEqual(first.body);
    await age('sell-expiry-1', 25);
    const fresh = await sell('sell-expiry-1');
    expect(fresh.status).toBe(200);
    expect(fresh.body.balance).not.toBe(first.body.balance);

    expect((await sell('sell-expiry-2')).status).toBe(200);
    await age('sell-expiry-2', 25);
    expect(await sweepIdempotencyKeys(db)).toBeGreaterThanOrEqual(1);
    const keys = await db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('user_id', '=', BigInt(id))
      .execute();
    expect(keys.map((k) => k.key)).toEqual(['sell-expiry-1']);
  });
});
