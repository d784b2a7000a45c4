import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { depositSocketUrl, openDepositSocket } from '../../src/features/deposit/socket';

// The client's deposit socket against a scripted WebSocket: auth on open, credits forwarded, reconnect
// with backoff after a drop, a new sign-in after the server refuses the token, nothing after close().

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

const credit = {
  type: 'deposit_credited',
  amount: 1.5,
  balance: 101.5,
  method: 'cryptobot',
  id: 'demo:1',
  demo: true,
} as const;

beforeEach(() => {
  FakeSocket.all = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

function open(overrides: Partial<Parameters<typeof openDepositSocket>[0]> = {}) {
  const credited = vi.fn();
  const ready = vi.fn();
  let token = 'token-1';
  const socket = openDepositSocket({
    url: 'ws://host/api/ws/deposits',
    getToken: () => token,
    onCredited: credited,
    onReady: ready,
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    random: () => 1, // the longest of the jittered delays
    ...overrides,
  });
  return { socket, credited, ready, setToken: (next: string) => (token = next) };
}

describe('deposit socket', () => {
  it('lives beside the API', () => {
    expect(depositSocketUrl('/api', 'https://app.example')).toBe('wss://app.example/api/ws/deposits');
    expect(depositSocketUrl('/api', 'http://127.0.0.1:8765')).toBe('ws://127.0.0.1:8765/api/ws/deposits');
    expect(depositSocketUrl('https://api.example/v1/', 'https://app.example')).toBe(
      'wss://api.example/v1/ws/deposits',
    );
  });

  it('sends {type: auth, token} on open and forwards deposit_credited', () => {
    const { credited, ready } = open();
    const [ws] = FakeSocket.all;
    expect(ws!.url).toBe('ws://host/api/ws/deposits');
    ws!.open();
    expect(ws!.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    ws!.push({ type: 'auth_ok' });
    expect(ready).toHaveBeenCalledWith(false);
    ws!.push(credit);
    ws!.push({ type: 'pong' });
    ws!.onmessage?.({ data: 'not json' });
    expect(credited).toHaveBeenCalledTimes(1);
    expect(credited).toHaveBeenCalledWith(credit);
  });

  it('reconnects with growing delays after drops and says it reconnected', () => {
    const { ready } = open();
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.push({ type: 'auth_ok' });

    FakeSocket.all[0]!.drop();
    vi.advanceTimersByTime(700);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(600); // 1 s
    expect(FakeSocket.all).toHaveLength(2);

    FakeSocket.all[1]!.drop(); // failed again: about 2 s now
    vi.advanceTimersByTime(1500);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(3);

    FakeSocket.all[2]!.open();
    FakeSocket.all[2]!.push({ type: 'auth_ok' });
    expect(ready).toHaveBeenLastCalledWith(true);
  });

  it('signs in again when the server refuses the token, then authenticates with the new one', async () => {
    const refreshToken = vi.fn(async () => {
      handle.setToken('token-2');
    });
    const handle = open({ refreshToken });
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4401);
    await vi.advanceTimersByTimeAsync(0);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1500);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent).toEqual([{ type: 'auth', token: 'token-2' }]);
  });

  it('pings while open and stops everything on close()', () => {
    const { socket } = open();
    const ws = FakeSocket.all[0]!;
    ws.open();
    ws.push({ type: 'auth_ok' });
    vi.advanceTimersByTime(25_000);
    expect(ws.sent).toContainEqual({ type: 'ping' });

    socket.close();
    expect(ws.closedWith).toBe(1000);
    ws.drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('drops a connection that went silent and opens another (heartbeat), then authenticates again', () => {
    const { ready } = open();
    const ws = FakeSocket.all[0]!;
    ws.open();
    ws.push({ type: 'auth_ok' });
    vi.advanceTimersByTime(25_000);
    expect(ws.sent).toContainEqual({ type: 'ping' });
    // no pong and nothing else for about a minute: the connection is dead though never closed
    vi.advanceTimersByTime(50_000);
    expect(ws.closedWith).toBe(1000);
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.open();
    expect(FakeSocket.all[1]!.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    FakeSocket.all[1]!.push({ type: 'auth_ok' });
    expect(ready).toHaveBeenLastCalledWith(true);
  });

  it('keeps a connection that answers its pings', () => {
    open();
    const ws = FakeSocket.all[0]!;
    ws.open();
    ws.push({ type: 'auth_ok' });
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(25_000);
      ws.push({ type: 'pong' });
    }
    expect(ws.closedWith).toBeUndefined();
    expect(FakeSocket.all).toHaveLength(1);
  });
});
