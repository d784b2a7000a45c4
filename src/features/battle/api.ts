import { atom, type Atom } from 'jotai';
import { atomWithQuery, type AtomWithQueryResult } from 'jotai-tanstack-query';
import type {
  Battle,
  BattleEventMessage,
  BattleResponse,
  BattleSeatResponse,
  BattlesResponse,
  CancelBattleResponse,
  CreateBattleRequest,
  JoinBattleRequest,
} from '../../../contract/battles.ts';
import { api } from '../../api';
import { liveStatusAtom, watchBattles } from '../../state/live';
import { applyBalance } from '../../state/cases';
import { queryKeys } from '../../state/queries';
import { scenePlayingAtom } from '../../state/scenes';
import { queryClient, store } from '../../state/store';
import { keepUnseenBattle, markBattleSeen } from '../../state/unseen';

/** Query keys of battles, from the one query-key module (all under 'battles': a reconnect refreshes them). */
const battleKeys = {
  all: queryKeys.battles,
  lobby: queryKeys.battleLobby,
  history: queryKeys.battleHistory,
  one: queryKeys.battle,
} as const;

const fetchLobby = async (): Promise<Battle[]> => (await api.request<BattlesResponse>('/battles')).battles;
const fetchHistory = async (): Promise<Battle[]> =>
  (await api.request<BattlesResponse>('/battles/history')).battles;
const fetchBattle = async (id: string, signal?: AbortSignal): Promise<Battle> =>
  (await api.request<BattleResponse>(`/battles/${encodeURIComponent(id)}`, { signal })).battle;

/** GET /battles → the lobby: open and running battles, kept fresh by the battles socket. */
export const battleLobbyAtom = atomWithQuery(() => ({ queryKey: battleKeys.lobby, queryFn: fetchLobby }));

/** GET /battles/history → the signed-in player's battles, newest first (the profile lists them). */
export const battleHistoryAtom = atomWithQuery(() => ({
  queryKey: battleKeys.history,
  queryFn: fetchHistory,
}));

export type BattleQueryAtom = Atom<AtomWithQueryResult<Battle, Error>>;
const battleAtoms = new Map<string, BattleQueryAtom>();

/**
 * GET /battles/:id → one battle (public: spectators need no sign-in), one query atom per id. The socket's
 * events refetch it; a running battle reveals a round every few seconds, so it is also polled while it
 * runs (and, slowly, while it waits for players), in case the socket is down.
 */
export function battleAtom(id: string): BattleQueryAtom {
  let found = battleAtoms.get(id);
  if (!found) {
    found = atomWithQuery(() => ({
      queryKey: battleKeys.one(id),
      // a read dropped for a newer answer (showBattle) is aborted, not read and parsed for nothing
      queryFn: ({ signal }) => fetchBattle(id, signal),
      refetchInterval: (query: { state: { data?: Battle } }) => {
        const status = query.state.data?.status;
        // with the socket up its events bring each round: the poll is only a slow safety net then (a
        // refetch every 2 s re-rendered the room in the middle of its reels' spin)
        const live = store.get(liveStatusAtom) === 'live';
        return status === 'running' ? (live ? 10_000 : 2000) : status === 'open' ? 10_000 : false;
      },
    }));
    battleAtoms.set(id, found);
  }
  return found;
}

/**
 * A battle the server answered with goes into the cache. A read of it still in flight (the room's poll, a
 * refetch for an event) is dropped first: it was asked for before this answer and would overwrite it with
 * the battle as it was (still open, its seats empty), and its answer would render the room again for
 * nothing as the reels start.
 */
async function showBattle(battle: Battle): Promise<void> {
  await queryClient.cancelQueries({ queryKey: battleKeys.one(battle.id), exact: true });
  queryClient.setQueryData(battleKeys.one(battle.id), battle);
}

/** After a seat was bought (create, join) or refunded (cancel): the battle and balance the server answered. */
async function applySeatAnswer(answer: { battle: Battle; balance: string }): Promise<void> {
  await showBattle(answer.battle);
  void queryClient.invalidateQueries({ queryKey: battleKeys.lobby });
  void queryClient.invalidateQueries({ queryKey: battleKeys.history });
  await applyBalance(answer.balance);
}

/** POST /battles: the creator's seat, debited once even if retried (one Idempotency-Key per tap). */
export async function createBattle(body: CreateBattleRequest, idempotencyKey?: string): Promise<Battle> {
  const answer = await api.money<BattleSeatResponse>('/battles', { body, idempotencyKey });
  await applySeatAnswer(answer);
  // paid for: the player sees how it ends, also after leaving the room or reloading
  keepUnseenBattle(answer.battle.id);
  return answer.battle;
}

/** POST /battles/:id/join: a seat (the given one or the first free), debited once (Idempotency-Key). */
export async function joinBattle(
  id: string,
  body: JoinBattleRequest = {},
  idempotencyKey?: string,
): Promise<Battle> {
  const answer = await awaitingAnswer(id, async () => {
    const seated = await api.money<BattleSeatResponse>(`/battles/${encodeURIComponent(id)}/join`, {
      body,
      idempotencyKey,
    });
    await applySeatAnswer(seated);
    return seated;
  });
  // paid for: the player sees how it ends, also after leaving the room or reloading
  keepUnseenBattle(answer.battle.id);
  return answer.battle;
}

/** POST /battles/:id/bots: the creator fills the empty seats with house bots. */
export async function fillWithBots(id: string): Promise<Battle> {
  const answer = await awaitingAnswer(id, async () => {
    const filled = await api.request<BattleResponse>(`/battles/${encodeURIComponent(id)}/bots`, {
      method: 'POST',
    });
    await showBattle(filled.battle);
    return filled;
  });
  void queryClient.invalidateQueries({ queryKey: battleKeys.lobby });
  return answer.battle;
}

/** POST /battles/:id/cancel: the creator cancels an open battle; every seat is refunded. */
export async function cancelBattle(id: string): Promise<Battle> {
  const answer = await api.request<CancelBattleResponse>(`/battles/${encodeURIComponent(id)}/cancel`, {
    method: 'POST',
  });
  await applySeatAnswer(answer);
  // cancelled and refunded: nothing left to see
  markBattleSeen(answer.battle.id);
  return answer.battle;
}

/** A battle's statuses in the order they come; finished and cancelled both end it. */
const STATUS_ORDER: Record<Battle['status'], number> = { open: 0, running: 1, finished: 2, cancelled: 2 };

/**
 * Whether the battle this app holds already shows what an event tells: a later status, or the same one
 * with the round revealed (a running battle has every seat taken, so a seat event tells nothing new).
 * The seat's answer (bots, join) holds the started battle with its first round, and the events of that
 * change often arrive before it: refetching for them read the same battle again as the reels began.
 */
function cacheShows(event: BattleEventMessage): boolean {
  const held = queryClient.getQueryData<Battle>(battleKeys.one(event.id));
  if (!held) return false;
  const order = STATUS_ORDER[held.status] - STATUS_ORDER[event.status];
  if (order !== 0) return order > 0;
  if (held.status !== event.status) return false;
  switch (event.event) {
    case 'round':
      return event.round !== undefined && held.revealedRounds >= event.round;
    case 'seat':
      return held.status !== 'open';
    default:
      return true;
  }
}

/** Battles with a request of this app's in flight that answers with the battle, and the events held meanwhile. */
const answering = new Map<string, { requests: number; events: BattleEventMessage[] }>();

/**
 * Runs a request that answers with battle `id` and puts that answer in the cache before it resolves: the
 * events of that battle arriving meanwhile wait for it, then refetch only what the answer does not show.
 */
async function awaitingAnswer<T>(id: string, request: () => Promise<T>): Promise<T> {
  const entry = answering.get(id) ?? { requests: 0, events: [] };
  entry.requests += 1;
  answering.set(id, entry);
  try {
    return await request();
  } finally {
    entry.requests -= 1;
    if (entry.requests === 0) {
      answering.delete(id);
      for (const event of entry.events) invalidateUnlessPlaying(event);
    }
  }
}

/** What a battle event makes stale: the lobby always, the battle it names, the history when one ended. */
function invalidateForEvent(event: BattleEventMessage): void {
  void queryClient.invalidateQueries({ queryKey: battleKeys.lobby });
  if (!cacheShows(event)) void queryClient.invalidateQueries({ queryKey: battleKeys.one(event.id) });
  if (event.event === 'finished' || event.event === 'cancelled') {
    void queryClient.invalidateQueries({ queryKey: battleKeys.history });
    // a finished battle handed its items out; a cancelled one refunded its seats
    void queryClient.invalidateQueries({ queryKey: queryKeys.inventory });
    void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
  }
}

/** Battle events that came while a scene played a spin: read when it ends (the room holds still meanwhile). */
let heldEvents: BattleEventMessage[] = [];

/**
 * A battle event's refetches, held while a scene spins: a battle finishing as its last round's reels turn
 * would otherwise refetch the lobby, the battle, the history, the inventory and the balance and re-render
 * the room mid-spin, for nothing it may show before the reels land.
 */
function invalidateUnlessPlaying(event: BattleEventMessage): void {
  const waiting = answering.get(event.id);
  if (waiting) waiting.events.push(event);
  else if (store.get(scenePlayingAtom)) heldEvents.push(event);
  else invalidateForEvent(event);
}

store.sub(scenePlayingAtom, () => {
  if (store.get(scenePlayingAtom) || heldEvents.length === 0) return;
  const events = heldEvents;
  heldEvents = [];
  for (const event of events) invalidateForEvent(event);
});

/**
 * Battle events on the app's one socket as an atom: while a battle screen reads it, the socket carries the
 * events of every battle, and each refetches the battle queries it names. It holds no data of its own: the
 * screens read the server's state from the query atoms above.
 */
export const battleEventsAtom = atom(0);
battleEventsAtom.onMount = () =>
  watchBattles(invalidateUnlessPlaying, () => {
    // whatever happened while disconnected: read it all again
    void queryClient.invalidateQueries({ queryKey: battleKeys.all });
  });
