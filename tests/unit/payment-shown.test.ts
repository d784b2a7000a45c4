import { describe, expect, it } from 'vitest';
import { balanceLiveAtom, balanceValueAtom, queryKeys, showPaymentAtom } from '../../src/state/queries';
import { scenePlayingAtom } from '../../src/state/scenes';
import { queryClient, store } from '../../src/state/store';

// An opening's price shows paid from its tap (src/state/queries.ts showPaymentAtom): the balance the
// screens show is the known one less the price until a balance is known anew, and a failed payment takes
// it back.

/** Lets the query cache's batched notifications (a timer task) reach the balance atom. */
const notified = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a payment shown before the answer', () => {
  it('shows the known balance less the payment, exactly, until the answer brings the balance', async () => {
    queryClient.setQueryData(queryKeys.balance, '10');
    store.set(balanceLiveAtom, true);
    const shown: (string | undefined)[] = [];
    const unsubscribe = store.sub(balanceValueAtom, () => shown.push(store.get(balanceValueAtom)));
    try {
      expect(store.get(balanceValueAtom)).toBe('10');
      // 3 × 0.1 TON: nanoTON arithmetic, no float's 9.7000000001
      store.set(showPaymentAtom, 300_000_000n);
      expect(store.get(balanceValueAtom)).toBe('9.7');
      // the answer says the same: the screens hear of no change
      queryClient.setQueryData(queryKeys.balance, '9.7');
      await notified();
      expect(store.get(balanceValueAtom)).toBe('9.7');
      expect(shown).toEqual(['9.7']);
      // the payment is over: a later balance, even the one it was made over, shows as it is
      queryClient.setQueryData(queryKeys.balance, '10');
      await notified();
      expect(store.get(balanceValueAtom)).toBe('10');
      // taking back a payment already replaced changes nothing
      store.set(showPaymentAtom, null);
      expect(store.get(balanceValueAtom)).toBe('10');
    } finally {
      unsubscribe();
      store.set(balanceLiveAtom, false);
    }
  });

  it('is taken back when the payment fails, and is not shown over an unknown or too small balance', async () => {
    queryClient.setQueryData(queryKeys.balance, '2.5');
    store.set(balanceLiveAtom, true);
    const unsubscribe = store.sub(balanceValueAtom, () => {});
    try {
      await notified();
      store.set(showPaymentAtom, 1_500_000_000n);
      expect(store.get(balanceValueAtom)).toBe('1');
      store.set(showPaymentAtom, null);
      expect(store.get(balanceValueAtom)).toBe('2.5');
      store.set(showPaymentAtom, 3_000_000_000n);
      expect(store.get(balanceValueAtom)).toBe('2.5');
    } finally {
      unsubscribe();
      store.set(balanceLiveAtom, false);
    }
  });

  it('stays through the spin when the socket is down (the poll pausing rebuilds the query result)', async () => {
    queryClient.setQueryData(queryKeys.balance, '5');
    store.set(balanceLiveAtom, false);
    const unsubscribe = store.sub(balanceValueAtom, () => {});
    try {
      await notified();
      store.set(showPaymentAtom, 1_500_000_000n);
      expect(store.get(balanceValueAtom)).toBe('3.5');
      // the reels start and stop: the poll's options change, the balance does not
      store.set(scenePlayingAtom, true);
      expect(store.get(balanceValueAtom)).toBe('3.5');
      store.set(scenePlayingAtom, false);
      expect(store.get(balanceValueAtom)).toBe('3.5');
      store.set(showPaymentAtom, null);
      expect(store.get(balanceValueAtom)).toBe('5');
    } finally {
      unsubscribe();
      store.set(scenePlayingAtom, false);
    }
  });
});
