import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/**
 * Longest a spin may wait for its scene to start moving (the runtime may still be loading Pixi or baking
 * the first cards: tens of seconds on a slow phone) before the screen gives up on it, ms.
 */
const START_FALLBACK_MS = 120_000;
/** Slack after a started spin's own duration (frame jitter, a throttled tab, the result delay), ms. */
const SPIN_MARGIN_MS = 5_000;

/**
 * A safety timer for a spin, so that a stalled scene never holds a prize or locks a screen. While `active`,
 * it first waits a generous START_FALLBACK_MS for the spin to begin (preparation time is not the spin's);
 * call the returned `started()` on the runtime's `started` event and it re-arms to `spinMs` plus a margin,
 * counted from when the reel really starts moving. `onExpire` runs once when the timer ends.
 */
export function useSpinWatchdog(active: boolean, spinMs: number, onExpire: () => void): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const expire = useRef(onExpire);
  useLayoutEffect(() => {
    expire.current = onExpire;
  });

  const arm = useCallback((ms: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      expire.current();
    }, ms);
  }, []);

  useEffect(() => {
    if (!active) return;
    arm(Math.max(START_FALLBACK_MS, spinMs + SPIN_MARGIN_MS));
    return () => {
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [active, spinMs, arm]);

  // a `started` outside a spin (a rest pose, a spin already given up on) arms nothing
  return useCallback(() => {
    if (timer.current !== undefined) arm(spinMs + SPIN_MARGIN_MS);
  }, [spinMs, arm]);
}
