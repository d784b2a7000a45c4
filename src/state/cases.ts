import type { Atom } from 'jotai';
import { atomWithQuery, queryClientAtom, type AtomWithQueryResult } from 'jotai-tanstack-query';
import type {
  Case,
  CaseResponse,
  OpenCaseResponse,
  OpenMultipleResponse,
  OpenResult,
} from '../../contract/cases.ts';
import { tryParseTon } from '../../contract/money.ts';
import { api } from '../api';
import { queryKeys } from './queries';
import { queryClient } from './store';

/** A case query atom: the case, or an error (404 with code CASE_NOT_FOUND for an unknown id). */
export type CaseQueryAtom = Atom<AtomWithQueryResult<Case, Error>>;

const caseAtoms = new Map<string, CaseQueryAtom>();

/**
 * GET /cases/{id} → the case with its items, one query atom per id (created once, then reused). While it
 * loads, the case from the cached list (if any) stands in, so a case opened from the list shows at once.
 */
export function caseAtom(id: string): CaseQueryAtom {
  let found = caseAtoms.get(id);
  if (!found) {
    found = atomWithQuery((get) => ({
      queryKey: queryKeys.caseById(id),
      queryFn: async (): Promise<Case> =>
        (await api.request<CaseResponse>(`/cases/${encodeURIComponent(id)}`)).case,
      placeholderData: () =>
        get(queryClientAtom)
          .getQueryData<Case[]>(queryKeys.cases)
          ?.find((c) => c.id === id),
    }));
    caseAtoms.set(id, found);
  }
  return found;
}

/** What an opening answered: one result per copy, and the balance after the debit. */
export interface OpeningAnswer {
  results: OpenResult[];
  /** TON, exact decimal text */
  balance: string;
}

/**
 * POST /cases/open-multiple {caseId, amount}: `amount` copies (1 to 3) in one request and one debit. One
 * tap is one Idempotency-Key, kept across retries: a lost answer retried never pays twice.
 */
export async function openCaseCopies(
  caseId: string,
  amount: number,
  idempotencyKey?: string,
): Promise<OpeningAnswer> {
  const answer = await api.money<OpenMultipleResponse>('/cases/open-multiple', {
    body: { caseId, amount },
    idempotencyKey,
  });
  return { results: answer.results, balance: answer.balance };
}

/** POST /cases/open {caseId}: one copy (its own Idempotency-Key, kept across retries). */
export async function openCaseOnce(caseId: string, idempotencyKey?: string): Promise<OpeningAnswer> {
  const { openingId, betId, item, proof, balance } = await api.money<OpenCaseResponse>('/cases/open', {
    body: { caseId },
    idempotencyKey,
  });
  return { results: [{ openingId, betId, item, proof }], balance };
}

/**
 * After a balance change the server answered with: show the new balance at once (a poll in flight must
 * not overwrite it with an older value) and refresh what depends on it.
 */
export async function applyBalance(balance: string | undefined): Promise<void> {
  if (typeof balance === 'string' && tryParseTon(balance) !== null) {
    await queryClient.cancelQueries({ queryKey: queryKeys.balance });
    queryClient.setQueryData(queryKeys.balance, balance);
  } else {
    void queryClient.invalidateQueries({ queryKey: queryKeys.balance });
  }
  refreshAfterBalance();
}

/** What changes with a paid opening besides the balance: the profile, the inventory, the history. */
function refreshAfterBalance(): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.profile });
  void queryClient.invalidateQueries({ queryKey: queryKeys.inventory });
  void queryClient.invalidateQueries({ queryKey: queryKeys.history });
}

/**
 * applyBalance for an answer's balance applied a while after it came (once a spin has landed): the balance
 * only if none has been known since the answer (a push or a poll meanwhile is newer, and stays); what
 * depends on it is refreshed either way.
 */
export function applyBalanceLater(balance: string | undefined): () => Promise<void> {
  const knownAt = () => queryClient.getQueryState(queryKeys.balance)?.dataUpdatedAt;
  const answeredOver = knownAt();
  return async () => {
    if (knownAt() === answeredOver) await applyBalance(balance);
    else refreshAfterBalance();
  };
}
