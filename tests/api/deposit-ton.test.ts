import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { createTestDatabase, startServer, type TestServer } from './harness.ts';
import { startToncenter, transferTx, type ToncenterStandIn, type TxJson } from '../stand-ins/toncenter.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket } from '../stand-ins/ws-client.ts';

const WALLET = new Address(0, Buffer.alloc(32, 0x5a));
const API_KEY = 'toncenter-test-key';
const TON = 1_000_000_000n;

let toncenter: ToncenterStandIn;
const servers: TestServer[] = [];

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    TON_DEPOSIT_ADDRESS: WALLET.toString(),
    TONCENTER_URL: toncenter.url,
    TONCENTER_API_KEY: API_KEY,
    TON_POLL_INTERVAL_MS: '20',
    ...extra,
  };
}

async function start(options: Parameters<typeof startServer>[0] = {}): Promise<TestServer> {
  const server = await startServer({ ...options, env: { ...env(), ...options.env } });
  servers.push(server);
  return server;
}

/** Signs a player in and returns their token and deposit comment. */
async function player(server: TestServer, id: number): Promise<{ token: string; comment: string }> {
  const token = await server.login({ id, first_name: `P${id}` });
  const info = await server.call<{ ton: { comment: string } }>('GET', '/deposit/info', { token });
  expect(info.status).toBe(200);
  return { token, comment: info.body.ton.comment };
}

async function balanceNano(server: TestServer, userId: number): Promise<bigint> {
  const row = await server.built.ctx.db
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', BigInt(userId))
    .executeTakeFirstOrThrow();
  return row.balance_nano;
}

async function tonCredits(server: TestServer) {
  return server.built.ctx.db
    .selectFrom('ledger')
    .selectAll()
    .where('external_id', 'like', 'ton:%')
    .orderBy('id')
    .execute();
}

async function cursor(server: TestServer): Promise<bigint | null> {
  const row = await server.built.ctx.db
    .selectFrom('payment_cursors')
    .select('position')
    .where('name', '=', `ton:${WALLET.toRawString()}`)
    .executeTakeFirst();
  return row?.position ?? null;
}

const hex = (tx: TxJson) => Buffer.from(tx.hash, 'base64').toString('hex');
let nextLt = 48_000_000_000_000n;
function lt(): bigint {
  nextLt += 1_000n;
  return nextLt;
}

describe('TON deposits through the toncenter v3 watcher', () => {
  beforeAll(async () => {
    toncenter = await startToncenter({ apiKey: API_KEY });
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
    toncenter.transactions.length = 0;
    toncenter.replayEverything = false;
  });
  afterAll(() => toncenter.close());

  it('gives each player a stable comment and the configured address', async () => {
    const server = await start();
    const token = await server.login({ id: 910001 });
    const first = await server.call('GET', '/deposit/info', { token });
    const again = await server.call('GET', '/deposit/info', { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      ton: { address: WALLET.toString(), demo: false },
      cryptobot: false,
      demo: false,
      minAmount: '0.01',
    });
    const comment = (first.body as { ton: { comment: string } }).ton.comment;
    expect(comment).toMatch(/^gc-[a-z2-9]{10}$/);
    expect(again.body).toEqual(first.body);
    const other = await player(server, 910002);
    expect(other.comment).not.toBe(comment);
    expect((await server.call('GET', '/deposit/info')).status).toBe(401);
  });

  it('credits a transfer seen on every poll exactly once, and tells only that player', async () => {
    const server = await start();
    const p = await player(server, 910010);
    const socket = await openSocket(server.baseUrl.replace('http', 'ws') + '/api/ws/deposits');
    socket.send({ type: 'auth', token: p.token });
    await socket.next('auth_ok');

    toncenter.replayEverything = true; // the stand-in returns the transfer on every poll, cursor or not
    const tx = transferTx({ to: WALLET, lt: lt(), value: 1_500_000_000n, comment: p.comment });
    toncenter.transactions.push(tx);
    const before = toncenter.answered();
    const msg = await socket.next('deposit_credited');
    expect(msg).toEqual({
      type: 'deposit_credited',
      amount: '1.5',
      balance: '1.5',
      method: 'ton',
      id: `ton:${hex(tx)}`,
      demo: false,
    });
    await waitFor(() => toncenter.answered() >= before + 10, '10 polls that all return the transfer');
    // forgetting the cursor makes the watcher read the transfer again from scratch: still once
    await server.built.ctx.db.deleteFrom('payment_cursors').execute();
    const after = toncenter.answered();
    await waitFor(
      async () => toncenter.answered() >= after + 5 && (await cursor(server)) !== null,
      'a re-read',
    );

    expect(await balanceNano(server, 910010)).toBe(1_500_000_000n);
    const credits = await tonCredits(server);
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({
      user_id: 910010n,
      delta_nano: 1_500_000_000n,
      balance_after_nano: 1_500_000_000n,
      kind: 'deposit_ton',
      external_id: `ton:${hex(tx)}`,
      ref: tx.in_msg!.source,
    });
    expect(socket.messages.filter((m) => m.type === 'deposit_credited')).toHaveLength(1);
    // the watcher asked for the receiving wallet's transactions, oldest first, with the API key
    const req = toncenter.requests.at(-1)!;
    expect(Address.parse(req.query.get('account')!).equals(WALLET)).toBe(true);
    expect(req.query.get('sort')).toBe('asc');
    expect(req.headers['x-api-key']).toBe(API_KEY);
    socket.close();
  });

  it('credits nothing for bounced, with-out-messages, aborted, unknown-comment and comment-less transfers', async () => {
    const server = await start();
    const p = await player(server, 910020);
    const wrong = [
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment, bounced: true }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment, withOutMessage: true }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment, aborted: true }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: 'gc-nobody22222' }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: 'thanks for the gifts' }),
      transferTx({ to: WALLET, lt: lt(), value: TON, comment: null }),
    ];
    // a transfer to another wallet that names the player: not ours to credit
    const elsewhere = transferTx({
      to: new Address(0, Buffer.alloc(32, 1)),
      lt: lt(),
      value: TON,
      comment: p.comment,
    });
    toncenter.transactions.push(...wrong, elsewhere);
    const last = BigInt(wrong.at(-1)!.lt);
    await waitFor(async () => ((await cursor(server)) ?? 0n) >= last, 'the watcher to read past them');
    expect(await tonCredits(server)).toHaveLength(0);
    expect(await balanceNano(server, 910020)).toBe(0n);

    // and a good one after them lands, also when toncenter leaves the body undecoded, comment in any case
    const good = transferTx({
      to: WALLET,
      lt: lt(),
      value: 2n * TON,
      comment: p.comment.toUpperCase(),
      decoded: false,
    });
    toncenter.transactions.push(good);
    await waitFor(async () => (await balanceNano(server, 910020)) === 2n * TON, 'the good transfer');
    expect((await tonCredits(server)).map((c) => c.external_id)).toEqual([`ton:${hex(good)}`]);
  });

  it('keeps its cursor across a restart: nothing repeated, nothing missed', async () => {
    const shared = await createTestDatabase();
    try {
      const first = await start({ database: shared.database });
      const p = await player(first, 910030);
      const tx1 = transferTx({ to: WALLET, lt: lt(), value: 3n * TON, comment: p.comment });
      toncenter.transactions.push(tx1);
      await waitFor(async () => (await balanceNano(first, 910030)) === 3n * TON, 'the first deposit');
      await waitFor(async () => (await cursor(first)) === BigInt(tx1.lt), 'the cursor to be saved');
      await first.close();

      // while no instance runs, another transfer arrives
      const tx2 = transferTx({ to: WALLET, lt: lt(), value: 4n * TON, comment: p.comment });
      toncenter.transactions.push(tx2);
      const seenBefore = toncenter.requests.length;
      const second = await start({ database: shared.database });
      await waitFor(
        async () => (await balanceNano(second, 910030)) === 7n * TON,
        'the deposit made while down',
      );
      // the new instance went on from the stored cursor instead of from the start
      expect(toncenter.requests[seenBefore]!.query.get('start_lt')).toBe((BigInt(tx1.lt) + 1n).toString());
      const tx3 = transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment });
      toncenter.transactions.push(tx3);
      await waitFor(
        async () => (await balanceNano(second, 910030)) === 8n * TON,
        'a deposit after the restart',
      );
      expect((await tonCredits(second)).map((c) => c.external_id)).toEqual(
        [tx1, tx2, tx3].map((t) => `ton:${hex(t)}`),
      );
      await second.close();
    } finally {
      await shared.drop();
    }
  });

  it('pages through many transactions', async () => {
    const from = toncenter.requests.length;
    const server = await start({ env: { TON_PAGE_LIMIT: '2' } });
    const p = await player(server, 910040);
    const txs = Array.from({ length: 5 }, (_, i) =>
      transferTx({ to: WALLET, lt: lt(), value: BigInt(i + 1) * TON, comment: p.comment }),
    );
    toncenter.transactions.push(...txs.reverse()); // any order on the stand-in's side
    await waitFor(async () => (await balanceNano(server, 910040)) === 15n * TON, 'all five deposits');
    expect(await tonCredits(server)).toHaveLength(5);
    const mine = toncenter.requests.slice(from);
    expect(mine.every((r) => r.query.get('limit') === '2')).toBe(true);
    // full pages were followed at once by the next one, from just past the last lt read
    const starts = mine.map((r) => r.query.get('start_lt')).filter((v): v is string => v !== null);
    const sorted = [...txs].sort((x, y) => (BigInt(x.lt) < BigInt(y.lt) ? -1 : 1));
    expect(starts).toContain((BigInt(sorted[1]!.lt) + 1n).toString());
    expect(starts).toContain((BigInt(sorted[3]!.lt) + 1n).toString());
  });

  it('backs off exponentially on 429 and errors, then goes on', async () => {
    const server = await start({ env: { TON_POLL_INTERVAL_MS: '25' } });
    const p = await player(server, 910050);
    await waitFor(() => toncenter.answered() > 0, 'a first poll');
    const from = toncenter.requests.length;
    toncenter.failNext(429, 2);
    toncenter.failNext(502, 1);
    toncenter.transactions.push(transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment }));
    await waitFor(async () => (await balanceNano(server, 910050)) === TON, 'the deposit after the failures');
    const times = toncenter.requests.slice(from).map((r) => r.at);
    // requests 0, 1, 2 failed (429, 429, 502); the waits after them grow: 50, 100, 200 ms
    const gaps = [times[1]! - times[0]!, times[2]! - times[1]!, times[3]! - times[2]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
    expect(gaps[1]).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]).toBeGreaterThan(gaps[1]!);
    // and back to the normal interval after a success
    const ok = toncenter.requests.length;
    await waitFor(() => toncenter.requests.length >= ok + 4, 'more polls');
    const later = toncenter.requests.slice(ok - 1, ok + 4).map((r) => r.at);
    const normal = Math.min(...later.slice(1).map((t, k) => t - later[k]!));
    expect(normal).toBeLessThan(gaps[2]!);
  });

  it('caps the backoff', async () => {
    await start({ env: { TON_POLL_INTERVAL_MS: '20', TON_MAX_BACKOFF_MS: '60' } });
    await waitFor(() => toncenter.answered() > 0, 'a first poll');
    const from = toncenter.requests.length;
    toncenter.failNext(429, 6);
    await waitFor(() => toncenter.requests.length >= from + 7, 'six failures and a retry');
    const times = toncenter.requests.slice(from, from + 7).map((r) => r.at);
    // uncapped, the six waits would add up to 20·(2+4+8+16+32+64) = 2520 ms; capped at 60 ms, to about 320
    expect(times[6]! - times[0]!).toBeGreaterThanOrEqual(300);
    expect(times[6]! - times[0]!).toBeLessThan(1500);
  });

  it('two instances watching the same wallet on one database credit a transfer once', async () => {
    const shared = await createTestDatabase();
    try {
      const a = await start({ database: shared.database });
      const b = await start({ database: shared.database });
      const p = await player(a, 910060);
      toncenter.replayEverything = true;
      const txs = Array.from({ length: 4 }, () =>
        transferTx({ to: WALLET, lt: lt(), value: TON, comment: p.comment }),
      );
      toncenter.transactions.push(...txs);
      await waitFor(async () => (await balanceNano(a, 910060)) === 4n * TON, 'four deposits');
      const n = toncenter.answered();
      await waitFor(() => toncenter.answered() >= n + 10, 'both instances to poll more');
      expect(await balanceNano(b, 910060)).toBe(4n * TON);
      expect(await tonCredits(a)).toHaveLength(4);
      await a.close();
      await b.close();
    } finally {
      await shared.drop();
    }
  });
});
