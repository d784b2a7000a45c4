// One reconnecting WebSocket for every socket of the app (the live drops feed, deposit credits): it
// reconnects with exponential backoff and jitter after a drop or a server restart, pings now and then and
// gives up on a connection that stays silent (dead, without the browser noticing), and can pause while
// the app is hidden. What travels on it is the caller's business: it gets each JSON message with a `type`.
// No React here.

/** Reconnect delays: 1 s doubling up to a cap, each scaled by a random 50–100 %. */
const RETRY_BASE_MS = 1000;
const RETRY_MAX_MS = 10_000;
/** A ping now and then keeps proxies from dropping an idle connection... */
const PING_EVERY_MS = 25_000;
/** ...and the server answers it: this long without a word means the connection is dead. */
const SILENCE_MS = 2 * PING_EVERY_MS + 5_000;

export type SocketStatus = 'connecting' | 'live' | 'paused';

/** What the socket needs of `document` (only page visibility). */
export interface VisibilitySource {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: 'visibilitychange', listener: () => void): void;
  removeEventListener(type: 'visibilitychange', listener: () => void): void;
}

/** A message from the server: JSON with a string `type`. */
interface SocketMessage {
  type: string;
  [field: string]: unknown;
}

/** Handed to the caller's callbacks for the current connection. */
interface SocketControl {
  /** sends a JSON message on the current connection (dropped if it is not open) */
  send(message: unknown): void;
  /** the connection works (the server accepted it): the backoff starts over and the status is 'live' */
  healthy(): void;
}

export interface ReconnectingSocketOptions {
  /** the address of each new connection (it may change, e.g. to resume after the last id seen) */
  url(): string;
  /** a connection opened (send what the server expects first, e.g. an auth message) */
  onOpen?(control: SocketControl): void;
  onMessage(message: SocketMessage, control: SocketControl): void;
  /**
   * a connection closed and another will follow; the next attempt waits for the returned promise
   * (e.g. a new sign-in after the server refused the token)
   */
  onClose?(code: number): void | Promise<void>;
  onStatus?(status: SocketStatus): void;
  /** longest wait between attempts (RETRY_MAX_MS by default) */
  retryMaxMs?: number;
  /** closes while this says the page is hidden and reconnects (at once) when it shows again */
  visibility?: VisibilitySource | null;
  /**
   * false: the client never pings (the server sends a sign of life instead); a connection silent for
   * `silenceMs` is still replaced
   */
  ping?: boolean;
  /** how long a silent connection is trusted (SILENCE_MS by default) */
  silenceMs?: number;
  /** while this says true, a hidden page keeps its connection (a payment in the wallet app is awaited) */
  keepWhileHidden?(): boolean;
  /** for tests */
  WebSocketImpl?: typeof WebSocket;
  random?: () => number;
  now?: () => number;
}

export interface ReconnectingSocket {
  /** re-reads the visibility rules (after keepWhileHidden changed its answer) */
  visibilityChanged(): void;
  close(): void;
}

function parse(data: unknown): SocketMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as { type?: unknown } | null;
    return message && typeof message.type === 'string' ? (message as SocketMessage) : null;
  } catch {
    return null;
  }
}

export function openReconnectingSocket(options: ReconnectingSocketOptions): ReconnectingSocket {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const visibility = options.visibility ?? undefined;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const retryMaxMs = options.retryMaxMs ?? RETRY_MAX_MS;
  const pings = options.ping ?? true;
  const silenceMs = options.silenceMs ?? SILENCE_MS;
  const checkEveryMs = pings ? PING_EVERY_MS : Math.max(1000, Math.round(silenceMs / 2));
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;
  let lastHeard = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;

  const hidden = () => visibility?.visibilityState === 'hidden' && !options.keepWhileHidden?.();

  /** Lets go of the current connection without waiting for its closing handshake. */
  const retire = () => {
    clearInterval(pingTimer);
    const current = socket;
    socket = null;
    if (!current) return;
    current.onopen = current.onmessage = current.onclose = current.onerror = null;
    if (current.readyState === Impl.OPEN || current.readyState === Impl.CONNECTING) current.close(1000);
  };

  const scheduleRetry = (before?: void | Promise<void>) => {
    clearTimeout(retryTimer);
    if (closed || hidden()) return;
    failures += 1;
    const delay = Math.min(retryMaxMs, RETRY_BASE_MS * 2 ** (failures - 1)) * (0.5 + random() * 0.5);
    options.onStatus?.('connecting');
    const wait = () => {
      if (closed || hidden() || socket) return;
      retryTimer = setTimeout(connect, delay);
    };
    if (before) before.then(wait, wait);
    else wait();
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
    const current = new Impl(options.url());
    socket = current;
    lastHeard = now();
    const control: SocketControl = {
      send(message) {
        if (socket === current && current.readyState === Impl.OPEN) current.send(JSON.stringify(message));
      },
      healthy() {
        if (socket !== current) return;
        failures = 0;
        options.onStatus?.('live');
      },
    };

    current.onmessage = (event: MessageEvent) => {
      lastHeard = now();
      const message = parse(event.data);
      if (message) options.onMessage(message, control);
    };
    current.onopen = () => {
      lastHeard = now();
      options.onOpen?.(control);
      pingTimer = setInterval(() => {
        if (now() - lastHeard > silenceMs) {
          retire(); // silent too long: a dead connection the browser has not noticed
          scheduleRetry();
        } else if (pings) {
          control.send({ type: 'ping' });
        }
      }, checkEveryMs);
    };
    current.onclose = (event: CloseEvent) => {
      if (socket !== current) return;
      retire();
      scheduleRetry(options.onClose?.(event.code));
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
      connect(); // back in view: at once
    }
  };

  visibility?.addEventListener('visibilitychange', onVisibility);
  connect();

  return {
    visibilityChanged: onVisibility,
    close() {
      closed = true;
      visibility?.removeEventListener('visibilitychange', onVisibility);
      clearTimeout(retryTimer);
      retire();
    },
  };
}
