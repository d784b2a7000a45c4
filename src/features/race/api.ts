import { atomWithQuery } from 'jotai-tanstack-query';
import type { RaceResponse } from '../../../contract/race.ts';
import { api } from '../../api';
import { queryKeys } from '../../state/queries';

/** The leaderboard is refreshed this often while the race screen is open. */
const RACE_REFRESH_MS = 15_000;

const fetchRace = (): Promise<RaceResponse> => api.request<RaceResponse>('/race');

/** Whole seconds left until `endsAt`, by the server's clock (`serverNow` when fetched at `fetchedAt`). */
export function secondsLeft(endsAt: string, serverNow: string, fetchedAt: number, now: number): number {
  const skew = Date.parse(serverNow) - fetchedAt;
  return Math.max(0, Math.floor((Date.parse(endsAt) - (now + skew)) / 1000));
}

/** 3725 → '01:02:05' (hours may exceed 24 for long races). */
export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** GET /race → the current race (with the player's own place), refreshed while the screen is open. */
export const raceAtom = atomWithQuery(() => ({
  queryKey: queryKeys.race,
  queryFn: async () => ({ race: await fetchRace(), fetchedAt: Date.now() }),
  refetchInterval: RACE_REFRESH_MS,
}));
