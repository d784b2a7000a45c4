import { useCallback, useSyncExternalStore } from 'react';
import { errorStatus, newIdempotencyKey, OfflineError } from '../api';

/**
 * One tap, one action (DESIGN rule 13). Every money action (open, quick open, sell, sell all, withdraw,
 * upgrade, battle create and join, deposit) goes through `useMoneyAction`:
 * - guarded synchronously at the tap: a flag set in the handler itself, shared by every screen of the same
 *   scope, so a second tap 60 ms later (before React has rendered a disabled button, or after a quick
 *   answer has enabled it again) does nothing;
 * - one Idempotency-Key per intent: the key is made at the tap and kept while the intent's outcome is
 *   unknown (the answer was lost), so tapping the same action again after such a failure is the same
 *   intent and the server answers it with the first outcome instead of paying twice;
 * - without a connection it fails at once (the API client refuses to send it: OfflineError) and is never
 *   replayed: the QueryClient runs mutations whatever the network (networkMode 'always'), never pausing one.
 */

/** Scopes whose action is under way: one action at a time per scope, across every screen. */
const busyScopes = new Set<string>();
/** Components showing whether a scope is busy (useMoneyAction): told when one starts or ends. */
const scopeListeners = new Set<() => void>();

function setScopeBusy(scope: string, busy: boolean): void {
  if (busy) busyScopes.add(scope);
  else busyScopes.delete(scope);
  for (const listener of scopeListeners) listener();
}

function subscribeScopes(listener: () => void): () => void {
  scopeListeners.add(listener);
  return () => scopeListeners.delete(listener);
}
/**
 * A tap this soon after the same intent began is that intent again (a double tap, a shaky finger), even
 * when its action has already finished, ms.
 */
const DOUBLE_TAP_MS = 600;
/** When each intent last began (performance.now()). */
const lastStart = new Map<string, number>();
/** The key of each intent whose outcome is not known yet (its answer was lost). */
const unsettledKeys = new Map<string, string>();

/** Whether the server may have applied the request although no answer came back. */
function outcomeUnknown(error: unknown): boolean {
  if (error instanceof OfflineError) return false;
  const status = errorStatus(error);
  return status === undefined || status === 502 || status === 503 || status === 504;
}

/**
 * The player has answered something between this tap and the next (closed the wallet connection, declined
 * in the wallet): the next tap on `intent` is a new decision, not the same tap again, however soon it comes.
 */
export function answeredBetweenTaps(intent: string): void {
  lastStart.delete(intent);
}

/**
 * Runs `work` once for the intent `intent` (e.g. `sell:<itemId>`) in `scope`, with the intent's
 * Idempotency-Key. Returns null, doing nothing, while another action of the scope runs. The promise
 * settles as `work` does.
 */
export function runMoneyAction<T>(
  scope: string,
  intent: string,
  work: (idempotencyKey: string) => Promise<T>,
): Promise<T> | null {
  if (busyScopes.has(scope)) return null;
  const now = performance.now();
  const previous = lastStart.get(intent);
  if (previous !== undefined && now - previous < DOUBLE_TAP_MS) return null;
  lastStart.set(intent, now);
  setScopeBusy(scope, true);
  const key = unsettledKeys.get(intent) ?? newIdempotencyKey();
  unsettledKeys.set(intent, key);
  const done = (async () => {
    try {
      const answer = await work(key);
      unsettledKeys.delete(intent);
      return answer;
    } catch (error) {
      if (!outcomeUnknown(error)) unsettledKeys.delete(intent);
      throw error;
    } finally {
      setScopeBusy(scope, false);
    }
  })();
  return done;
}

export interface MoneyAction {
  /** an action of the scope is under way (for disabling buttons; the guard itself does not wait for it) */
  busy: boolean;
  /** See runMoneyAction: null when the tap was swallowed. */
  run<T>(intent: string, work: (idempotencyKey: string) => Promise<T>): Promise<T> | null;
}

/**
 * The money actions of one scope (e.g. 'inventory', 'upgrade', 'battle'), for a component. `busy` follows
 * the scope wherever its action was started: a sale begun on the profile holds the inventory screen's
 * buttons, and its end releases them there too.
 */
export function useMoneyAction(scope: string): MoneyAction {
  const busy = useSyncExternalStore(
    subscribeScopes,
    () => busyScopes.has(scope),
    () => false,
  );
  const run = useMoneyRun(scope);
  return { busy, run };
}

/**
 * The scope's `run` alone, for a component that shows nothing of whether an action is under way: it is
 * not rendered again as each action starts and ends (the guard at the tap is the same).
 */
export function useMoneyRun(scope: string): MoneyAction['run'] {
  return useCallback(
    <T>(intent: string, work: (idempotencyKey: string) => Promise<T>): Promise<T> | null =>
      runMoneyAction(scope, intent, work),
    [scope],
  );
}
