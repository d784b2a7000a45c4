import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenCaseResponse, OpenMultipleResponse } from '../../contract/cases.ts';
import { parseTon } from '../../contract/money.ts';
import type { SellResponse, WithdrawResponse } from '../../contract/inventory.ts';
import type { UpgradeRollResponse } from '../../contract/upgrade.ts';
import type { BattleSeatResponse } from '../../contract/battles.ts';
import { createApiClient, retryAfterSeconds, type ApiClient } from '../../src/api/client.ts';
import { createMemoryStorage } from '../../src/lib/storage.ts';
import { TON } from './games.ts';
import { grantItems } from './holdings.ts';
import { setBalance, signLaunchData, startServer, type TestServer } from './harness.ts';

// The app's own API client (src/api/client.ts) making money requests through a network that loses
// answers: a stand-in proxy forwards each money request to the real server but drops the connection
// before the first answer of each kind reaches the client. The client retries with the same
// Idempotency-Key, the server answers the retry with the stored answer, and the books show each change
// once. Every money request of the app (open, open x3, sell one, sell all, withdraw, upgrade) goes this way.

interface Seen {
  method: string;
  path: string;
  key: string | undefined;
  status: number | null;
  lost: boolean;
  answer: string;
}

/** A proxy in front of the server that loses the first answer of each request kind in `lossy`. */
async function lossyProxy(target: string, lossy: Set<string>) {
  const seen: Seen[] = [];
  const lostOnce = new Set<string>();
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const path = (req.url ?? '/').split('?')[0]!;
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
            headers[name] = value;
          }
        }
        const upstream = await fetch(`${target}${req.url}`, {
          method: req.method,
          headers,
          body: chunks.length ? Buffer.concat(chunks) : undefined,
        });
        const answer = await upstream.text();
        const kind = `${req.method} ${path}`;
        const lose = lossy.has(kind) && !lostOnce.has(kind);
        seen.push({
          method: req.method ?? '',
          path,
          key: req.headers['idempotency-key'] as string | undefined,
          status: upstream.status,
          lost: lose,
          answer,
        });
        if (lose) {
          // the server did the work and answered; the answer never reaches the client
          lostOnce.add(kind);
          req.socket.destroy();
          return;
        }
        res.writeHead(upstream.status, {
          'content-type': upstream.headers.get('content-type') ?? 'application/json',
          ...(upstream.headers.get('retry-after')
            ? { 'retry-after': upstream.headers.get('retry-after')! }
            : {}),
        });
        res.end(answer);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const USER = 880_001;

describe('money requests from the app client survive lost answers', { timeout: 120_000 }, () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof lossyProxy>>;
  let client: ApiClient;

  beforeAll(async () => {
    server = await startServer();
    proxy = await lossyProxy(
      server.baseUrl,
      new Set([
        'POST /api/cases/open',
        'POST /api/cases/open-multiple',
        'POST /api/inventory/sell',
        'POST /api/inventory/withdraw',
        'POST /api/upgrade/roll',
      ]),
    );
    client = createApiClient({
      baseURL: `${proxy.origin}/api`,
      storage: createMemoryStorage(),
      getInitData: () => signLaunchData({ id: USER, first_name: 'Keyed' }),
    });
    await client.startSession();
    await setBalance(server, USER, 50n * TON);
    await grantItems(server, USER, { cake: 3, candy: 2, star: 1 });
  });
  afterAll(async () => {
    await proxy.close();
    await server.close();
  });

  /** The requests of one path the proxy passed on, in order. */
  const attempts = (path: string) => proxy.seen.filter((s) => s.path === `/api${path}`);

  async function books() {
    const db = server.built.ctx.db;
    const id = BigInt(USER);
    const user = await db
      .selectFrom('users')
      .select('balance_nano')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const ledger = await db
      .selectFrom('ledger')
      .select(['kind', 'delta_nano'])
      .where('user_id', '=', id)
      .execute();
    const inventory = await db
      .selectFrom('inventory')
      .select(['item_id', 'quantity'])
      .where('user_id', '=', id)
      .execute();
    const held = (item: string) => inventory.find((r) => r.item_id === item)?.quantity ?? 0;
    const kinds = (kind: string) => ledger.filter((r) => r.kind === kind).length;
    expect(ledger.reduce((sum, r) => sum + r.delta_nano, 0n)).toBe(user.balance_nano);
    return { balanceNano: user.balance_nano, held, kinds };
  }

  /** The first attempt's answer was lost, the retry carried the same key and got the same answer. */
  function expectRetriedOnce<T>(path: string, answer: T): void {
    const tries = attempts(path);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.lost).toBe(true);
    expect(tries[0]!.key).toMatch(/^[\x21-\x7e]{1,128}$/);
    expect(tries[1]!.key).toBe(tries[0]!.key);
    expect(tries[1]!.status).toBe(200);
    expect(JSON.parse(tries[0]!.answer)).toEqual(answer);
  }

  it('opens x3 once', async () => {
    const before = await books();
    const answer = await client.money<OpenMultipleResponse>('/cases/open-multiple', {
      body: { caseId: 'starter', amount: 3 },
    });
    expectRetriedOnce('/cases/open-multiple', answer);
    expect(answer.results).toHaveLength(3);
    const after = await books();
    expect(after.kinds('case_open') - before.kinds('case_open'), 'one debit').toBe(1);
    expect(after.balanceNano).toBe(parseTon(answer.balance));
    const openings = await server.built.ctx.db
      .selectFrom('openings')
      .select('id')
      .where('user_id', '=', BigInt(USER))
      .execute();
    expect(openings).toHaveLength(3);
  });

  it('opens one once', async () => {
    const before = await books();
    const answer = await client.money<OpenCaseResponse>('/cases/open', { body: { caseId: 'starter' } });
    expectRetriedOnce('/cases/open', answer);
    const openings = await server.built.ctx.db
      .selectFrom('openings')
      .select('id')
      .where('user_id', '=', BigInt(USER))
      .execute();
    expect(openings).toHaveLength(4);
    const after = await books();
    expect(after.kinds('case_open') - before.kinds('case_open'), 'one debit').toBe(1);
    expect(after.balanceNano).toBe(parseTon(answer.balance));
  });

  it('sells one once, then sells all once', async () => {
    const before = await books();
    const one = await client.money<SellResponse>('/inventory/sell', {
      body: { itemId: 'cake', quantity: 1 },
    });
    expectRetriedOnce('/inventory/sell', one);
    const mid = await books();
    expect(mid.held('cake')).toBe(before.held('cake') - 1);
    expect(mid.kinds('sell')).toBe(before.kinds('sell') + 1);

    // sell all: the proxy loses only the first sell, so this one goes straight through, with its own key
    const all = await client.money<SellResponse>('/inventory/sell', { body: { sellAll: true } });
    const tries = attempts('/inventory/sell');
    expect(tries).toHaveLength(3);
    expect(tries[2]!.key).not.toBe(tries[0]!.key);
    expect(parseTon(all.balance)).toBeGreaterThan(parseTon(one.balance));
    const after = await books();
    expect(after.held('cake') + after.held('candy') + after.held('star')).toBe(0);
  });

  it('withdraws once and upgrades once', async () => {
    await grantItems(server, USER, { candy: 2, star: 2 });
    const withdrawn = await client.money<WithdrawResponse>('/inventory/withdraw', {
      body: { itemId: 'candy', quantity: 2 },
    });
    expectRetriedOnce('/inventory/withdraw', withdrawn);
    const withdrawals = await server.built.ctx.db
      .selectFrom('withdrawals')
      .select('id')
      .where('user_id', '=', BigInt(USER))
      .execute();
    expect(withdrawals).toHaveLength(1);
    expect((await books()).held('candy')).toBe(0);

    const rolled = await client.money<UpgradeRollResponse>('/upgrade/roll', {
      body: { baseChance: 0.39, coef: 2, itemId: 'star' },
    });
    expectRetriedOnce('/upgrade/roll', rolled);
    const upgrades = await server.built.ctx.db
      .selectFrom('upgrades')
      .select('id')
      .where('user_id', '=', BigInt(USER))
      .execute();
    expect(upgrades).toHaveLength(1);
    expect((await books()).held('star')).toBe(1);
  });

  it('keeps the key across a re-login, and a new intent gets a new key', async () => {
    client.session.setToken('expired.or.forged');
    await grantItems(server, USER, { cake: 2 });
    const first = await client.money<SellResponse>('/inventory/sell', {
      body: { itemId: 'cake', quantity: 1 },
    });
    const tries = attempts('/inventory/sell').slice(3);
    expect(tries.map((t) => t.status)).toEqual([401, 200]);
    expect(tries[1]!.key).toBe(tries[0]!.key);
    await client.money<SellResponse>('/inventory/sell', { body: { itemId: 'cake', quantity: 1 } });
    const next = attempts('/inventory/sell').at(-1)!;
    expect(next.key).not.toBe(tries[0]!.key);
    expect(parseTon(first.balance)).toBeGreaterThan(0n);
    expect((await books()).held('cake')).toBe(0);
  });
});

describe('battle seats from the app client survive lost answers', { timeout: 120_000 }, () => {
  it('creates a battle once and joins it once, each retried with its key', async () => {
    const server = await startServer();
    const lossy = new Set(['POST /api/battles']);
    const proxy = await lossyProxy(server.baseUrl, lossy);
    const clientOf = (id: number) =>
      createApiClient({
        baseURL: `${proxy.origin}/api`,
        storage: createMemoryStorage(),
        getInitData: () => signLaunchData({ id, first_name: `B${id}` }),
      });
    try {
      const creator = clientOf(USER + 10);
      const joiner = clientOf(USER + 11);
      await creator.startSession();
      await joiner.startSession();
      await setBalance(server, USER + 10, 20n * TON);
      await setBalance(server, USER + 11, 20n * TON);
      const made = await creator.money<BattleSeatResponse>('/battles', {
        body: { format: '1v1', mode: 'normal', caseIds: ['starter'] },
      });
      const creates = proxy.seen.filter((s) => s.path === '/api/battles');
      expect(creates.map((s) => s.lost)).toEqual([true, false]);
      expect(creates[1]!.key).toBe(creates[0]!.key);
      expect(JSON.parse(creates[0]!.answer)).toEqual(made);

      const joinPath = `/api/battles/${made.battle.id}/join`;
      lossy.add(`POST ${joinPath}`);
      const joined = await joiner.money<BattleSeatResponse>(`/battles/${made.battle.id}/join`, { body: {} });
      const joins = proxy.seen.filter((s) => s.path === joinPath);
      expect(joins.map((s) => s.lost)).toEqual([true, false]);
      expect(joins[1]!.key).toBe(joins[0]!.key);
      expect(joins[1]!.status).toBe(200);
      expect(joined.battle.id).toBe(made.battle.id);

      // one debit each, whatever the retries
      const seats = await server.built.ctx.db
        .selectFrom('ledger')
        .select(['user_id'])
        .where('kind', '=', 'battle_seat')
        .execute();
      expect(seats.map((r) => r.user_id).sort()).toEqual([BigInt(USER + 10), BigInt(USER + 11)]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});

describe('a rate-limited money request', { timeout: 120_000 }, () => {
  it('is not retried, and its error tells when to try again', async () => {
    const server = await startServer({ env: { RATE_LIMIT_MONEY_PER_PLAYER: '1' } });
    const proxy = await lossyProxy(server.baseUrl, new Set());
    try {
      const client = createApiClient({
        baseURL: `${proxy.origin}/api`,
        storage: createMemoryStorage(),
        getInitData: () => signLaunchData({ id: USER + 1 }),
      });
      await client.startSession();
      await client.money('/fairness/rotate');
      const error = await client.money('/fairness/rotate').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).not.toBeNull();
      const wait = retryAfterSeconds(error);
      expect(wait).toBeGreaterThan(0);
      expect((error as { retryAfter?: number }).retryAfter).toBe(wait);
      expect(proxy.seen.filter((s) => s.path === '/api/fairness/rotate').map((s) => s.status)).toEqual([
        200, 429,
      ]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
