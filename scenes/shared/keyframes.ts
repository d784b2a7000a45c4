/**
 * Keyframes for a motion handed to the page's compositor: a pure value over time (a reel's scroll, a
 * wheel's angle) sampled for a linear-keyframed Web Animation. Each step is as long as the curve allows:
 * halved until the straight piece between two samples stays within `tolerance` of the curve at its quarter
 * points, never longer than maxStepMs and never below minStepMs, so a fast start gets many keyframes and a
 * slow end few.
 */

/** The longest and shortest step between two keyframes, ms (the shortest is one 240 Hz frame). */
export const KEYFRAME_MAX_MS = 250;
export const KEYFRAME_MIN_MS = 1000 / 240;

export interface Keyframe {
  /** Time from the motion's start, ms. */
  t: number;
  /** The value at that time. */
  value: number;
}

export interface KeyframeOptions {
  /** How far a straight piece may stray from the curve, in the value's unit. */
  tolerance: number;
  maxStepMs?: number;
  minStepMs?: number;
}

/** Samples valueAt over [0, durationMs]: the first keyframe at 0, the last at durationMs exactly. */
export function sampleKeyframes(
  valueAt: (tMs: number) => number,
  durationMs: number,
  { tolerance, maxStepMs = KEYFRAME_MAX_MS, minStepMs = KEYFRAME_MIN_MS }: KeyframeOptions,
): Keyframe[] {
  const end = Math.max(durationMs, 0);
  const straightEnough = (t0: number, v0: number, t1: number, v1: number) =>
    [0.25, 0.5, 0.75].every((f) => Math.abs(v0 + (v1 - v0) * f - valueAt(t0 + (t1 - t0) * f)) <= tolerance);
  const keyframes: Keyframe[] = [{ t: 0, value: valueAt(0) }];
  for (let t = 0; t < end;) {
    const v0 = keyframes.at(-1)!.value;
    let step = Math.min(maxStepMs, end - t);
    while (step > minStepMs && !straightEnough(t, v0, t + step, valueAt(t + step))) step /= 2;
    t = end - (t + step) < 1e-6 ? end : t + step;
    keyframes.push({ t, value: valueAt(t) });
  }
  return keyframes;
}
