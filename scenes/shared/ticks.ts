/**
 * A play's tick schedule: the times its crossings (cards, notches, segment borders) pass the marker, read
 * from the scene's pure motion when the play starts. The runtime sends the whole schedule once, so the app
 * schedules every tick sound and haptic ahead of time instead of hearing about each crossing during the
 * spin (no message and no main-thread work per crossing).
 */

/** Resolution of a schedule, ms: well under a frame, and under the shortest gap the ear separates. */
const STEP_MS = 4;

/**
 * Times (ms after the play's start, ascending) at which `crossings(fromMs, toMs)` reports crossings, over
 * [0, durationMs]: one entry per crossing, at the end of the step it falls in.
 */
export function crossingTimes(
  durationMs: number,
  crossings: (fromMs: number, toMs: number) => readonly unknown[],
): number[] {
  const times: number[] = [];
  for (let from = 0; from < durationMs; from += STEP_MS) {
    const to = Math.min(from + STEP_MS, durationMs);
    for (let n = crossings(from, to).length; n > 0; n--) times.push(to);
  }
  return times;
}
