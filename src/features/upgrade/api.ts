import type { Atom } from 'jotai';
import { atomWithQuery, type AtomWithQueryResult } from 'jotai-tanstack-query';
import type {
  UpgradeConfigResponse,
  UpgradeMultiplier,
  UpgradeOptionsResponse,
  UpgradeRollRequest,
  UpgradeRollResponse,
} from '../../../contract/upgrade.ts';
import { api } from '../../api';
import { queryKeys } from '../../state/queries';
import { queryClient } from '../../state/store';

/** GET /upgrade/config → the server's odds at x1 and its multipliers; fixed while the server runs. */
export const upgradeConfigAtom = atomWithQuery(() => ({
  queryKey: queryKeys.upgradeConfig,
  queryFn: () => api.request<UpgradeConfigResponse>('/upgrade/config'),
  staleTime: Infinity,
}));

export type UpgradeOptionsAtom = Atom<AtomWithQueryResult<UpgradeOptionsResponse, Error>>;

const optionAtoms = new Map<string, UpgradeOptionsAtom>();

/** GET /upgrade/options?itemId=&coef= → the gifts a stake can aim at; one query atom per pair, reused. */
export function upgradeOptionsAtom(itemId: string, coef: UpgradeMultiplier): UpgradeOptionsAtom {
  const key = `${itemId}|${coef}`;
  let found = optionAtoms.get(key);
  if (!found) {
    found = atomWithQuery(() => ({
      queryKey: queryKeys.upgradeOptions(itemId, coef),
      queryFn: () => api.request<UpgradeOptionsResponse>('/upgrade/options', { query: { itemId, coef } }),
    }));
    optionAtoms.set(key, found);
  }
  return found;
}

/** POST /upgrade/roll: the server takes the stake and rolls; one key per roll, so a retry applies once. */
export function rollUpgrade(body: UpgradeRollRequest, idempotencyKey?: string): Promise<UpgradeRollResponse> {
  return api.money<UpgradeRollResponse>('/upgrade/roll', { body, idempotencyKey });
}

/** After a roll: the inventory changed (and what depends on it); resolves once the inventory is refetched. */
export async function refreshAfterUpgrade(): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.inventory }),
    queryClient.invalidateQueries({ queryKey: queryKeys.balance }),
    queryClient.invalidateQueries({ queryKey: queryKeys.profile }),
  ]);
}
