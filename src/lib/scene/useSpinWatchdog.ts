import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';

/**
 * Longest a spin may wait for its scene to start moving (the runtime may still be loading Pixi or baking
 * the first cards: tens of seconds on a slow phone) before the screen gives up on it, ms.
 */
const START_FALLBACK_MS = 120_000;
/** Slack after a started spin's own duration (frame jitter, a throttled tab, the result delay), ms. */
const SPIN_MARGIN_MS = 5_000;

/** A spin's safety timer, driven from outside React (see useSpinWatchdogControl). */
export interface SpinWatchdog {
  /**
   * A spin is under way (true) or not (false). Arming waits a generous START_FALLBACK_MS for the spin to
   * begin (preparation time is not the spin's); arming an armed watchdog again changes nothing.
   */
  setActive(active: boolean): void;
  /** The runtime's `started` event: an armed watchdog re-arms to the spin's length plus a margin. */
  started(): void;
}

/**
 * A safety timer for a spin, so that a stalled scene never holds a prize or locks a screen, for a screen
 * that learns of its spins outside React (an atom's subscription): nothing renders to arm or disarm it.
 * `onExpire` runs once when the timer ends. The timer goes with the screen.
 */
export function useSpinWatchdogControl(spinMs: number, onExpire: () => void): SpinWatchdog {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const expire = useRef(onExpire);
  useLayoutEffect(() => {
    expire.current = onExpire;
  });
  const control = useMemo<SpinWatchdog>(() => {
    const arm = (ms: number) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        expire.current();
      }, ms);
    };
    return {
      setActive(active) {
        if (!active) {
          clearTimeout(timer.current);
          timer.current = undefined;
        } else if (timer.current === undefined) {
          arm(Math.max(START_FALLBACK_MS, spinMs + SPIN_MARGIN_MS));
        }
      },
      // a `started` outside a spin (a rest pose, a spin already given up on) arms nothing
      started() {
        if (timer.current !== undefined) arm(spinMs + SPIN_MARGIN_MS);
      },
    };
  }, [spinMs]);
  useEffect(() => () => control.setActive(false), [control]);
  return control;
}

/**
 * The same safety timer for a screen whose spins are React state: armed while `active`. Call the returned
 * `started()` on the runtime's `started` event.
 */
export function useSpinWatchdog(active: boolean, spinMs: number, onExpire: () => void): () => void {
  const control = useSpinWatchdogControl(spinMs, onExpire);
  useEffect(() => {
    control.setActive(active);
    return () => control.setActive(false);
  }, [active, control]);
  return useCallback(() => control.started(), [control]);
}
