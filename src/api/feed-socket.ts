import type { DropEvent, DropFeedServerMessage } from '../../contract/feed.ts';
import { openReconnectingSocket, type SocketStatus, type VisibilitySource } from './socket';

// The live drops socket (spec §7): GET <api>/ws/drops?after=<last id seen>. The server sends a catch-up
// batch {type: 'drops'} first, then {type: 'drop'} per opened copy. It runs on the app's one reconnecting
// socket (./socket: backoff with jitter, heartbeat), always passing the last id it saw, so each catch-up
// fills exactly the gap; it closes while the app is hidden and resumes (with a catch-up) when it shows
// again. No React here: the state module feeds an atom from it.

export type { VisibilitySource };

export type FeedStatus = SocketStatus;

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

export function openFeedSocket(options: FeedSocketOptions): FeedSocket {
  let lastId: string | null = options.after ?? null;

  const see = (drops: DropEvent[]) => {
    for (const drop of drops) if (lastId === null || compareIds(drop.id, lastId) > 0) lastId = drop.id;
    options.onDrops(drops);
  };

  const socket = openReconnectingSocket({
    url: () => (lastId === null ? options.url : `${options.url}?after=${lastId}`),
    onMessage(raw, control) {
      const message = raw as unknown as DropFeedServerMessage;
      if (message.type === 'drops' && Array.isArray(message.drops)) {
        control.healthy();
        see(message.drops);
      } else if (message.type === 'drop' && message.drop) {
        see([message.drop]);
      }
    },
    onStatus: options.onStatus,
    visibility: options.visibility ?? (typeof document === 'undefined' ? null : document),
    WebSocketImpl: options.WebSocketImpl,
    random: options.random,
    now: options.now,
  });

  return { lastId: () => lastId, close: () => socket.close() };
}
