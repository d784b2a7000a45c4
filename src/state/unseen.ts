import type { User } from '../../contract/auth.ts';
import { browserStorage } from '../lib/storage';
import { queryKeys } from './queries';
import { queryClient } from './store';

/**
 * Results the player has not seen yet (DESIGN rule 13): an opening whose roulette was still spinning, an
 * upgrade whose wheel was still turning, a battle still rolling, when they left the screen or reloaded. The
 * server's answer is kept here, per player, from the moment it arrives until the screen has shown it; the
 * screen shows it when the player comes back. Kept in localStorage, so a reload does not lose it.
 */
export type UnseenKind = 'case' | 'upgrade' | 'battle';

const storage = browserStorage();

function storageKey(playerId: string, kind: UnseenKind, id: string): string {
  return `unseen:${playerId}:${kind}:${id}`;
}

/** The signed-in player's id, once known. */
function currentPlayerId(): string | undefined {
  return queryClient.getQueryData<User>(queryKeys.me)?.id;
}

/** Keeps `value` as unseen for the signed-in player (nothing is kept before the player is known). */
export function keepUnseen(kind: UnseenKind, id: string, value: unknown): void {
  const player = currentPlayerId();
  if (player === undefined) return;
  try {
    storage.setItem(storageKey(player, kind, id), JSON.stringify(value));
  } catch {
    // storage full or refused: the result shows on this screen all the same
  }
}

/** What `playerId` has not seen yet of `kind` `id`, or null. */
export function readUnseen<T>(playerId: string, kind: UnseenKind, id: string): T | null {
  const text = storage.getItem(storageKey(playerId, kind, id));
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    storage.removeItem(storageKey(playerId, kind, id));
    return null;
  }
}

/** The result is on screen now: nothing to show again. */
export function markSeen(kind: UnseenKind, id: string): void {
  const player = currentPlayerId();
  if (player !== undefined) storage.removeItem(storageKey(player, kind, id));
}

/** The player's battles whose end they have not seen (one list: several battles may run at once). */
const BATTLES = 'battles';

/** A seat was bought in `battleId`: its end is to be seen. */
export function keepUnseenBattle(battleId: string): void {
  const player = currentPlayerId();
  if (player === undefined) return;
  const ids = readUnseen<string[]>(player, 'battle', BATTLES) ?? [];
  if (!ids.includes(battleId)) keepUnseen('battle', BATTLES, [...ids, battleId]);
}

/** The battles `playerId` has a seat in and has not seen the end of. */
export function unseenBattles(playerId: string): string[] {
  const ids = readUnseen<unknown>(playerId, 'battle', BATTLES);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** The end of `battleId` is on screen. */
export function markBattleSeen(battleId: string): void {
  const player = currentPlayerId();
  if (player === undefined) return;
  const rest = unseenBattles(player).filter((id) => id !== battleId);
  if (rest.length > 0) keepUnseen('battle', BATTLES, rest);
  else markSeen('battle', BATTLES);
}
