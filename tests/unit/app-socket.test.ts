import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DropEvent } from '../../contract/feed.ts';
import { appSocketUrl, openAppSocket, type VisibilitySource } from '../../src/api/app-socket';

// The app's one socket against a scripted WebSocket: the feed's catch-up resumes after the last id seen;
// sign-in on open, balances passed on only when newer (by version), credits and battle events forwarded;
// a refused token signs in again; the idle client sends nothing (no pings) and replaces a connection that
// went silent; backoff with jitter; closed while hidden unless told to keep listening.

function drop(id: number): DropEvent {
  return {
    id: String(id),
    timestamp: `2025-01-01T00:00:${String(id % 60).padStart(2, '0')}.000Z`,
    user: { username: '@someone', avatar: null },
    case: { id: 'starter', name: 'Starter', imageUrl: '/assets/cases/starter.svg', imageBase64: null },
    item: { id: 'flower_pink', name: 'Pink Flower', imageUrl: '/assets/items/flower_pink.svg' },
    betId: `bet${id}`,
  };
}

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

describe('the app socket', () => {
  let doc: FakeDocument;
  beforeEach(() => {
    FakeSocket.all = [];
    doc = new FakeDocument();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  function open(overrides: Partial<Parameters<typeof openAppSocket>[0]> = {}) {
    const got = {
      drops: [] as string[][],
      balances: [] as string[],
      deposits: [] as unknown[],
      battles: [] as unknown[],
      live: [] as boolean[],
      signedIn: [] as boolean[],
    };
    let token: string | null = 'token-1';
    const socket = openAppSocket({
      url: 'ws://host/api/ws',
      getToken: () => token,
      onDrops: (drops) => got.drops.push(drops.map((d) => d.id)),
      onBalance: (balance, version) => got.balances.push(`${balance}@${version}`),
      onDeposit: (m) => got.deposits.push(m),
      onBattle: (m) => got.battles.push(m),
      onLive: (live) => got.live.push(live),
      onSignedIn: (reconnected) => got.signedIn.push(reconnected),
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      visibility: doc,
      random: () => 1,
      ...overrides,
    });
    return { socket, got, setToken: (t: string | null) => (token = t) };
  }

  it('lives beside the API', () => {
    expect(appSocketUrl('/api', 'https://app.example')).toBe('wss://app.example/api/ws');
    expect(appSocketUrl('https://api.example/v1/', 'https://app.example')).toBe('wss://api.example/v1/ws');
  });

  it('signs in on open, passes the feed on and resumes it after the last id it saw', () => {
    const { socket, got } = open();
    expect(last().url).toBe('ws://host/api/ws');
    last().open();
    expect(last().sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    last().push({ type: 'drops', drops: [drop(7), drop(6)] });
    last().push({ type: 'drops', drops: [drop(8)] });
    last().onmessage?.({ data: 'not json' });
    expect(got.drops).toEqual([['7', '6'], ['8']]);
    expect(socket.lastDropId()).toBe('8');
    last().push({ type: 'auth_ok' });
    expect(socket.signedIn()).toBe(true);
    expect(got.live).toEqual([true]);

    last().drop(1001); // the server restarts
    expect(got.live).toEqual([true, false]);
    vi.advanceTimersByTime(1000);
    expect(last().url).toBe('ws://host/api/ws?after=8');
    last().open();
    last().push({ type: 'auth_ok' });
    expect(got.signedIn).toEqual([false, true]); // the second sign-in is a reconnection
    socket.close();
    expect(got.live.at(-1)).toBe(false);
  });

  it('passes a balance on only when its version is newer, also across reconnects', () => {
    const { socket, got } = open();
    last().open();
    last().push({ type: 'auth_ok' });
    last().push({ type: 'balance', balance: '10', version: '5' });
    last().push({ type: 'balance', balance: '9', version: '9' });
    last().push({ type: 'balance', balance: '10', version: '5' }); // late, older: ignored
    last().push({ type: 'balance', balance: '12', version: '10' }); // longer id text is greater
    last().drop();
    vi.advanceTimersByTime(1000);
    last().open();
    last().push({ type: 'balance', balance: '12', version: '10' }); // the same again at sign-in
    last().push({ type: 'balance', balance: '15', version: '11' });
    expect(got.balances).toEqual(['10@5', '9@9', '12@10', '15@11']);
    socket.close();
  });

  it('forwards credits and battle events, and tells again which battles it watches after a reconnect', () => {
    const { socket, got } = open();
    last().open();
    socket.watchBattles('all');
    expect(last().sent).toContainEqual({ type: 'battles', watch: 'all' });
    const credit = {
      type: 'deposit_credited',
      amount: '1.5',
      balance: '2',
      method: 'ton',
      id: 'demo:1',
      demo: true,
    };
    last().push(credit);
    last().push({ type: 'battle', event: 'created', id: 'b1', status: 'open' });
    expect(got.deposits).toEqual([credit]);
    expect(got.battles).toEqual([{ type: 'battle', event: 'created', id: 'b1', status: 'open' }]);
    last().drop();
    vi.advanceTimersByTime(1000);
    last().open();
    expect(last().sent).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'battles', watch: 'all' },
    ]);
    socket.watchBattles([]);
    expect(last().sent.at(-1)).toEqual({ type: 'battles', watch: [] });
    socket.close();
  });

  it('without a token it only listens; a refused token signs in again and sends the new one', async () => {
    const refreshed: string[] = [];
    const { socket, setToken } = open({
      refreshToken: async () => {
        setToken('token-2');
        refreshed.push('yes');
      },
    });
    setToken(null);
    last().open();
    expect(last().sent).toEqual([]);
    setToken('token-1');
    socket.authenticate(); // a sign-in happened
    expect(last().sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    last().push({ type: 'auth_failed' });
    await vi.waitFor(() => expect(refreshed).toEqual(['yes']));
    expect(last().sent.at(-1)).toEqual({ type: 'auth', token: 'token-2' });
    expect(FakeSocket.all).toHaveLength(1); // the feed went on meanwhile
    socket.close();
  });

  it('sends nothing while idle, and replaces a connection that stays silent', () => {
    const { socket } = open();
    const ws = last();
    ws.open();
    ws.push({ type: 'auth_ok' });
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(25_000);
      ws.push({ type: 'hb' }); // the server's sign of life
    }
    expect(ws.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    expect(ws.closedWith).toBeUndefined();
    vi.advanceTimersByTime(90_000); // silence well past twice the heartbeat: dead
    expect(ws.closedWith).toBe(1000);
    vi.advanceTimersByTime(2000);
    expect(FakeSocket.all).toHaveLength(2);
    socket.close();
  });

  it('backs off exponentially with jitter, up to 10 s', () => {
    const { socket } = open({ random: () => 0.5 });
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
    expect(waits).toEqual([750, 1500, 3000, 6000, 7500, 7500]);
    socket.close();
  });

  it('closes while the app is hidden, unless a deposit is awaited, and comes back at once', () => {
    let keep = false;
    const { socket, got } = open({ keepWhileHidden: () => keep });
    last().open();
    last().push({ type: 'drops', drops: [drop(3)] });
    last().push({ type: 'auth_ok' });
    doc.set('hidden');
    expect(last().closedWith).toBe(1000);
    expect(got.live.at(-1)).toBe(false);
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.all).toHaveLength(1);
    doc.set('visible');
    expect(FakeSocket.all).toHaveLength(2);
    expect(last().url).toBe('ws://host/api/ws?after=3');

    keep = true; // the deposit sheet is open: the player pays in the wallet app
    last().open();
    doc.set('hidden');
    expect(last().closedWith).toBeUndefined();
    keep = false;
    socket.visibilityChanged();
    expect(last().closedWith).toBe(1000);
    socket.close();
  });
});
