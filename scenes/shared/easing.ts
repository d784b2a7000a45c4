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
