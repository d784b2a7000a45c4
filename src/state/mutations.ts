import { notifyManager, type MutationFilters, type QueryClient } from '@tanstack/react-query';
import { atom, type Atom } from 'jotai';

/**
 * Whether a mutation matching `filters` is running in `client`'s mutation cache, wherever it was started
 * (the atom form of useIsMutating). Counted afresh each time the atom is mounted, then followed while it
 * is: atomWithMutationState (jotai-tanstack-query 0.11) starts from an empty list and keeps its last
 * list while unmounted, so a mutation that started or ended with no screen watching would read wrong.
 */
export function atomWithIsMutating(client: QueryClient, filters: MutationFilters): Atom<boolean> {
  const count = atom(0);
  count.onMount = (set) => {
    const update = () => set(client.isMutating(filters));
    update();
    return client.getMutationCache().subscribe(notifyManager.batchCalls(update));
  };
  return atom((get) => get(count) > 0);
}
