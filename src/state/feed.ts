import { atom } from 'jotai';
import type { DropEvent } from '../../contract/feed.ts';
import { API_BASE } from '../api';
import {
  compareIds,
  feedSocketUrl,
  openFeedSocket,
  type FeedSocket,
  type FeedStatus,
} from '../api/feed-socket';
import { store } from './store';

/** The strip shows the 30 newest drops and keeps 50 (spec §9). */
const FEED_SHOWN = 30;
export const FEED_KEPT = 50;
/** The socket stays open this long after the last strip leaves (moving between the list and a case). */
const LINGER_MS = 10_000;

/** Drops are the same drop when id and timestamp match (spec §9). */
export function dropKey(drop: DropEvent): string {
  return `${drop.id}:${drop.timestamp}`;
}

/** Newest first: by id (one database sequence orders them), then by time. */
function newestFirst(a: DropEvent, b: DropEvent): number {
  return compareIds(b.id, a.id) || (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0);
}

/**
 * Adds drops to the kept list: repeats dropped, newest first, at most `kept`. Returns the same array when
 * nothing is new, and keeps the objects already there, so memoized cards do not re-render.
 */
export function mergeDrops(
  current: readonly DropEvent[],
  incoming: readonly DropEvent[],
  kept = FEED_KEPT,
): readonly DropEvent[] {
  const seen = new Set(current.map(dropKey));
  const fresh: DropEvent[] = [];
  for (const drop of incoming) {
    const key = dropKey(drop);
    if (seen.has(key)) continue;
    seen.add(key);
    fresh.push(drop);
  }
  if (fresh.length === 0) return current;
  const merged = [...fresh, ...current].sort(newestFirst);
  return merged.length > kept ? merged.slice(0, kept) : merged;
}

/** Every drop kept. Mounting it (the strip does) opens the feed socket; it closes a while after the last leaves. */
const keptDropsAtom = atom<readonly DropEvent[]>([]);
/** The socket's state: connecting, live, or paused while the app is hidden. */
export const feedStatusAtom = atom<FeedStatus>('connecting');
/** The drops on screen: the 30 newest. */
export const shownDropsAtom = atom((get) => get(keptDropsAtom).slice(0, FEED_SHOWN));

let socket: FeedSocket | null = null;
let lingerTimer: ReturnType<typeof setTimeout> | undefined;

keptDropsAtom.onMount = () => {
  clearTimeout(lingerTimer);
  socket ??= openFeedSocket({
    url: feedSocketUrl(API_BASE, window.location.origin),
    after: store.get(keptDropsAtom)[0]?.id ?? null,
    onDrops: (drops) => store.set(keptDropsAtom, (current) => mergeDrops(current, drops)),
    onStatus: (status) => store.set(feedStatusAtom, status),
  });
  return () => {
    lingerTimer = setTimeout(() => {
      socket?.close();
      socket = null;
    }, LINGER_MS);
  };
};
