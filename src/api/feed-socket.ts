import type { DropEvent, DropFeedServerMessage } from '../../contract/feed.ts';

// The live drops socket (spec §7): GET <api>/ws/drops?after=<last id seen>. The server sends a catch-up
// batch {type: 'drops'} first, then {type: 'drop'} per opened copy. This module keeps one connection open:
// it reconnects with exponential backoff and jitter after a drop or a server restart, always passing the
// last id it saw, so the catch-up fills exactly the gap; it closes while the app is hidden and resumes
// (with a catch-up) when it shows again. No React here: the state module feeds an atom from it.

/** Reconnect delays: 1 s doubling up to 10 s, each scaled by a random 50–100 %. */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** A ping now and then keeps proxies from dropping an idle connection... */
const PING_EVERY_MS = 25_000;
/** ...and the server answers it: this long without a word means the connection is dead. */
const SILENCE_MS = 2 * PING_EVERY_MS + 5_000;

export type FeedStatus = 'connecting' | 'live' | 'paused';

/** What the socket needs of `document` (only page visibility). */
export interface VisibilitySource {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

export interface FeedSocketOptions {
  /** ws(s)://.../api/ws/drops */
  url: string;
  /** drops received: a catch-up batch (newest first) or one live drop; may repeat ones already seen */
  onDrops(drops: DropEvent[]): void;
  onStatus?(status: FeedStatus): void;
  /** the last drop id already known (from an earlier connection): the first catch-up starts after it */
  after?: string | null;
  /** for tests */
  WebSocketImpl?: typeof WebSocket;
  visibility?: VisibilitySource;
  random?: () => number;
  now?: () => number;
}

export interface FeedSocket {
  /** the greatest drop id received so far (sent as `after` on reconnect) */
  lastId(): string | null;
  close(): void;
}

/** The drops socket's address beside the API: ws(s)://<host><api base>/ws/drops. */
export function feedSocketUrl(apiBase: string, origin: string): string {
  const base = /^https?:\/\//.test(apiBase) ? apiBase : `${origin}${apiBase}`;
  return `${base.replace(/^http/, 'ws').replace(/\/+$/, '')}/ws/drops`;
}

/** Compares decimal id strings as numbers (ids can outgrow a double). */
export function compareIds(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

function parse(data: unknown): DropFeedServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as { type?: unknown };
    return message && typeof message.type === 'string' ? (message as DropFeedServerMessage) : null;
  } catch {
    return null;
  }
}

export function openFeedSocket(options: FeedSocketOptions): FeedSocket {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const visibility = options.visibility ?? (typeof document === 'undefined' ? undefined : document);
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;
  let lastId: string | null = options.after ?? null;
  let lastHeard = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const hidden = () => visibility?.visibilityState === 'hidden';

  const see = (drops: DropEvent[]) => {
    for (const drop of drops) if (lastId === null || compareIds(drop.id, lastId) > 0) lastId = drop.id;
    options.onDrops(drops);
  };

  /** Lets go of the current connection without waiting for its closing handshake. */
  const retire = () => {
    clearInterval(pingTimer);
    const current = socket;
    socket = null;
    if (!current) return;
    current.onopen = current.onmessage = current.onclose = current.onerror = null;
    if (current.readyState === Impl.OPEN || current.readyState === Impl.CONNECTING) current.close(1000);
  };

  const scheduleRetry = () => {
    clearTimeout(retryTimer);
    if (closed || hidden()) return;
    failures += 1;
    const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (failures - 1)) * (0.5 + random() * 0.5);
    options.onStatus?.('connecting');
    retryTimer = setTimeout(connect, delay);
  };

  function connect() {
    clearTimeout(retryTimer);
    retire();
    if (closed) return;
    if (hidden()) {
      options.onStatus?.('paused');
      return;
    }
    options.onStatus?.('connecting');
    const current = new Impl(lastId === null ? options.url : `${options.url}?after=${lastId}`);
    socket = current;
    lastHeard = now();

    current.onmessage = (event: MessageEvent) => {
      lastHeard = now();
      const message = parse(event.data);
      if (!message) return;
      if (message.type === 'drops' && Array.isArray(message.drops)) {
        failures = 0;
        options.onStatus?.('live');
        see(message.drops);
      } else if (message.type === 'drop' && message.drop) {
        see([message.drop]);
      }
    };
    current.onopen = () => {
      lastHeard = now();
      pingTimer = setInterval(() => {
        if (now() - lastHeard > SILENCE_MS) {
          retire(); // silent too long: a dead connection the browser has not noticed
          scheduleRetry();
        } else if (current.readyState === Impl.OPEN) {
          current.send(JSON.stringify({ type: 'ping' }));
        }
      }, PING_EVERY_MS);
    };
    current.onclose = () => {
      if (socket !== current) return;
      retire();
      scheduleRetry();
    };
  }

  const onVisibility = () => {
    if (closed) return;
    if (hidden()) {
      clearTimeout(retryTimer);
      retire();
      options.onStatus?.('paused');
    } else if (!socket) {
      failures = 0;
      connect(); // back in view: catch up at once
    }
  };

  visibility?.addEventListener('visibilitychange', onVisibility);
  connect();

  return {
    lastId: () => lastId,
    close() {
      closed = true;
      visibility?.removeEventListener('visibilitychange', onVisibility);
      clearTimeout(retryTimer);
      retire();
    },
  };
}
