import { atomWithMutation, atomWithQuery } from 'jotai-tanstack-query';
import type {
  Case,
  CaseResponse,
  FairnessState,
  RotateResponse,
  SetClientSeedResponse,
} from '../../../contract/cases.ts';
import type { BetHistoryResponse, BetProof } from '../../../contract/fairness.ts';
import { api } from '../../api';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';

/** How many recent openings the verifier lists (the history's default page size, spec §9). */
const HISTORY_LIMIT = 20;

/** GET /fairness → the active seed pair: server seed hash, client seed, nonce. */
export const fairnessAtom = atomWithQuery(() => ({
  queryKey: queryKeys.fairness,
  queryFn: () => api.request<FairnessState>('/fairness'),
}));

/**
 * GET /fairness/history?page=1&limit=20 → the newest bets of every kind (openings, upgrades, battles), read
 * afresh whenever the page is shown: a bet made a moment ago on another screen is listed.
 */
export const betHistoryAtom = atomWithQuery(() => ({
  queryKey: queryKeys.betHistoryPage(1, HISTORY_LIMIT),
  queryFn: () =>
    api.request<BetHistoryResponse>('/fairness/history', { query: { page: 1, limit: HISTORY_LIMIT } }),
  refetchOnMount: 'always' as const,
}));

/** GET /fairness/bets/{id}: a bet's public proof, through the one client and its cache. */
export function fetchBetProof(betId: string): Promise<BetProof> {
  return queryClient.fetchQuery({
    queryKey: queryKeys.publicBet(betId),
    queryFn: () => api.request<BetProof>(`/fairness/bets/${encodeURIComponent(betId)}`),
    staleTime: 0,
  });
}

/** PUT /fairness/client-seed: applies from the next roll (a used pair is retired: its seed is revealed). */
async function saveClientSeed(clientSeed: string): Promise<SetClientSeedResponse> {
  const state = await api.request<SetClientSeedResponse>('/fairness/client-seed', {
    method: 'PUT',
    body: { clientSeed },
  });
  const { revealed: _revealed, ...current } = state;
  queryClient.setQueryData<FairnessState>(queryKeys.fairness, current);
  await queryClient.invalidateQueries({ queryKey: queryKeys.history });
  return state;
}

/** POST /fairness/rotate: reveals the server seed used so far and commits to a new one. */
async function rotateSeed(): Promise<RotateResponse> {
  const answer = await api.request<RotateResponse>('/fairness/rotate', { method: 'POST' });
  queryClient.setQueryData(queryKeys.fairness, answer.current);
  await queryClient.invalidateQueries({ queryKey: queryKeys.history });
  return answer;
}

/** Saving the client seed (PUT /fairness/client-seed): its pending flag, answer and failure. */
export const saveClientSeedAtom = atomWithMutation<SetClientSeedResponse, string, Error>(() => ({
  mutationFn: saveClientSeed,
}));

/** Rotating the seed pair (POST /fairness/rotate): its pending flag, answer and failure. */
export const rotateSeedAtom = atomWithMutation<RotateResponse, void, Error>(() => ({
  mutationFn: rotateSeed,
}));

/** The case with its entries in roll order (GET /cases/{id}), from the cache when the case page loaded it. */
export function fetchCase(id: string): Promise<Case> {
  return queryClient.fetchQuery({
    queryKey: queryKeys.caseById(id),
    queryFn: async () => (await api.request<CaseResponse>(`/cases/${encodeURIComponent(id)}`)).case,
  });
}
