import { randomBytes } from 'node:crypto';
import { connect, type Socket as TcpSocket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Case, CasesResponse, OpenCaseResponse, OpenMultipleResponse } from '../../contract/cases.ts';
import type { DropEvent } from '../../contract/feed.ts';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../contract/inventory.ts';
import { DROPS_CHANNEL } from '../../server/realtime/feed.ts';
import {
  createTestDatabase,
  postgresUrl,
  setBalance,
  startServer,
  type TestDatabase,
  type TestServer,
} from './harness.ts';
import { TON } from './games.ts';
import { waitFor } from '../stand-ins/http.ts';
import { openSocket, type TestSocket } from '../stand-ins/ws-client.ts';

// The live drops feed (GET /api/ws/drops): catch-up from the database, then live drops after each
// committed opening, public fields only, no gaps or repeats across reconnects, joins and instances.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function feedUrl(server: TestServer, after?: string): string {
  const query = after === undefined ? '' : `?after=${encodeURIComponent(after)}`;
  return `${server.baseUrl.replace('http', 'ws')}/api/ws/drops${query}`;
}

const feed = (server: TestServer, after?: string) => openSocket(feedUrl(server, after));

/** The catch-up batch (the first message). */
async function catchUp(socket: TestSocket): Promise<DropEvent[]> {
  await socket.next('drops');
  expect(socket.messages[0]?.type, 'the catch-up comes first').toBe('drops');
  return (socket.messages[0] as { drops: DropEvent[] }).drops;
}

/** The live drops received so far, in order. */
function live(socket: TestSocket): DropEvent[] {
  return socket.messages.filter((m) => m.type === 'drop').map((m) => m.drop as DropEvent);
}

/** Every drop id a socket got: the catch-up's and the live ones. */
async function allIds(socket: TestSocket): Promise<string[]> {
  return [...(await catchUp(socket)).map((d) => d.id), ...live(socket).map((d) => d.id)];
}

/** Opening ids in the database, newest first. */
async function latestIds(server: TestServer): Promise<string[]> {
  const rows = await server.built.ctx.db.selectFrom('openings').select('id').orderBy('id', 'desc').execute();
  return rows.map((r) => r.id.toString());
}

const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

async function player(
  server: TestServer,
  id: number,
  user: { first_name?: string; username?: string } = {},
  balance = 100n * TON,
): Promise<string> {
  const token = await server.login({ id, first_name: 'Player', ...user });
  await setBalance(server, id, balance);
  return token;
}

async function openOne(server: TestServer, token: string, caseId = 'starter'): Promise<OpenCaseResponse> {
  const res = await server.call<OpenCaseResponse>('POST', '/cases/open', { token, body: { caseId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function openMany(server: TestServer, token: string, amount: number): Promise<string[]> {
  const res = await server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
    token,
    body: { caseId: 'starter', amount },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results.map((r) => r.openingId);
}

describe('the drops feed on one instance', () => {
  let server: TestServer;
  let starter: Case;
  beforeAll(async () => {
    server = await startServer();
    const cases = await server.call<CasesResponse>('GET', '/cases');
    starter = cases.body.cases.find((c) => c.id === 'starter')!;
  });
  afterAll(() => server?.close());

  it('sends the catch-up, then each drop once its opening commits, with public fields only', async () => {
    const token = await player(server, 960001, { first_name: 'Ann', username: 'ann_drops' });
    await server.built.ctx.db
      .updateTable('users')
      .set({ photo_url: 'https://t.me/i/userpic/320/ann.jpg' })
      .where('id', '=', 960001n)
      .execute();
    const socket = await feed(server); // no sign-in needed: the feed is public
    expect(await catchUp(socket)).toEqual([]);

    const opened = await openOne(server, token);
    await waitFor(() => live(socket).length === 1, 'the live drop');
    const drop = live(socket)[0]!;
    // betId is public on purpose: it links the drop to its proof page
    expect(Object.keys(drop).sort()).toEqual(['betId', 'case', 'id', 'item', 'timestamp', 'user']);
    expect(Object.keys(drop.user).sort()).toEqual(['avatar', 'username']);
    expect(Object.keys(drop.case).sort()).toEqual(['id', 'imageBase64', 'imageUrl', 'name']);
    expect(Object.keys(drop.item).sort()).toEqual(['id', 'imageUrl', 'name']);
    expect(drop).toEqual({
      id: opened.openingId,
      betId: opened.betId,
      timestamp: expect.any(String),
      user: { username: '@ann_drops', avatar: 'https://t.me/i/userpic/320/ann.jpg' },
      case: { id: 'starter', name: starter.name, imageUrl: starter.imageUrl, imageBase64: null },
      item: { id: opened.item.id, name: opened.item.name, imageUrl: opened.item.imageUrl },
    });
    expect(new Date(drop.timestamp).toISOString()).toBe(drop.timestamp);
    expect(Math.abs(Date.parse(drop.timestamp) - Date.now())).toBeLessThan(60_000);
    // nothing private on the wire: no Telegram id, no balance
    const wire = JSON.stringify(socket.messages);
    expect(wire).not.toContain('960001');
    // no balance field anywhere (an item may be called "TON Balance": look for keys, not words)
    expect(wire.toLowerCase()).not.toMatch(/"[a-z_]*balance[a-z_]*"\s*:/);

    // the record agrees with the live message: a new subscriber's catch-up holds the same drop
    const later = await feed(server);
    expect(await catchUp(later)).toEqual([drop]);

    // several copies: one drop each, in order, on both sockets; a player without a username shows a first name
    const other = await player(server, 960002, { first_name: 'Boris' });
    const ids = await openMany(server, other, 3);
    await waitFor(() => live(socket).length === 4 && live(later).length === 3, 'three more drops');
    expect(
      live(socket)
        .slice(1)
        .map((d) => d.id),
    ).toEqual(ids);
    expect(live(later).map((d) => d.id)).toEqual(ids);
    for (const d of live(later)) expect(d.user).toEqual({ username: 'Boris', avatar: null });
    // a ping is answered
    socket.send({ type: 'ping' });
    await socket.next('pong');
    socket.close();
    later.close();
  });

  it('announces nothing for a refused opening or a replayed request', async () => {
    const onBus: unknown[] = [];
    const off = server.built.ctx.bus.subscribe(DROPS_CHANNEL, (p) => onBus.push(p));
    try {
      const socket = await feed(server);
      await catchUp(socket);
      const poor = await player(server, 960003, {}, TON / 5n); // 0.2 TON: a 0.5 TON case is too dear
      const refused: [string, string, unknown, number][] = [
        ['/cases/open', poor, { caseId: 'starter' }, 402],
        ['/cases/open-multiple', poor, { caseId: 'starter', amount: 3 }, 402],
        ['/cases/open', await player(server, 960004), { caseId: 'legendary' }, 403],
        ['/cases/open', poor, { caseId: 'no-such-case' }, 404],
      ];
      for (const [path, token, body, status] of refused) {
        const res = await server.call('POST', path, { token, body });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      }

      // an Idempotency-Key retry replays the stored answer and opens (and announces) nothing new
      const rich = await player(server, 960005);
      const headers = { [IDEMPOTENCY_HEADER]: 'feed-retry-1' };
      const first = await server.call<OpenCaseResponse>('POST', '/cases/open', {
        token: rich,
        body: { caseId: 'starter' },
        headers,
      });
      expect(first.status).toBe(200);
      await waitFor(() => live(socket).length === 1, 'the one drop');
      const res = await fetch(`${server.baseUrl}/api/cases/open`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${rich}`, 'content-type': 'application/json' },
        body: JSON.stringify({ caseId: 'starter' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get(IDEMPOTENCY_REPLAYED_HEADER)).toBe('true');
      expect(((await res.json()) as OpenCaseResponse).openingId).toBe(first.body.openingId);

      await sleep(300);
      expect(live(socket).map((d) => d.id)).toEqual([first.body.openingId]);
      expect(onBus).toHaveLength(1);
      socket.close();
    } finally {
      off();
    }
  });

  it('catches up after a reconnect with each missed drop exactly once, at most 50', async () => {
    const token = await player(server, 960006);
    const first = await feed(server);
    await catchUp(first);
    const seen = [...(await openMany(server, token, 2))];
    await waitFor(() => live(first).length === 2, 'two live drops');
    const lastSeen = live(first).at(-1)!.id;
    expect(lastSeen).toBe(seen.at(-1));
    first.close();
    await first.closed;

    // missed while away
    const missed = [...(await openMany(server, token, 3)), (await openOne(server, token)).openingId];
    const again = await feed(server, lastSeen);
    expect((await catchUp(again)).map((d) => d.id)).toEqual([...missed].reverse()); // newest first
    const next = (await openOne(server, token)).openingId;
    await waitFor(() => live(again).length === 1, 'the next live drop');
    await sleep(100);
    expect(await allIds(again)).toEqual([...[...missed].reverse(), next]);

    // nothing missed: an empty catch-up
    const upToDate = await feed(server, next);
    expect(await catchUp(upToDate)).toEqual([]);

    // more than 50 missed: the newest 50
    for (let i = 0; i < 17; i++) await openMany(server, token, 3);
    const everything = await latestIds(server);
    expect(everything.length).toBeGreaterThan(50);
    const fromZero = await feed(server, '0');
    expect((await catchUp(fromZero)).map((d) => d.id)).toEqual(everything.slice(0, 50));
    const fresh = await feed(server);
    expect((await catchUp(fresh)).map((d) => d.id)).toEqual(everything.slice(0, 50));

    // a malformed `after` is refused before the upgrade
    await expect(feed(server, 'abc')).rejects.toThrow();
    await expect(feed(server, '-1')).rejects.toThrow();
    for (const s of [again, upToDate, fromZero, fresh]) s.close();
  });

  it('a socket that joins in the middle of a burst of openings gets every drop exactly once', async () => {
    const tokens = await Promise.all([970001, 970002, 970003].map((id) => player(server, id)));
    const before = (await latestIds(server))[0] ?? '0';
    // some sockets resume from before the burst, others ask for the newest 50; all join while it runs
    const sockets: { socket: TestSocket; resumed: boolean }[] = [
      { socket: await feed(server), resumed: false },
    ];
    await catchUp(sockets[0]!.socket);
    const burst = Promise.all(
      tokens.map(async (token) => {
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push(...(await openMany(server, token, 3)));
        return ids;
      }),
    );
    for (let i = 0; i < 8; i++) {
      await sleep(10 + i * 10);
      const resumed = i % 2 === 0;
      sockets.push({ socket: await feed(server, resumed ? before : undefined), resumed });
    }
    const opened = (await burst).flat().sort(byId);
    expect(opened).toHaveLength(45); // fewer than 50: the whole burst fits in one catch-up
    for (const [i, { socket }] of sockets.entries()) {
      await waitFor(async () => {
        const got = new Set(await allIds(socket));
        return opened.every((id) => got.has(id));
      }, `all drops on socket ${i}`);
    }
    await sleep(200);
    // the point of it: some sockets got part of the burst in their catch-up and the rest live
    const burstIds = new Set(opened);
    const joinedMidway = await Promise.all(
      sockets.map(
        async ({ socket }) =>
          (await catchUp(socket)).some((d) => burstIds.has(d.id)) &&
          live(socket).some((d) => burstIds.has(d.id)),
      ),
    );
    expect(joinedMidway.filter(Boolean).length).toBeGreaterThan(0);
    for (const [i, { socket, resumed }] of sockets.entries()) {
      const ids = await allIds(socket);
      expect(new Set(ids).size, `socket ${i}: no repeats`).toBe(ids.length);
      const got = new Set(ids);
      expect(
        opened.filter((id) => !got.has(id)),
        `socket ${i}: no gaps`,
      ).toEqual([]);
      if (resumed) expect([...ids].sort(byId), `socket ${i}: only what it missed`).toEqual(opened);
      socket.close();
    }
  });

  it('cuts off a reader that does not keep up, while the others get everything', async () => {
    let slow: TcpSocket | undefined;
    try {
      const fast = await feed(server);
      await catchUp(fast);
      // a client that upgrades and then stops reading
      const url = new URL(server.baseUrl);
      const tcp = connect(Number(url.port), url.hostname);
      slow = tcp;
      tcp.write(
        `GET /api/ws/drops HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      const head = await new Promise<string>((resolve) =>
        tcp.once('data', (d: Buffer) => resolve(String(d))),
      );
      expect(head).toMatch(/^HTTP\/1\.1 101/);
      tcp.pause();
      let slowEnded = false;
      tcp.on('close', () => (slowEnded = true));
      await sleep(300); // its catch-up has been read: live drops now go straight to it

      // drops from the bus, large ones (about 6.5 KB each), far more than socket buffers hold
      const total = 4000;
      const bulky = 'x'.repeat(6000);
      for (let i = 1; i <= total; i++) {
        await server.built.ctx.bus.publish(DROPS_CHANNEL, {
          id: String(800_000_000 + i),
          timestamp: new Date().toISOString(),
          user: { username: '@load', avatar: null },
          case: { id: 'starter', name: 'Starter', imageUrl: '/assets/cases/starter.svg', imageBase64: null },
          item: { id: 'flower_pink', name: bulky, imageUrl: '/assets/items/flower_pink.svg' },
          betId: `load${i}`,
        } satisfies DropEvent);
        if (i % 10 === 0) await sleep(1); // the fast reader reads as it goes
      }
      await waitFor(() => live(fast).length === total, 'every drop on the fast socket', 30_000);
      expect(live(fast).map((d) => Number(d.id) - 800_000_000)).toEqual(
        Array.from({ length: total }, (_, i) => i + 1),
      );
      expect(fast.isClosed()).toBe(false);

      // the slow one was closed: reading what reached it ends with the connection closing, short of it all
      let received = 0;
      tcp.on('data', (d: Buffer) => (received += d.length));
      tcp.resume();
      await waitFor(() => slowEnded, 'the slow socket to be closed', 10_000);
      expect(received).toBeLessThan(total * 6000);
      fast.close();
    } finally {
      slow?.destroy();
    }
  });
});

describe.skipIf(!postgresUrl)('the drops feed across two instances on one Postgres', () => {
  let shared: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    shared = await createTestDatabase();
    a = await startServer({ database: shared.database });
    b = await startServer({ database: shared.database });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  it('an opening on instance A reaches subscribers on A and B, once each; B catches up from the database', async () => {
    const token = await player(a, 980001, { username: 'cross' });
    const onA = await feed(a);
    const onB = await feed(b);
    await catchUp(onA);
    await catchUp(onB);

    const fromA = (await openOne(a, token)).openingId;
    await waitFor(() => live(onB).length === 1 && live(onA).length === 1, 'the drop on both instances');
    expect(live(onB)[0]).toEqual(live(onA)[0]);
    expect(live(onB)[0]).toMatchObject({ id: fromA, user: { username: '@cross' } });

    const fromB = await openMany(b, token, 2);
    await waitFor(() => live(onA).length === 3 && live(onB).length === 3, 'the drops opened on B');
    await sleep(200); // and no echo arrives later
    for (const s of [onA, onB]) expect(live(s).map((d) => d.id)).toEqual([fromA, ...fromB]);

    // a subscriber that joins B later catches up on A's and B's drops from the shared database
    const late = await feed(b, '0');
    expect((await catchUp(late)).map((d) => d.id)).toEqual([...fromB].reverse().concat(fromA));
    const resumed = await feed(a, fromA);
    expect((await catchUp(resumed)).map((d) => d.id)).toEqual([...fromB].reverse());
    for (const s of [onA, onB, late, resumed]) s.close();
  });
});

if (!postgresUrl) {
  console.log(
    '[feed] the two-instance drops feed test was skipped: set TEST_DATABASE_URL to a Postgres server',
  );
}
