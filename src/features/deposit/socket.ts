import type { DepositCreditedMessage } from '../../../contract/deposit.ts';
import { openReconnectingSocket } from '../../api/socket';

// The deposit socket (spec §7): sends {type: 'auth', token} on open; the server answers {type: 'auth_ok'}
// and pushes {type: 'deposit_credited', ...} for this player's credits. It runs on the app's one
// reconnecting socket (backoff with jitter, heartbeat: a connection gone silent is replaced), until closed.

/** Close code the server uses for a missing, invalid or expired token (contract SocketCloseCode). */
const UNAUTHORIZED = 4401;
/** Longest wait between reconnect attempts. */
const RETRY_MAX_MS = 15_000;

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
  random?: () => number;
  now?: () => number;
}

export interface DepositSocket {
  close(): void;
}

/** The deposit socket's address beside the API: ws(s)://<host><api base>/ws/deposits. */
export function depositSocketUrl(apiBase: string, origin: string): string {
  const base = /^https?:\/\//.test(apiBase) ? apiBase : `${origin}${apiBase}`;
  return `${base.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws/deposits`;
}

export function openDepositSocket(options: DepositSocketOptions): DepositSocket {
  let everReady = false;
  return openReconnectingSocket({
    url: () => options.url,
    onOpen(control) {
      control.send({ type: 'auth', token: options.getToken() ?? '' });
    },
    onMessage(message, control) {
      if (message.type === 'auth_ok') {
        control.healthy();
        const reconnected = everReady;
        everReady = true;
        options.onReady?.(reconnected);
      } else if (message.type === 'deposit_credited') {
        options.onCredited(message as unknown as DepositCreditedMessage);
      }
    },
    onClose(code) {
      if (code === UNAUTHORIZED && options.refreshToken) return options.refreshToken();
    },
    // the sheet is open while the player pays in the wallet app: keep listening while hidden
    visibility: null,
    retryMaxMs: RETRY_MAX_MS,
    WebSocketImpl: options.WebSocketImpl,
    random: options.random,
    now: options.now,
  });
}
