import { tweenAt } from './easing.ts';
import { linearEasing } from './linear-easing.ts';
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

/** Progress keyframes of an ease, by ease, length and tolerance: the same curve for every play of a scene. */
const easedCache = new Map<string, Keyframe[]>();
const EASED_CACHE_SIZE = 16;

/**
 * Keyframes of a tween from `from` to `to` over durationMs eased by `ease` (progress 0..1 → 0..1, e.g. the
 * scenes' tweenAt), within `tolerance` (in the value's unit) of the tween. The ease is sampled once per
 * ease, length and tolerance band (the tolerance over the distance, rounded down to a power of two, so a
 * play's curve is never looser than asked) and scaled to each play's distance: a reel's 300 keyframes are
 * not sampled again, point by point, as each spin starts. `span`, the longest distance the scene moves this
 * ease, makes the band the same for all its plays (one sampling, which the scene can make while it waits). The first keyframe is `from` at 0 and the last
 * `to` at durationMs exactly.
 */
function easedKeyframes(
  eased: (tMs: number) => number,
  cacheKey: string,
  durationMs: number,
  from: number,
  to: number,
  tolerance: number,
  span = 0,
): Keyframe[] {
  const distance = to - from;
  // no distance, or no time: the tween is at its end throughout
  if (distance === 0 || !(durationMs > 0)) return sampleKeyframes(() => to, durationMs, { tolerance });
  const band = 2 ** Math.floor(Math.log2(tolerance / Math.max(Math.abs(distance), span)));
  const key = `${cacheKey}|${durationMs}|${band}`;
  let progress = easedCache.get(key);
  if (!progress) {
    progress = sampleKeyframes(eased, durationMs, { tolerance: band });
    if (easedCache.size >= EASED_CACHE_SIZE) easedCache.delete(easedCache.keys().next().value!);
    easedCache.set(key, progress);
  }
  const last = progress.length - 1;
  const scaled = progress.map((k, i) => ({ t: k.t, value: i === last ? to : from + distance * k.value }));
  progressOf.set(scaled, progress);
  return scaled;
}

/** The ease's progress keyframes each tween's keyframes were scaled from (see easedKeyframes). */
const progressOf = new WeakMap<readonly Keyframe[], readonly Keyframe[]>();
/** Each progress curve's CSS easing, made once. */
const easingOfProgress = new WeakMap<readonly Keyframe[], string | null>();

/**
 * An eased tween's keyframes (easedKeyframes, scrollKeyframes, turnKeyframesOf) as a CSS linear() easing
 * (see linearEasing): made once per ease, length and tolerance band, so every play of a scene that shares
 * them has the same string, ready before the play asks. Other keyframes get theirs made now.
 */
export function tweenEasing(keyframes: readonly Keyframe[]): string | null {
  const progress = progressOf.get(keyframes);
  if (!progress) return linearEasing(keyframes, (k) => k.value);
  let easing = easingOfProgress.get(progress);
  if (easing === undefined) {
    easing = linearEasing(progress, (k) => k.value);
    easingOfProgress.set(progress, easing);
  }
  return easing;
}

/**
 * Times (ms from the start, ascending) at which a value moving along linear keyframes reaches each of the
 * marks `firstMark + n · spacing` (n ≥ 0) it passes forwards: between two keyframes the value runs straight,
 * so each mark's time is solved, not searched step by step. A mark reached again after the value went back
 * below it counts again, as a frame-by-frame reading of the crossings does.
 */
export function markTimes(keyframes: readonly Keyframe[], firstMark: number, spacing: number): number[] {
  const times: number[] = [];
  if (!(spacing > 0)) return times;
  for (let i = 1; i < keyframes.length; i++) {
    const a = keyframes[i - 1]!;
    const b = keyframes[i]!;
    if (!(b.value > a.value)) continue;
    // marks in (a.value, b.value]
    let n = Math.max(Math.floor((a.value - firstMark) / spacing) + 1, 0);
    for (let mark = firstMark + n * spacing; mark <= b.value; mark = firstMark + ++n * spacing)
      times.push(a.t + ((mark - a.value) / (b.value - a.value)) * (b.t - a.t));
  }
  return times;
}

/** A scroll from startX to finalX over durationMs eased by a named ease: what a reel's motion holds. */
export interface EasedScroll {
  durationMs: number;
  ease: string;
  startX: number;
  finalX: number;
}

/** Each motion object's keyframes (a reel's scroll, a wheel's turn), made on first use. */
const motionKeyframes = new WeakMap<object, Keyframe[]>();

/** The keyframes of a motion object's eased tween from `from` to `to` (see easedKeyframes), once per object. */
function keyframesOnce(
  motion: { durationMs: number; ease: string },
  from: number,
  to: number,
  tolerance: number,
  span?: number,
): Keyframe[] {
  let keyframes = motionKeyframes.get(motion);
  if (!keyframes) {
    const { durationMs, ease } = motion;
    keyframes = easedKeyframes(
      (t) => tweenAt(durationMs, ease, t).eased,
      ease,
      durationMs,
      from,
      to,
      tolerance,
      span,
    );
    motionKeyframes.set(motion, keyframes);
  }
  return keyframes;
}

/**
 * A reel's scroll as keyframes within `tolerance` px (see easedKeyframes, `span` likewise), computed once per
 * motion object: the strip, the tick schedule and the hand-off all read the same list.
 */
export function scrollKeyframes(scroll: EasedScroll, tolerance: number, span?: number): Keyframe[] {
  return keyframesOnce(scroll, scroll.startX, scroll.finalX, tolerance, span);
}

/** A wheel's turn from startTurns to finalTurns over durationMs eased by a named ease: what a wheel's motion holds. */
export interface EasedTurn {
  durationMs: number;
  ease: string;
  startTurns: number;
  finalTurns: number;
}

/**
 * A wheel's turn as keyframes of its cumulative turns times `scale` (degrees a turn, signed by the direction)
 * within `tolerance` of that unit (see easedKeyframes): the ease's curve is sampled once per ease, length and
 * band and scaled to each roll's turns, computed once per motion object (its scale and tolerance are its
 * wheel's, the same for every call). Sampled point by point through the wheel's motion() for every roll, a
 * 5 s roll's keyframes took ~20 ms of a slow phone's main thread as the hand-off started.
 */
export function turnKeyframesOf(
  turn: EasedTurn,
  scale: number,
  tolerance: number,
  span?: number,
): Keyframe[] {
  return keyframesOnce(turn, turn.startTurns * scale, turn.finalTurns * scale, tolerance, span);
}
