/**
 * Geometry shared by the wheels (chance wheel, bonus wheel), as plain functions.
 *
 * A wheel point is named by its wheel fraction f in [0, 1): how far it sits from the wheel's top, measured
 * AGAINST the spin direction. The pointer is fixed at the top of the screen. Spinning the wheel by T turns
 * moves the pointer, relative to the wheel, forwards by T: after T turns from rest, the point at fraction
 * T mod 1 is under the pointer. So a spin of n full turns plus f ends with the point f under the pointer,
 * and while the wheel slows down the pointer reads the fractions in increasing order.
 *
 * Screen angles are Pixi's: radians, 0 along +x, growing clockwise (y points down); the top is -PI/2.
 */

import { markTimes, turnKeyframesOf, tweenEasing, type EasedTurn, type Keyframe } from './keyframes.ts';

/** Which way the wheel turns on screen. */
export type SpinDirection = 'clockwise' | 'counterclockwise';

const TAU = Math.PI * 2;
const TOP = -Math.PI / 2;

/** +1 for a clockwise spin, -1 for a counter-clockwise one (Pixi's rotation grows clockwise). */
function directionSign(direction: SpinDirection): 1 | -1 {
  return direction === 'counterclockwise' ? -1 : 1;
}

/** x mod 1, in [0, 1), also for negative x. */
export function mod1(x: number): number {
  const r = x - Math.floor(x);
  return r >= 1 ? 0 : r;
}

/** Rotation (Pixi radians) of the wheel's display object when `pointerFraction` is under the pointer. */
export function wheelRotation(pointerFraction: number, direction: SpinDirection): number {
  return directionSign(direction) * TAU * mod1(pointerFraction);
}

/** Angle, in the wheel's own (unrotated) frame, of the point at wheel fraction f. */
export function localAngle(fraction: number, direction: SpinDirection): number {
  return TOP - directionSign(direction) * TAU * fraction;
}

/**
 * The wheel fraction shown at screen angle `angle` when the wheel is rotated by `rotation` (both Pixi
 * radians): the inverse of placing the point f at localAngle(f) + rotation.
 */
function fractionAtAngle(angle: number, rotation: number, direction: SpinDirection): number {
  return mod1(-(angle - rotation - TOP) / (directionSign(direction) * TAU));
}

/** The wheel fraction under the pointer at the top when the wheel is rotated by `rotation`. */
export function fractionAtPointer(rotation: number, direction: SpinDirection): number {
  return fractionAtAngle(TOP, rotation, direction);
}

/**
 * Borders between `count` equal parts (border k at fraction k / count) that the pointer reaches after
 * fromTurns and by toTurns, in order, named by the part they open (k mod count). Turns are cumulative.
 */
export function borderCrossings(count: number, fromTurns: number, toTurns: number): number[] {
  if (!(toTurns > fromTurns) || !(count > 0)) return [];
  const first = Math.floor(fromTurns * count) + 1;
  const last = Math.floor(toTurns * count);
  const passed: number[] = [];
  for (let k = first; k <= last; k++) passed.push(((k % count) + count) % count);
  return passed;
}

/**
 * How far a composited turn's straight keyframe piece may stray from the wheel's motion at the points the
 * sampler checks, degrees: under a quarter degree, as the sampler looks only at a piece's quarter points
 * and the curve may stray a little further between them.
 */
const TURN_KEYFRAME_TOLERANCE_DEG = 0.2;

/** A turn's keyframes in degrees (see turnKeyframes), made once per motion object. */
function degreeKeyframes(turn: EasedTurn, direction: SpinDirection): Keyframe[] {
  // sampled as for a turn of the next power of two of full turns (its tolerance band: see easedKeyframes), so
  // the spins of a wheel's settings share one curve and one CSS easing (see turnEasing), whatever their
  // last partial turn or their number of full turns (5 to 7 of them all turn as 8)
  const turns = Math.floor(Math.abs(turn.finalTurns - turn.startTurns)) + 1;
  const span = 2 ** Math.ceil(Math.log2(turns)) * 360;
  return turnKeyframesOf(turn, directionSign(direction) * 360, TURN_KEYFRAME_TOLERANCE_DEG, span);
}

/**
 * A wheel's spin as keyframes for the page's compositor (a composited disc): its cumulative turns over
 * [0, durationMs] as degrees, clockwise positive (CSS rotate(), like Pixi's rotation), not wrapped, sampled
 * so the straight pieces stay within a quarter degree of the motion. At each keyframe the angle mod 360 is
 * the rotation wheelRotation() gives for the fraction under the pointer then.
 */
export function turnKeyframes(turn: EasedTurn, direction: SpinDirection): { t: number; angle: number }[] {
  return degreeKeyframes(turn, direction).map(({ t, value }) => ({ t, angle: value }));
}

/**
 * The curve of turnKeyframes() as a CSS linear() easing (see CompositedDisc.easing): the same string for
 * every spin of a wheel with the same settings, made once.
 */
export function turnEasing(turn: EasedTurn, direction: SpinDirection): string | null {
  return tweenEasing(degreeKeyframes(turn, direction));
}

/**
 * Times (ms from the turn's start, ascending) at which the pointer reaches the borders between `count` equal
 * parts, one per border borderCrossings() reports frame by frame: solved on the turn's compositor keyframes
 * (within a quarter degree of its motion, the pose the page's compositor shows), not stepped through the
 * whole spin. Stepped every 4 ms, a 5 s roll's schedule called the motion twice a step, 1250 steps, between
 * the server's answer and the wheel's first frame: 10-13 ms unthrottled the first time in a page, half the
 * main thread's work in that gap in a profiled roll at 6x.
 */
export function borderTimes(turn: EasedTurn, direction: SpinDirection, count: number): number[] {
  if (!(count > 0)) return [];
  const sign = directionSign(direction);
  // cumulative degrees in the way the wheel turns (they only grow): border k sits at k / count turns
  const forwards = degreeKeyframes(turn, direction).map(({ t, value }) => ({ t, value: value * sign }));
  const spacing = 360 / count;
  const firstMark = Math.floor((forwards[0]?.value ?? 0) / spacing) * spacing;
  return markTimes(forwards, firstMark, spacing);
}
