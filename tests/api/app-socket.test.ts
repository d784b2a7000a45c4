import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BattleSeatResponse } from '../../contract/battles.ts';
import type { OpenCaseResponse } from '../../contract/cases.ts';
import type { DropEvent } from '../../contract/feed.ts';
import type { SellResponse } from '../../contract/inventory.ts';
import { formatTon } from '../../contract/money.ts';
import { FEED_BATCH_MAX } from '../../contract/socket.ts';
import { openDatabase, type OpenedDatabase } from '../../server/db/index.ts';
import {
  createTestDatabase,
  grantItems,
  postgresUrl,
  setBalance,
  signLaunchData,
  startServer,
  type TestDatabase,
  type TestServer,
} from './harness.ts';
import { TON } from './games.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket, type TestSocket } from '../stand-ins/ws-client.ts';

// The app socket (GET /api/ws): the public feed without sign-in; after {type: 'auth'} the player's balance
// after every committed change, in ledger order, to every socket of that player and no one else's, on
// every instance; deposit credits; the battles a socket watches.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const appSocket = (server: TestServer, after?: string) =>
  openSocket(`${server.baseUrl.replace('http', 'ws')}/api/ws${after === undefined ? '' : `?after=${after}`}`);

async function signedIn(server: TestServer, token: string): Promise<TestSocket> {
  const socket = await appSocket(server);
  socket.send({ type: 'auth', token });
  await socket.next('auth_ok');
  await socket.next('balance');
  return socket;
}

interface Pushed {
  balance: string;
  version: string;
}
const balances = (s: TestSocket): Pushed[] =>
  s.messages
    .filter((m) => m.type === 'balance')
    .map((m) => ({ balance: m.balance, version: m.version }) as Pushed);
const drops = (s: TestSocket): DropEvent[] =>
  s.messages.filter((m) => m.type === 'drops').flatMap((m) => m.drops as DropEvent[]);

/** The player's ledger, oldest first: what the pushes must follow. */
async function ledger(server: TestServer, userId: number): Promise<Pushed[]> {
  const rows = await server.built.ctx.db
    .selectFrom('ledger')
    .select(['id', 'balance_after_nano'])
    .where('user_id', '=', BigInt(userId))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ balance: formatTon(r.balance_after_nano), version: r.id.toString() }));
}

async function openOne(server: TestServer, token: string): Promise<OpenCaseResponse> {
  const res = await server.call<OpenCaseResponse>('POST', '/cases/open', {
    token,
    body: { caseId: 'starter' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('the app socket on one instance', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('serves the public feed without sign-in: a catch-up, then new drops in batches', async () => {
    const token = await server.login({ id: 970001, first_name: 'Feeder' });
    await setBalance(server, 970001, 50n * TON);
    const socket = await appSocket(server);
    await socket.next('drops');
    expect(socket.messages[0]?.type).toBe('drops');
    const before = drops(socket).length;
    const opened = await openOne(server, token);
    await waitFor(() => drops(socket).some((d) => d.id === opened.openingId), 'the drop on the socket');
    expect(drops(socket).length).toBe(before + 1);
    expect(socket.messages.some((m) => m.type === 'balance')).toBe(false); // not signed in: no balance
    socket.close();
  });

  it('sends each live batch to everyone as at most its newest FEED_BATCH_MAX drops, and every own drop to the opener', async () => {
    const id = 970010;
    const token = await server.login({ id, first_name: 'Busy' });
    await setBalance(server, id, 100n * TON);
    const opener = await signedIn(server, token);
    const watcher = await appSocket(server);
    await watcher.next('drops');
    await opener.next('drops');
    const caughtUp = { opener: opener.messages.length, watcher: watcher.messages.length };
    // twelve drops at once: one or two batch windows, at least one of them over the cap
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        server.call<{ results: { openingId: string }[] }>('POST', '/cases/open-multiple', {
          token,
          body: { caseId: 'starter', amount: 3 },
        }),
      ),
    );
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const ids = answers.flatMap((a) => a.body.results.map((r) => r.openingId));
    const newest = ids.reduce((a, b) => (BigInt(a) > BigInt(b) ? a : b));
    await waitFor(
      () => ids.every((i) => drops(opener).some((d) => d.id === i)),
      'all own drops at the opener',
    );
    await waitFor(() => drops(watcher).some((d) => d.id === newest), 'the newest drop at the watcher');
    await sleep(1200); // any batch still on its way
    const live = watcher.messages.slice(caughtUp.watcher).filter((m) => m.type === 'drops');
    for (const m of live) expect((m.drops as DropEvent[]).length).toBeLessThanOrEqual(FEED_BATCH_MAX);
    // nobody gets a drop twice
    for (const s of [opener, watcher]) {
      const got = s.messages
        .slice(caughtUp[s === opener ? 'opener' : 'watcher'])
        .flatMap((m) => (m.type === 'drops' ? (m.drops as DropEvent[]).map((d) => d.id) : []));
      expect(new Set(got).size).toBe(got.length);
    }
    opener.close();
    watcher.close();
  });

  it('pushes the balance at sign-in and after every change, in ledger order, to each socket of the player only', async () => {
    const id = 970002;
    const token = await server.login({ id, first_name: 'Pushed' });
    const other = await server.login({ id: 970003, first_name: 'Other' });
    await setBalance(server, id, 20n * TON);
    const first = await signedIn(server, token);
    const second = await signedIn(server, token);
    const theirs = await signedIn(server, other);
    const start = await ledger(server, id);
    expect(balances(first)).toEqual([start.at(-1)]);

    await openOne(server, token);
    await grantItems(server, id, { cake: 2 });
    const sold = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 2 },
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    await setBalance(server, id, 7n * TON);

    const rows = await ledger(server, id);
    const last = rows.at(-1)!;
    for (const s of [first, second]) {
      await waitFor(() => balances(s).at(-1)?.version === last.version, 'the last change pushed');
      const got = balances(s);
      // each push is a committed balance with the id of its last ledger row, versions strictly growing
      for (const push of got) expect(rows).toContainEqual(push);
      const versions = got.map((p) => BigInt(p.version));
      expect([...versions].sort((a, b) => (a < b ? -1 : 1))).toEqual(versions);
      expect(new Set(versions).size).toBe(versions.length);
      expect(got.at(-1)).toEqual({ balance: '7', version: last.version });
      // at most one push per committed transaction (sign-in, the opening, the sale's two ledger rows in one,
      // the setup); changes committed within one fan-out batch may reach a socket as their last balance only
      expect(got.length).toBeGreaterThanOrEqual(2);
      expect(got.length).toBeLessThanOrEqual(4);
    }
    expect(balances(second)).toEqual(balances(first));
    await sleep(100);
    expect(balances(theirs)).toHaveLength(1); // only their own balance, at sign-in
    for (const s of [first, second, theirs]) s.close();
  });

  it('a sign-in racing a commit gets that balance once: its own read and the fan-out do not both send it', async () => {
    const id = 970007;
    const token = await server.login({ id, first_name: 'Racer' });
    for (let round = 1; round <= 12; round++) {
      // the commit's fan-out and the sign-in's read of the same balance, in either order
      const [socket] = await Promise.all([signedIn(server, token), setBalance(server, id, BigInt(round) * TON)]);
      const last = (await ledger(server, id)).at(-1)!;
      await waitFor(() => balances(socket).at(-1)?.version === last.version, 'the committed balance');
      await sleep(30); // a second copy would follow within the fan-out's turn
      const versions = balances(socket).map((p) => p.version);
      expect(new Set(versions).size, `round ${round}: ${versions.join(', ')}`).toBe(versions.length);
      expect(balances(socket).at(-1)).toEqual({ balance: String(round), version: last.version });
      socket.close();
    }
  });

  it('pushes nothing for a change that was refused and rolled back', async () => {
    const id = 970006;
    const token = await server.login({ id, first_name: 'Broke' });
    const socket = await signedIn(server, token);
    const refused = await server.call('POST', '/cases/open', { token, body: { caseId: 'starter' } });
    expect(refused.status).toBe(402);
    await setBalance(server, id, 1n * TON); // a committed change afterwards is pushed
    await waitFor(() => balances(socket).at(-1)?.balance === '1', 'the committed change');
    expect(balances(socket).map((p) => p.balance)).toEqual(['0', '1']);
    socket.close();
  });

  it('a refused token keeps the feed and pushes no balance; a good one later signs in', async () => {
    const socket = await appSocket(server);
    socket.send({ type: 'auth', token: 'not-a-token' });
    await socket.next('auth_failed');
    expect(socket.isClosed()).toBe(false);
    const token = await server.login({ id: 970004, first_name: 'Late' });
    socket.send({ type: 'auth', token });
    await socket.next('auth_ok');
    expect(await socket.next('balance')).toMatchObject({ balance: '0' });
    socket.close();
  });

  it('carries the events of the battles a socket watches, and no others', async () => {
    const token = await server.login({ id: 970005, first_name: 'Battler' });
    await setBalance(server, 970005, 50n * TON);
    const watching = await appSocket(server);
    const idle = await appSocket(server);
    watching.send({ type: 'battles', watch: 'all' });
    await sleep(50);
    const created = await server.call<BattleSeatResponse>('POST', '/battles', {
      token,
      body: { format: '1v1', mode: 'normal', caseIds: ['starter'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const event = await watching.next('battle');
    expect(event).toMatchObject({ type: 'battle', event: 'created', id: created.body.battle.id });
    await sleep(100);
    expect(idle.messages.some((m) => m.type === 'battle')).toBe(false);
    for (const s of [watching, idle]) s.close();
  });
});

describe('deposits on the app socket', () => {
  let server: TestServer;
  afterAll(() => server?.close());

  it('a demo deposit arrives as a credit and as the new balance', async () => {
    server = await startServer({ env: { BOT_TOKEN: '', DEMO_DEPOSIT_DELAY_MS: '50' } });
    const login = await server.call<{ token: string }>('POST', '/auth/login', {
      body: { initData: signLaunchData({ id: 970101, first_name: 'Payer' }, server.built.ctx.botToken) },
    });
    const token = login.body.token;
    const socket = await signedIn(server, token);
    const res = await server.call<{ id: string }>('POST', '/deposit/demo', {
      token,
      body: { amount: '2.5', method: 'ton' },
    });
    expect(res.status).toBe(200);
    expect(await socket.next('deposit_credited')).toMatchObject({
      amount: '2.5',
      balance: '2.5',
      id: res.body.id,
    });
    await waitFor(() => balances(socket).at(-1)?.balance === '2.5', 'the balance pushed');
    socket.close();
  });
});

describe.skipIf(!postgresUrl)('the app socket across two instances on one Postgres', () => {
  let shared: TestDatabase;
  let second: OpenedDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    shared = await createTestDatabase();
    // each instance with its own pool, as two processes would have
    second = await openDatabase({ databaseUrl: shared.url, pgliteDir: '' });
    a = await startServer({ database: shared.database });
    b = await startServer({ database: second });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await second?.close();
    await shared?.drop();
  });

  it("a change on instance A reaches the player's sockets on A and B, in ledger order", async () => {
    const id = 970201;
    const token = await a.login({ id, first_name: 'Spread' });
    await setBalance(a, id, 30n * TON);
    const onA = await signedIn(a, token);
    const onB = await signedIn(b, token);
    await openOne(a, token);
    await openOne(b, token);
    await setBalance(b, id, 3n * TON);
    const rows = await ledger(a, id);
    for (const s of [onA, onB]) {
      await waitFor(() => balances(s).at(-1)?.version === rows.at(-1)!.version, 'the last change on both');
      const versions = balances(s).map((p) => BigInt(p.version));
      expect([...versions].sort((x, y) => (x < y ? -1 : 1))).toEqual(versions);
      for (const push of balances(s)) expect(rows).toContainEqual(push);
      expect(balances(s).at(-1)!.balance).toBe('3');
    }
    onA.close();
    onB.close();
  });
});

if (!postgresUrl) {
  console.log('[app-socket] the two-instance test was skipped: set TEST_DATABASE_URL to a Postgres server');
}
