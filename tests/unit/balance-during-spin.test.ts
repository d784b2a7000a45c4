import { describe, expect, it } from 'vitest';
import { balanceLiveAtom, balanceValueAtom, queryKeys } from '../../src/state/queries';
import { scenePlayingAtom } from '../../src/state/scenes';
import { queryClient, store } from '../../src/state/store';

// A spin's start and end flip the playing flag on the main thread (the runtime's `started` and `settled`):
// while the app socket is live, the balance query must not hear of it, or its observer is rebuilt mid-spin.

/** The balance query's observer events (added, removed, options changed) while `run` runs. */
function observerEvents(run: () => void): string[] {
  const seen: string[] = [];
  const stop = queryClient.getQueryCache().subscribe((event) => {
    if (event.query.queryKey[0] === queryKeys.balance[0] && event.type.startsWith('observer'))
      seen.push(event.type);
  });
  run();
  stop();
  return seen;
}

const refetchInterval = () =>
  queryClient.getQueryCache().find({ queryKey: queryKeys.balance })?.observers[0]?.options.refetchInterval;

describe('the balance query during a spin', () => {
  it('is left alone while the socket is live, and stops polling while it is down', () => {
    // fresh data: mounting the query fetches nothing
    queryClient.setQueryData(queryKeys.balance, '1');
    store.set(balanceLiveAtom, true);
    const unsubscribe = store.sub(balanceValueAtom, () => {});
    try {
      expect(store.get(balanceValueAtom)).toBe('1');
      const events = observerEvents(() => {
        store.set(scenePlayingAtom, true);
        store.set(scenePlayingAtom, false);
      });
      expect(events).toEqual([]);
      expect(refetchInterval()).toBe(false);

      // the socket down: the balance is polled, but not while a scene plays
      store.set(balanceLiveAtom, false);
      expect(refetchInterval()).toBeGreaterThan(0);
      store.set(scenePlayingAtom, true);
      expect(refetchInterval()).toBe(false);
      store.set(scenePlayingAtom, false);
      expect(refetchInterval()).toBeGreaterThan(0);
    } finally {
      unsubscribe();
      store.set(balanceLiveAtom, false);
    }
  });
});
