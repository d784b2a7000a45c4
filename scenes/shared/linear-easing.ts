/**
 * Linear keyframes as one CSS linear() easing, with no imports: the page's compositor uses it too, and the
 * page's first screen must not pull the scenes' easing library (gsap) in with it.
 */

/** A number for an easing or an offset: enough digits for a quarter pixel over a whole reel. */
function digits(value: number): string {
  return String(Math.round(value * 1e7) / 1e7);
}

/**
 * Linear keyframes' curve as a CSS linear() easing: each keyframe's value normalized from the first's to
 * the last's, at its time as a percentage of the whole span. A two-keyframe animation from the first value
 * to the last over that span, with this easing, runs the same piecewise-linear motion: one string for the
 * browser to parse instead of hundreds of keyframes. Null for fewer than three keyframes or no distance
 * (plain linear keyframes do then).
 */
export function linearEasing<K extends { t: number }>(
  keyframes: readonly K[],
  valueOf: (keyframe: K) => number,
): string | null {
  const first = keyframes[0];
  const last = keyframes.at(-1);
  if (keyframes.length < 3 || !first || !last) return null;
  const distance = valueOf(last) - valueOf(first);
  if (distance === 0) return null;
  const duration = Math.max(last.t - first.t, 1);
  const points = keyframes.map((k) => {
    const offset = Math.min(Math.max((k.t - first.t) / duration, 0), 1);
    return `${digits((valueOf(k) - valueOf(first)) / distance)} ${digits(offset * 100)}%`;
  });
  return `linear(${points.join(', ')})`;
}
