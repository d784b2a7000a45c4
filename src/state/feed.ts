import { atom } from 'jotai';
import { selectAtom } from 'jotai/utils';
import type { User } from '../../contract/auth.ts';
import type { DropEvent } from '../../contract/feed.ts';
import { compareIds } from '../api/app-socket';
import { queryKeys } from './queries';
import { scenePlayingAtom } from './scenes';
import { queryClient, store } from './store';

/** The strip shows the 30 newest drops and keeps 50 (spec §9). */
const FEED_SHOWN = 30;
export const FEED_KEPT = 50;

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

/** Every drop kept, fed by the app socket (src/state/live.ts). */
const keptDropsAtom = atom<readonly DropEvent[]>([]);
/**
 * The player's own drops kept off their strip until their reel settles (no spoiler): the opening ids the
 * server answered, and, while an opening is asked for and its ids are not known yet, every drop under the
 * player's feed name (the socket may bring the drop before the HTTP answer).
 */
interface HeldName {
  /** the player's feed name (it also covers a drop that beats its HTTP answer) */
  name: string;
  /** the drops already kept when the hold began: shown all along, whoever's they are */
  had: ReadonlySet<string>;
}
interface HeldDrops {
  ids: ReadonlySet<string>;
  /** one per hold */
  names: readonly HeldName[];
}
const heldDropsAtom = atom<HeldDrops>({ ids: new Set<string>(), names: [] });

/** Whether `drop` is the player's own drop that came after a hold began (the spin's, held back). */
function heldBack(drop: DropEvent, held: HeldDrops): boolean {
  if (held.ids.has(drop.id)) return true;
  return held.names.some((h) => h.name === drop.user.username && !h.had.has(dropKey(drop)));
}

const shownDropsListAtom = atom((get) => {
  const kept = get(keptDropsAtom);
  const held = get(heldDropsAtom);
  if (held.ids.size === 0 && held.names.length === 0) return kept.slice(0, FEED_SHOWN);
  // only what is new is held back: the strip keeps showing the drops it had (never 'no drops yet')
  return kept.filter((drop) => !heldBack(drop, held)).slice(0, FEED_SHOWN);
});

/**
 * The drops on screen: the 30 newest, without the player's own drops held back. The same array while the
 * same drops show: holding the player's drops at the tap and the answer, when none of theirs is on screen,
 * renders nothing.
 */
export const shownDropsAtom = selectAtom(
  shownDropsListAtom,
  (drops) => drops,
  (a, b) => a.length === b.length && a.every((drop, i) => drop === b[i]),
);

/** The name the feed shows for a player: '@' + username, or the first name (as the server builds it). */
function feedName(user: Pick<User, 'username' | 'firstName'>): string {
  return user.username ? `@${user.username}` : user.firstName;
}

export interface OwnDropHold {
  /** the openings the server answered: held by id too (the name may not be known) */
  answered(openingIds: readonly string[]): void;
  /** the reel settled (or the opening failed, or the page left): show them */
  release(): void;
}

/**
 * Keeps the player's own drops off their strip from the tap until `release()`: other players see them at
 * once, the player when the roulette has landed. Asked before the opening request is sent.
 */
export function holdOwnDrops(): OwnDropHold {
  const me = queryClient.getQueryData<User>(queryKeys.me);
  const name = me ? feedName(me) : null;
  const ids: string[] = [];
  let released = false;
  const own: HeldName | null =
    name === null ? null : { name, had: new Set(store.get(keptDropsAtom).map(dropKey)) };
  if (own !== null) store.set(heldDropsAtom, (held) => ({ ...held, names: [...held.names, own] }));
  return {
    answered(openingIds) {
      if (released) return;
      ids.push(...openingIds);
      store.set(heldDropsAtom, (held) => ({ ...held, ids: new Set([...held.ids, ...openingIds]) }));
    },
    release() {
      if (released) return;
      released = true;
      store.set(heldDropsAtom, (held) => {
        const rest = new Set(held.ids);
        for (const id of ids) rest.delete(id);
        return { ids: rest, names: held.names.filter((h) => h !== own) };
      });
    },
  };
}

/** Drops that came while a scene played a spin: the strip takes them when it ends (it holds still meanwhile). */
let waiting: DropEvent[] = [];

/** Drops from the app socket: kept at once, or after the spin that plays now. */
export function receiveDrops(drops: readonly DropEvent[]): void {
  if (store.get(scenePlayingAtom)) {
    waiting.push(...drops);
    if (waiting.length > FEED_KEPT) waiting = waiting.slice(-FEED_KEPT);
    return;
  }
  store.set(keptDropsAtom, (current) => mergeDrops(current, drops));
}

store.sub(scenePlayingAtom, () => {
  if (store.get(scenePlayingAtom) || waiting.length === 0) return;
  const drops = waiting;
  waiting = [];
  receiveDrops(drops);
});

/** The newest drop kept (the app socket's catch-up starts after it). */
export function lastKeptDropId(): string | null {
  return store.get(keptDropsAtom)[0]?.id ?? null;
}
