import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import type { DropEvent } from '../../contract/feed.ts';
import { DropFanOut, FAN_OUT_SLICE, MAX_WINDOW, type FeedSocket } from '../../server/realtime/feed.ts';

// The server's feed fan-out (the app socket's batched feed): what one batch costs when many sockets listen.
// The socket side end to end (catch-up, no gap, no repeat, across instances) is in tests/api/feed.test.ts.

function drop(id: number): DropEvent {
  return {
    id: String(id),
    timestamp: '2025-01-01T00:00:00.000Z',
    user: { username: '@someone', avatar: null },
    case: { id: 'starter', name: 'Starter', imageUrl: '/assets/cases/starter.svg', imageBase64: null },
    item: { id: 'flower_pink', name: 'Pink Flower', imageUrl: '/assets/items/flower_pink.svg' },
    betId: `bet${id}`,
  };
}

interface FakeSocket extends FeedSocket {
  sent: (string | Buffer)[];
}

function fakeSocket(): FakeSocket {
  return {
    readyState: 1,
    bufferedAmount: 0,
    sent: [],
    send(data: string | Buffer) {
      this.sent.push(data);
    },
    close() {},
    terminate() {},
    ping() {},
    on() {
      return this;
    },
    once() {
      return this;
    },
  } as FakeSocket;
}

const log = { error() {}, warn() {} } as unknown as FastifyBaseLogger;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const idsOf = (data: string | Buffer | undefined) =>
  (JSON.parse(String(data)) as { drops: DropEvent[] }).drops.map((d) => d.id);

afterEach(() => vi.restoreAllMocks());

/** A batched fan-out of at most 3 drops a batch that knows whose sockets are whose (fill `owners`). */
function ownedFeed() {
  const owners = new Map<string, FakeSocket[]>();
  const feed = new DropFanOut(log, {
    batchMs: 5,
    batchMax: 3,
    heartbeat: false,
    ownerSockets: (owner) => owners.get(owner),
  });
  return { owners, feed };
}

describe('the feed fan-out', () => {
  it('serialises a batch once for every socket that had a catch-up, and still repeats no catch-up drop', async () => {
    const feed = new DropFanOut(log, { batchMs: 5, heartbeat: false });
    const sockets = Array.from({ length: 3 }, fakeSocket);
    for (const s of sockets) feed.join(s, null, async () => [drop(5), drop(4)]);
    await sleep(10);
    for (const s of sockets) expect(idsOf(s.sent[0])).toEqual(['5', '4']);

    // a late live copy of a catch-up drop, then a new one: the copy is not sent again
    feed.deliver(drop(5));
    feed.deliver(drop(6));
    await sleep(30);
    for (const s of sockets) expect(idsOf(s.sent[1])).toEqual(['6']);

    // past that, each batch is encoded once and the same bytes go to every socket
    const stringify = vi.spyOn(JSON, 'stringify');
    feed.deliver(drop(7));
    feed.deliver(drop(8));
    await sleep(30);
    expect(stringify).toHaveBeenCalledTimes(1);
    for (const s of sockets) {
      expect(idsOf(s.sent[2])).toEqual(['8', '7']);
      expect(s.sent[2]).toBe(sockets[0]!.sent[2]);
    }
    feed.close();
  });

  it('encodes a catch-up read shared by many sockets once', async () => {
    const feed = new DropFanOut(log, { batchMs: 5, heartbeat: false });
    const shared = [drop(3), drop(2)];
    const sockets = Array.from({ length: 4 }, fakeSocket);
    const stringify = vi.spyOn(JSON, 'stringify');
    for (const s of sockets) feed.join(s, null, async () => shared);
    await sleep(10);
    expect(stringify).toHaveBeenCalledTimes(1);
    for (const s of sockets) expect(s.sent[0]).toBe(sockets[0]!.sent[0]);
    expect(idsOf(sockets[3]!.sent[0])).toEqual(['3', '2']);
    feed.close();
  });

  it('sends a batch to many sockets a slice at a time, every socket once, in order', async () => {
    const feed = new DropFanOut(log, { batchMs: 5, heartbeat: false });
    const sockets = Array.from({ length: FAN_OUT_SLICE * 3 + 10 }, fakeSocket);
    for (const s of sockets) feed.join(s, null, async () => []);
    await sleep(10);
    // when the first socket gets the batch, look at the end of that task (a microtask runs before any
    // other task): one slice has gone and the rest wait for later turns of the event loop
    let sentInFirstTurn: number[] = [];
    const first = sockets[0]!;
    const send = first.send.bind(first);
    first.send = (data: string | Buffer) => {
      send(data);
      if (first.sent.length === 2)
        queueMicrotask(() => {
          sentInFirstTurn = sockets.flatMap((s, i) => (s.sent.length === 2 ? [i] : []));
        });
    };
    feed.deliver(drop(1));
    await sleep(20);
    expect(sentInFirstTurn).toEqual(Array.from({ length: FAN_OUT_SLICE }, (_, i) => i));
    for (const s of sockets) expect(s.sent.map(idsOf)).toEqual([[], ['1']]);
    feed.close();
  });

  it('sends the newest drops of a busy window to everyone, and each drop left out to its owner only', async () => {
    const { owners, feed } = ownedFeed();
    const alice = fakeSocket();
    const bob = fakeSocket();
    const alicePhone = fakeSocket();
    const watcher = fakeSocket();
    owners.set('1', [alice, alicePhone]).set('2', [bob]);
    for (const s of [alice, bob, alicePhone, watcher]) feed.join(s, null, async () => []);
    await sleep(10);

    // ids 1..7 in one window: 1, 2 and 4 by alice, 3 by bob, 5 by someone not told, 6 and 7 by bob
    const ownerOf: Record<number, string | null> = {
      1: '1',
      2: '1',
      3: '2',
      4: '1',
      5: null,
      6: '2',
      7: '2',
    };
    for (let id = 1; id <= 7; id++) feed.deliver(drop(id), ownerOf[id]);
    await sleep(30);

    // everyone: the newest three, newest first; left out: alice's own on both her sockets, bob's on his,
    // nothing else to anyone (each socket's messages after its catch-up, in any order)
    const after = (s: FakeSocket) => s.sent.slice(1).map(idsOf).sort();
    expect(after(alice)).toEqual([
      ['4', '2', '1'],
      ['7', '6', '5'],
    ]);
    expect(after(alicePhone)).toEqual([
      ['4', '2', '1'],
      ['7', '6', '5'],
    ]);
    expect(after(bob)).toEqual([['3'], ['7', '6', '5']]);
    expect(after(watcher)).toEqual([['7', '6', '5']]);

    // a quiet window goes out whole
    feed.deliver(drop(8), '1');
    feed.deliver(drop(9), null);
    await sleep(30);
    for (const s of [alice, bob, alicePhone, watcher]) expect(idsOf(s.sent.at(-1))).toEqual(['9', '8']);
    expect(alice.sent).toHaveLength(4);
    feed.close();
  });

  it('a window busier than it holds still gets every own drop to its owner', async () => {
    const { owners, feed } = ownedFeed();
    const alice = fakeSocket();
    const watcher = fakeSocket();
    owners.set('1', [alice]);
    for (const s of [alice, watcher]) feed.join(s, null, async () => []);
    await sleep(10);

    // alice's drops at the very start of a window of MAX_WINDOW + 1 drops, the rest by others
    const total = MAX_WINDOW + 1;
    for (let id = 1; id <= total; id++) feed.deliver(drop(id), id <= 2 ? '1' : null);
    await sleep(30);

    const newest = [String(total), String(total - 1), String(total - 2)];
    expect(watcher.sent.slice(1).map(idsOf)).toEqual([newest]);
    const got = alice.sent.slice(1).map(idsOf);
    expect(got).toContainEqual(newest);
    expect(
      got
        .flat()
        .filter((id) => id === '1' || id === '2')
        .sort(),
    ).toEqual(['1', '2']);
    feed.close();
  });

  it('sends batches less often when that many sockets would pass its sends a second', async () => {
    vi.useFakeTimers();
    try {
      const feed = new DropFanOut(log, { batchMs: 5, heartbeat: false, sendsPerSecond: 1000 });
      const sockets = Array.from({ length: 20 }, fakeSocket);
      for (const s of sockets) feed.join(s, null, async () => []);
      await vi.advanceTimersByTimeAsync(1);
      expect(feed.interval()).toBe(20); // 20 sockets at 1,000 sends a second: one batch per 20 ms
      feed.deliver(drop(1));
      await vi.advanceTimersByTimeAsync(19);
      expect(sockets[0]!.sent).toHaveLength(1); // past batchMs, not yet gone
      await vi.advanceTimersByTimeAsync(1);
      for (const s of sockets) expect(s.sent.map(idsOf)).toEqual([[], ['1']]);
      feed.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
