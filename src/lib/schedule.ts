/**
 * Timed feedback planned ahead (a spin's tick haptics): times are performance.now() values, ascending.
 */

/** The times kept when no two may be closer than `minGapMs` (the first of a close run wins). */
export function spacedTimes(times: readonly number[], minGapMs: number, after = -Infinity): number[] {
  const kept: number[] = [];
  let last = after;
  for (const t of times) {
    if (t - last < minGapMs) continue;
    kept.push(t);
    last = t;
  }
  return kept;
}

/**
 * Runs `run` at each of `times` (once for several that are due together), with one timer armed at a time.
 * Returns a function that cancels what has not run yet.
 */
export function atTimes(
  times: readonly number[],
  run: () => void,
  now = () => performance.now(),
): () => void {
  let next = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    const at = times[next];
    timer = at === undefined ? undefined : setTimeout(fire, Math.max(at - now(), 0));
  };
  const fire = () => {
    const current = now();
    let due = false;
    while (next < times.length && times[next]! <= current + 1) {
      next += 1;
      due = true;
    }
    if (due) run();
    arm();
  };
  arm();
  return () => {
    clearTimeout(timer);
    timer = undefined;
    next = times.length;
  };
}
