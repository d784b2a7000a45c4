import type { DepositCreditedMessage, DepositSocketServerMessage } from '../../../contract/deposit.ts';

// The deposit socket (spec §7): sends {type: 'auth', token} on open; the server answers {type: 'auth_ok'}
// and pushes {type: 'deposit_credited', ...} for this player's credits. It reconnects with backoff when
// the connection drops, until closed.

/** Close code the server uses for a missing, invalid or expired token (contract SocketCloseCode). */
const UNAUTHORIZED = 4401;

/** Reconnect delays: 1 s doubling up to 15 s, with some jitter. */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 15_000;
/** A ping now and then keeps proxies from dropping an idle connection. */
const PING_EVERY_MS = 25_000;

export interface DepositSocketOptions {
  /** ws(s)://.../api/ws/deposits */
  url: string;
  getToken(): string | null;
  /** a deposit_credited message arrived */
  onCredited(message: DepositCreditedMessage): void;
  /** the socket is authenticated; `reconnected` is true after a drop (messages may have been missed) */
  onReady?(reconnected: boolean): void;
  /** called after the server refused the token, before reconnecting (sign in again) */
  refreshToken?(): Promise<void>;
  /** for tests */
  WebSocketImpl?: typeof WebSocket;
}

export interface DepositSocket {
  close(): void;
}

/** The deposit socket's address beside the API: ws(s)://<host><api base>/ws/deposits. */
export function depositSocketUrl(apiBase: string, origin: string): string {
  const base = /^https?:\/\//.test(apiBase) ? apiBase : `${origin}${apiBase}`;
  return `${base.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws/deposits`;
}

function parse(data: unknown): DepositSocketServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as { type?: unknown };
    return message && typeof message.type === 'string' ? (message as DepositSocketServerMessage) : null;
  } catch {
    return null;
  }
}

export function openDepositSocket(options: DepositSocketOptions): DepositSocket {
  const Impl = options.WebSocketImpl ?? WebSocket;
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;
  let everReady = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const connect = () => {
    if (closed) return;
    const current = new Impl(options.url);
    socket = current;

    current.onopen = () => {
      const token = options.getToken();
      current.send(JSON.stringify({ type: 'auth', token: token ?? '' }));
    };

    current.onmessage = (event: MessageEvent) => {
      const message = parse(event.data);
      if (!message) return;
      if (message.type === 'auth_ok') {
        failures = 0;
        const reconnected = everReady;
        everReady = true;
        clearInterval(pingTimer);
        pingTimer = setInterval(() => {
          if (current.readyState === Impl.OPEN) current.send(JSON.stringify({ type: 'ping' }));
        }, PING_EVERY_MS);
        options.onReady?.(reconnected);
      } else if (message.type === 'deposit_credited') {
        options.onCredited(message);
      }
    };

    current.onclose = (event: CloseEvent) => {
      clearInterval(pingTimer);
      if (closed || socket !== current) return;
      socket = null;
      failures += 1;
      const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1)) * (0.8 + Math.random() * 0.4);
      const again = () => {
        retryTimer = setTimeout(connect, delay);
      };
      if (event.code === UNAUTHORIZED && options.refreshToken) {
        options.refreshToken().then(again, again);
      } else {
        again();
      }
    };
  };

  connect();

  return {
    close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(pingTimer);
      const current = socket;
      socket = null;
      if (current && (current.readyState === Impl.OPEN || current.readyState === Impl.CONNECTING)) {
        current.close(1000, 'done');
      }
    },
  };
}
