import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DropEvent } from '../../contract/feed.ts';
import { compareIds, feedSocketUrl, openFeedSocket, type VisibilitySource } from '../../src/api/feed-socket';
import { dropKey, FEED_KEPT, mergeDrops } from '../../src/state/feed';

// The client's drops feed: merging (de-duplicated by id + timestamp, newest first, 50 kept) and the socket
// against a scripted WebSocket (catch-up with `after`, backoff with jitter, pause while hidden).

function drop(
  id: number | string,
  timestamp = `2025-01-01T00:00:${String(Number(id) % 60).padStart(2, '0')}.000Z`,
): DropEvent {
  return {
    id: String(id),
    timestamp,
    user: { username: '@someone', avatar: null },
    case: { id: 'starter', name: 'Starter', imageUrl: '/assets/cases/starter.svg', imageBase64: null },
    item: { id: 'flower_pink', name: 'Pink Flower', imageUrl: '/assets/items/flower_pink.svg' },
    betId: `bet${id}`,
  };
}

describe('merging drops', () => {
  it('orders ids as numbers', () => {
    expect(compareIds('9', '10')).toBeLessThan(0);
    expect(compareIds('12345678901234567', '12345678901234568')).toBeLessThan(0);
    expect(compareIds('42', '42')).toBe(0);
  });

  it('keeps the newest first, without repeats, at most 50, and the same objects', () => {
    const a = drop(1);
    const b = drop(2);
    let kept = mergeDrops([], [b, a]);
    expect(kept.map((d) => d.id)).toEqual(['2', '1']);
    // a repeat (same id and timestamp) changes nothing: the very same array comes back
    const same = mergeDrops(kept, [drop(2), drop(1)]);
    expect(same).toBe(kept);
    // live drops arrive one by one; a late lower id lands in its place
    kept = mergeDrops(kept, [drop(10)]);
    kept = mergeDrops(kept, [drop(5)]);
    expect(kept.map((d) => d.id)).toEqual(['10', '5', '2', '1']);
    expect(kept[2]).toBe(b); // untouched drops keep their identity (memoized cards stay)
    // the same id with another timestamp is another drop (spec: de-duplicated by id plus timestamp)
    kept = mergeDrops(kept, [drop(2, '2030-01-01T00:00:00.000Z')]);
    expect(kept.filter((d) => d.id === '2')).toHaveLength(2);
    expect(new Set(kept.map(dropKey)).size).toBe(kept.length);

    const many = Array.from({ length: 80 }, (_, i) => drop(100 + i));
    const full = mergeDrops(kept, many);
    expect(full).toHaveLength(FEED_KEPT);
    expect(full[0]!.id).toBe('179');
    expect(full.at(-1)!.id).toBe('130');
  });
});

class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = FakeSocket.CLOSED;
  }
  // the server's side
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  push(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

class FakeDocument implements VisibilitySource {
  visibilityState: DocumentVisibilityState = 'visible';
  private listeners = new Set<() => void>();
  addEventListener(_type: 'visibilitychange', listener: () => void) {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'visibilitychange', listener: () => void) {
    this.listeners.delete(listener);
  }
  set(state: DocumentVisibilityState) {
    this.visibilityState = state;
    for (const l of this.listeners) l();
  }
}

const last = () => FakeSocket.all.at(-1)!;

describe('the drops socket', () => {
  let doc: FakeDocument;
  beforeEach(() => {
    FakeSocket.all = [];
    doc = new FakeDocument();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  function open(random = () => 1) {
    const received: DropEvent[][] = [];
    const statuses: string[] = [];
    const socket = openFeedSocket({
      url: 'ws://host/api/ws/drops',
      onDrops: (drops) => received.push(drops),
      onStatus: (s) => statuses.push(s),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      visibility: doc,
      random,
    });
    return { socket, received, statuses };
  }

  it('lives beside the API', () => {
    expect(feedSocketUrl('/api', 'https://app.example')).toBe('wss://app.example/api/ws/drops');
    expect(feedSocketUrl('https://api.example/v1/', 'https://app.example')).toBe(
      'wss://api.example/v1/ws/drops',
    );
  });

  it('passes on the catch-up and live drops, and resumes after the last id it saw', () => {
    const { socket, received, statuses } = open();
    expect(last().url).toBe('ws://host/api/ws/drops');
    last().open();
    last().push({ type: 'drops', drops: [drop(7), drop(6)] });
    last().push({ type: 'drop', drop: drop(8) });
    last().push({ type: 'pong' });
    last().onmessage?.({ data: 'not json' });
    expect(received.map((batch) => batch.map((d) => d.id))).toEqual([['7', '6'], ['8']]);
    expect(statuses.at(-1)).toBe('live');
    expect(socket.lastId()).toBe('8');

    last().drop(1001); // the server restarts
    expect(statuses.at(-1)).toBe('connecting');
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toBe('ws://host/api/ws/drops?after=8');
    socket.close();
  });

  it('backs off exponentially with jitter, up to 10 s, and starts over once connected', () => {
    let r = 0.5;
    const { socket } = open(() => r);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const before = FakeSocket.all.length;
      last().drop();
      let waited = 0;
      while (FakeSocket.all.length === before) {
        vi.advanceTimersByTime(50);
        waited += 50;
      }
      waits.push(waited);
    }
    // 1, 2, 4, 8, 10, 10 s, each scaled by 0.5 + 0.5 × 0.5 = 75 %
    expect(waits).toEqual([750, 1500, 3000, 6000, 7500, 7500]);
    r = 0; // the least jitter: half the delay
    last().open();
    last().push({ type: 'drops', drops: [] });
    last().drop();
    vi.advanceTimersByTime(499);
    expect(FakeSocket.all).toHaveLength(7);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(8);
    socket.close();
  });

  it('closes while the app is hidden and catches up at once when it shows again', () => {
    const { socket, statuses } = open();
    last().open();
    last().push({ type: 'drops', drops: [drop(3)] });
    doc.set('hidden');
    expect(last().closedWith).toBe(1000);
    expect(statuses.at(-1)).toBe('paused');
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);

    doc.set('visible');
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toBe('ws://host/api/ws/drops?after=3');
    // hidden while waiting to retry: no retry until visible again
    last().drop();
    doc.set('hidden');
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
    doc.set('visible');
    expect(FakeSocket.all).toHaveLength(3);
    socket.close();
  });

  it('starts paused in a hidden app, and starts after a known id', () => {
    doc.visibilityState = 'hidden';
    const socket = openFeedSocket({
      url: 'ws://host/api/ws/drops',
      after: '41',
      onDrops: () => {},
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      visibility: doc,
    });
    expect(FakeSocket.all).toHaveLength(0);
    doc.set('visible');
    expect(last().url).toBe('ws://host/api/ws/drops?after=41');
    socket.close();
  });

  it('pings, drops a connection that went silent, and stops everything on close()', () => {
    const { socket } = open();
    const ws = last();
    ws.open();
    ws.push({ type: 'drops', drops: [] });
    vi.advanceTimersByTime(25_000);
    expect(ws.sent).toContainEqual({ type: 'ping' });
    // no pong, no drops: after about a minute the connection is given up and another is opened
    vi.advanceTimersByTime(50_000);
    expect(ws.closedWith).toBe(1000);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);

    socket.close();
    expect(last().closedWith).toBe(1000);
    last().drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });
});
