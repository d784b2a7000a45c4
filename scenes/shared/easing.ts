import { gsap } from 'gsap';

export type Ease = (progress: number) => number;

const cubicBezierPattern = /^cubic-bezier\(\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*([^)]+)\)$/;
const cache = new Map<string, Ease>();

/**
 * CSS-style cubic-bezier(x1, y1, x2, y2) timing function. x(t) is solved by bisection, which keeps the
 * result monotonic in the input (Newton steps are faster but can wobble in the last bits).
 */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number): Ease {
  const ax1 = Math.min(Math.max(x1, 0), 1);
  const ax2 = Math.min(Math.max(x2, 0), 1);
  const curve = (t: number, p1: number, p2: number) => {
    const u = 1 - t;
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t;
  };
  return (p) => {
    if (p <= 0) return 0;
    if (p >= 1) return 1;
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (curve(mid, ax1, ax2) < p) lo = mid;
      else hi = mid;
    }
    return curve((lo + hi) / 2, y1, y2);
  };
}

/**
 * An ease from its name: 'cubic-bezier(x1, y1, x2, y2)' or any gsap ease name ('power4.out', 'expo.out',
 * 'none', ...). gsap's parser needs no DOM. An unknown name falls back to linear, so a typo in a live-edited
 * config slows the show down instead of breaking it.
 */
export function parseEase(spec: string): Ease {
  const known = cache.get(spec);
  if (known) return known;
  const bezier = cubicBezierPattern.exec(spec.trim());
  let ease: Ease | undefined;
  if (bezier) {
    const [x1, y1, x2, y2] = bezier.slice(1).map(Number) as [number, number, number, number];
    if ([x1, y1, x2, y2].every(Number.isFinite)) ease = cubicBezier(x1, y1, x2, y2);
  } else {
    ease = gsap.parseEase(spec) as Ease | undefined;
  }
  const result = ease ?? ((p: number) => p);
  cache.set(spec, result);
  return result;
}

/** Where a tween stands at some time: its linear progress and eased value, both in 0..1. */
export interface TweenProgress {
  /** Linear progress, clamped to 0..1. */
  progress: number;
  /** The tween has reached its end (always, for a zero or negative duration). */
  done: boolean;
  /** The eased progress, clamped to 0..1; exactly 1 once done. */
  eased: number;
}

/** Progress of a tween of durationMs eased by the `ease` spec (see parseEase), tMs after its start. */
export function tweenAt(durationMs: number, ease: string, tMs: number): TweenProgress {
  const progress = durationMs > 0 ? Math.min(Math.max(tMs / durationMs, 0), 1) : 1;
  const done = progress >= 1;
  const eased = done ? 1 : Math.min(Math.max(parseEase(ease)(progress), 0), 1);
  return { progress, done, eased };
}

/**
 * The value between start and final (final >= start) for a tween's progress: exactly final once done, and
 * never past it before (start + (final - start) * eased can round an ulp past the end, which would step
 * backwards at the end).
 */
export function tweenValue(start: number, final: number, { done, eased }: TweenProgress): number {
  return done ? final : Math.min(start + (final - start) * eased, final);
}
