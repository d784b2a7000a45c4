import type { BattleEventMessage } from '../../contract/battles.ts';
import type { DepositCreditedMessage } from '../../contract/deposit.ts';
import type { DropEvent } from '../../contract/feed.ts';
import type {
  AppSocketClientMessage,
  AppSocketServerMessage,
  WithdrawalChangedMessage,
} from '../../contract/socket.ts';
import { openReconnectingSocket, type SocketStatus, type VisibilitySource } from './socket';

// The app's one socket (GET <api>/ws, contract/socket.ts): the live drops feed, the player's balance, deposit
// credits and battle events. It runs on the reconnecting socket (./socket: backoff with jitter) without
// client pings: the server pings at the protocol level and sends a sign of life the client only listens to,
// so an idle app sends nothing. It passes the last drop id it saw on each reconnect (the feed's catch-up
// fills exactly the gap), signs in whenever a token is known, and tells again which battles it watches.
// It closes while the app is hidden (unless told to keep listening) and comes back at once when it shows.
// No React here: src/state/live.ts feeds the atoms from it.

export type { VisibilitySource };

/**
 * The server sends a sign of life every 25 s (HEARTBEAT_MS in contract/socket.ts: the client imports
 * contract types only); a connection silent for twice that and a margin is dead.
 */
const SILENCE_MS = 55_000;
/** Longest wait between reconnect attempts. */
const RETRY_MAX_MS = 10_000;

export interface AppSocketOptions {
  /** ws(s)://.../api/ws */
  url: string;
  /** the session token, null before the first sign-in (the feed works without one) */
  getToken(): string | null;
  /** the server refused the token: sign in again (the socket sends the new token when this resolves) */
  refreshToken?(): Promise<void>;
  /** drops: the catch-up (newest first) or a batch of new ones; may repeat ones already seen */
  onDrops(drops: DropEvent[]): void;
  /** the player's balance, only ever newer than the last one passed on (by version) */
  onBalance(balance: string, version: string): void;
  onDeposit(message: DepositCreditedMessage): void;
  onBattle(message: BattleEventMessage): void;
  /** one of the player's withdrawals changed: read them again */
  onWithdrawal?(message: WithdrawalChangedMessage): void;
  /**
   * signed in on a new connection (the balance follows at once); `reconnected` is true after a drop, when
   * pushes may have been missed meanwhile
   */
  onSignedIn?(reconnected: boolean): void;
  /** pushes flow (true: open and signed in) or stopped (false: closed, paused, refused) */
  onLive?(live: boolean): void;
  onStatus?(status: SocketStatus): void;
  /** the drop id already known: the first catch-up starts after it */
  after?: string | null;
  /** see ReconnectingSocketOptions.keepWhileHidden */
  keepWhileHidden?(): boolean;
  /** for tests */
  WebSocketImpl?: typeof WebSocket;
  visibility?: VisibilitySource | null;
  random?: () => number;
  now?: () => number;
}

export interface AppSocket {
  /** true while a connection is open and signed in: pushes arrive */
  signedIn(): boolean;
  /** sends the token again (after a new sign-in) */
  authenticate(): void;
  /** the battles whose events to receive: 'all', some ids, or none (an empty list) */
  watchBattles(watch: 'all' | string[]): void;
  /** see ReconnectingSocket.visibilityChanged */
  visibilityChanged(): void;
  /** the greatest drop id received so far (sent as `after` on reconnect) */
  lastDropId(): string | null;
  close(): void;
}

/** The app socket's address beside the API: ws(s)://<host><api base>/ws. */
export function appSocketUrl(apiBase: string, origin: string): string {
  const base = /^https?:\/\//.test(apiBase) ? apiBase : `${origin}${apiBase}`;
  return `${base.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws`;
}

/** Compares decimal id strings as numbers (ids can outgrow a double). */
export function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

export function openAppSocket(options: AppSocketOptions): AppSocket {
  let lastDrop: string | null = options.after ?? null;
  let version: string | null = null;
  let battles: 'all' | string[] = [];
  let signedIn = false;
  let everSignedIn = false;
  let send: ((message: AppSocketClientMessage) => void) | null = null;

  const setSignedIn = (value: boolean) => {
    if (signedIn === value) return;
    signedIn = value;
    options.onLive?.(value);
  };

  const authenticate = () => {
    const token = options.getToken();
    if (token && send) send({ type: 'auth', token });
  };

  const socket = openReconnectingSocket({
    url: () => (lastDrop === null ? options.url : `${options.url}?after=${lastDrop}`),
    onOpen(control) {
      setSignedIn(false);
      send = (message) => control.send(message);
      authenticate();
      if (battles === 'all' || battles.length > 0) control.send({ type: 'battles', watch: battles });
    },
    onMessage(raw, control) {
      const message = raw as unknown as AppSocketServerMessage;
      switch (message.type) {
        case 'drops':
          if (!Array.isArray(message.drops)) return;
          control.healthy();
          for (const drop of message.drops) {
            if (lastDrop === null || compareIds(drop.id, lastDrop) > 0) lastDrop = drop.id;
          }
          options.onDrops(message.drops);
          return;
        case 'auth_ok':
          setSignedIn(true);
          options.onSignedIn?.(everSignedIn);
          everSignedIn = true;
          return;
        case 'auth_failed':
          setSignedIn(false);
          void options.refreshToken?.().then(authenticate, () => undefined);
          return;
        case 'balance':
          if (version !== null && compareIds(message.version, version) <= 0) return;
          version = message.version;
          options.onBalance(message.balance, message.version);
          return;
        case 'deposit_credited':
          options.onDeposit(message);
          return;
        case 'battle':
          options.onBattle(message);
          return;
        case 'withdrawal':
          options.onWithdrawal?.(message);
          return;
        default:
      }
    },
    onClose() {
      setSignedIn(false);
      send = null;
    },
    onStatus(status) {
      if (status !== 'live') setSignedIn(false);
      options.onStatus?.(status);
    },
    ping: false,
    silenceMs: SILENCE_MS,
    retryMaxMs: RETRY_MAX_MS,
    keepWhileHidden: options.keepWhileHidden,
    visibility:
      options.visibility === undefined
        ? typeof document === 'undefined'
          ? null
          : document
        : options.visibility,
    WebSocketImpl: options.WebSocketImpl,
    random: options.random,
    now: options.now,
  });

  return {
    signedIn: () => signedIn,
    authenticate,
    watchBattles(watch) {
      battles = watch;
      send?.({ type: 'battles', watch });
    },
    visibilityChanged: () => socket.visibilityChanged(),
    lastDropId: () => lastDrop,
    close() {
      socket.close();
      setSignedIn(false);
    },
  };
}
