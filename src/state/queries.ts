import { atom } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import type { MeResponse, PublicConfig, User } from '../../contract/auth.ts';
import type { Case, CasesResponse } from '../../contract/cases.ts';
import { formatTon, tryParseTon } from '../../contract/money.ts';
import type { BalanceResponse, ProfileResponse } from '../../contract/users.ts';
import { api } from '../api';
import { scenePlayingAtom } from './scenes';

/**
 * Every query key of the app, in this one module: the query atoms use them, and code that invalidates or
 * updates cached server state (`queryClient.setQueryData`) names them from here.
 */
export const queryKeys = {
  config: ['config'],
  me: ['auth', 'me'],
  balance: ['deposit', 'balance'],
  /** GET /deposit/info: methods and the TON comment */
  depositInfo: ['deposit', 'info'],
  profile: ['users', 'profile'],
  cases: ['cases optimized'],
  /** one case with its items: GET /cases/{id} */
  caseById: (id: string) => ['case', id] as const,
  inventory: ['inventory'],
  /** GET /inventory/withdrawals (under 'inventory': refreshing the inventory refreshes it too) */
  withdrawals: ['inventory', 'withdrawals'],
  history: ['cases', 'history'],
  /** one page of the history (under 'history': refreshing the history refreshes it too) */
  historyPage: (page: number, limit: number) => ['cases', 'history', page, limit] as const,
  /** one page of GET /fairness/history, every kind of bet (under 'history': an opening refreshes it too) */
  betHistoryPage: (page: number, limit: number) => ['cases', 'history', 'bets', page, limit] as const,
  /** GET /fairness: the player's seed pair */
  fairness: ['fairness'],
  /** GET /fairness/bets/{id}: a bet's public proof, and its recomputation in the browser */
  publicBet: (betId: string) => ['public-bet', betId] as const,
  publicBetCheck: (betId: string, serverSeed: string | null | undefined) =>
    ['public-bet-check', betId, serverSeed] as const,
  /** GET /fairness/tables/{hash}: a weight table, named by the hash of its content */
  weightTable: (hash: string) => ['weight-table', hash] as const,
  /** GET /race: the current race */
  race: ['race'],
  upgradeConfig: ['upgrade', 'config'],
  upgradeOptions: (itemId: string, coef: number) => ['upgrade', 'options', itemId, coef] as const,
  /** every battle query sits under 'battles' */
  battles: ['battles'],
  battleLobby: ['battles', 'lobby'],
  battleHistory: ['battles', 'history'],
  battle: (id: string) => ['battles', 'one', id] as const,
} as const;

/**
 * Mutation keys: a mutation other components wait on is named here, and its pending state is read from the
 * client's mutation cache by this key.
 */
export const mutationKeys = {
  /** sell one, sell all, withdraw one: while any of them runs, every inventory button waits */
  inventoryAction: ['inventory-action'],
} as const;

/** Balance on the header and case page refreshes every 5 s (spec §7, §9) while it is not pushed. */
const BALANCE_REFRESH_MS = 5_000;

/** True while the app socket is open and signed in (src/state/live.ts): the balance is pushed, not polled. */
export const balanceLiveAtom = atom(false);

/** GET /config: public facts (demo mode, TON Connect manifest URL, return URL). Never stale. */
export const configAtom = atomWithQuery(() => ({
  queryKey: queryKeys.config,
  queryFn: () => api.request<PublicConfig>('/config'),
  staleTime: Infinity,
}));

/** GET /auth/me → the signed-in user (data: User). */
export const meAtom = atomWithQuery(() => ({
  queryKey: queryKeys.me,
  queryFn: async (): Promise<User> => (await api.request<MeResponse>('/auth/me')).user,
}));

/**
 * GET /deposit/balance → TON balance (data: exact decimal text). The app socket pushes every change into
 * this query; only while that socket is down (or not signed in) is it polled, every 5 s, and not while a
 * scene plays a spin (the header holds still; the opening's answer has set the balance already).
 */
const balanceAtom = atomWithQuery((get) => ({
  ...balanceQuery,
  // the socket first: while it is live the options do not read whether a scene plays, so a spin's start and
  // end do not rebuild this query's observer (a new options object each time) on the main thread mid-spin
  refetchInterval: get(balanceLiveAtom) || get(scenePlayingAtom) ? false : BALANCE_REFRESH_MS,
  // only the balance itself is read (balanceValueAtom): a poll's fetching and done states, and a poll that
  // brings the same balance, wake no subscriber (no atom write, no notification task)
  notifyOnChangeProps: ['data'],
}));

/**
 * A payment shown before the server has told the balance: when the balance it was made over was known (the
 * query's dataUpdatedAt) and what that balance less the payment is. Any balance known later (the answer's,
 * a push, a poll) replaces it; a rebuilt query result (the poll pausing while a spin plays) does not.
 */
const paymentShownAtom = atom<{ over: number; value: string } | null>(null);

/**
 * The balance alone (undefined until known), for the screens that show it: it changes only when the
 * balance does, so a poll that brings the same balance renders nothing (the query's own result changes
 * twice a poll, fetching and done). A payment shown at its tap (showPaymentAtom) counts until the next
 * known balance.
 */
export const balanceValueAtom = atom((get) => {
  const known = get(balanceAtom);
  const payment = get(paymentShownAtom);
  return payment !== null && payment.over === known.dataUpdatedAt ? payment.value : known.data;
});

/**
 * Shows the known balance less `nano` from now (an opening's price, at its tap, so the header and the
 * controls render with the tap's own update and not again as the reels start: the answer brings the same
 * balance), until a balance is known anew; `null` takes it back (the payment failed). Nothing while the
 * balance is unknown or below the payment.
 */
export const showPaymentAtom = atom(null, (get, set, nano: bigint | null) => {
  if (nano === null) {
    set(paymentShownAtom, null);
    return;
  }
  const known = get(balanceAtom);
  const balance = known.data === undefined ? null : tryParseTon(known.data);
  if (balance === null || balance < nano) return;
  set(paymentShownAtom, { over: known.dataUpdatedAt, value: formatTon(balance - nano) });
});

/** The balance query without its polling (the start fetches it once, before the first render). */
export const balanceQuery = {
  queryKey: queryKeys.balance,
  queryFn: async (): Promise<string> => (await api.request<BalanceResponse>('/deposit/balance')).balance,
};

/** GET /users/profile → {stats: {openingsCount}}. */
export const profileAtom = atomWithQuery(() => ({
  queryKey: queryKeys.profile,
  queryFn: () => api.request<ProfileResponse>('/users/profile'),
}));

/** GET /cases → the case list (data: Case[]), cached under 'cases optimized': 5 min stale, kept 10 min. */
export const casesQuery = {
  queryKey: queryKeys.cases,
  queryFn: async (): Promise<Case[]> => (await api.request<CasesResponse>('/cases')).cases,
  staleTime: 5 * 60_000,
  gcTime: 10 * 60_000,
};
export const casesAtom = atomWithQuery(() => casesQuery);
