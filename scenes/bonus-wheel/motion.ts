import { tweenAt, tweenValue } from '../shared/easing.ts';
import {
  borderCrossings,
  borderTimes,
  mod1,
  turnKeyframes,
  wheelRotation,
  type SpinDirection,
} from '../shared/wheel.ts';
import { resolveConfig, type BonusWheelConfig } from './config.ts';
import type { BonusSpin, BonusWheelPlan } from './plan.ts';

/**
 * One spin as plain data. Segment i covers wheel fractions [i / segments, (i + 1) / segments), counted from
 * the wheel's top against the spin (shared/wheel.ts). Turns are cumulative from the rest position: at
 * `turns`, the wheel fraction turns mod 1 is under the pointer.
 */
export interface BonusWheelMotion {
  /** Number of segments. */
  segments: number;
  /** The segment the spin ends on. */
  segment: number;
  /** Wheel fraction that ends under the pointer, inside the segment and clear of its borders. */
  targetFraction: number;
  /** Cumulative turns at the start (the start fraction). */
  startTurns: number;
  /** Cumulative turns at the end: startTurns + fullTurns + the way from the start fraction to the target. */
  finalTurns: number;
  /** Full turns made before the last partial one. */
  fullTurns: number;
  /** Length of the spin, ms. */
  durationMs: number;
  /** Ease name, see config.ts. */
  ease: string;
  /** Which way the wheel turns. */
  direction: SpinDirection;
}

/** Where the wheel is at one moment. */
export interface BonusWheelPose {
  /** Cumulative turns since the rest position; never decreases during a spin. */
  turns: number;
  /** Wheel fraction under the pointer, in [0, 1); exactly targetFraction once the spin is done. */
  fraction: number;
  /** Rotation of the wheel's display object, Pixi radians. */
  rotation: number;
  /** Segment under the pointer. */
  segment: number;
  /** Elapsed fraction of the spin, 0 to 1. */
  progress: number;
  /** The spin has reached its end. */
  done: boolean;
}

/** Segment count of a config, at least 2. */
export function segmentCount(config: BonusWheelConfig): number {
  return Math.max(Math.round(config.segmentCount), 2);
}

/** The segment under the pointer when `fraction` of the wheel is. */
export function segmentAt(fraction: number, segments: number): number {
  return Math.min(Math.floor(mod1(fraction) * segments), segments - 1);
}

/** A landing position inside a segment (0 to 1 from its first border), kept edgeMargin from both borders. */
export function clampLanding(landing: number, config: BonusWheelConfig): number {
  const margin = Math.min(Math.max(config.edgeMargin, 0.001), 0.5);
  return Number.isFinite(landing) ? Math.min(Math.max(landing, margin), 1 - margin) : 0.5;
}

/** The wheel fraction at the centre of a segment: where the wheel rests before its first spin. */
export function segmentCentre(segment: number, segments: number): number {
  return (segment + 0.5) / segments;
}

/**
 * The app's random choice for one spin (the bonus wheel is a client-side demonstration): full turns from
 * minTurns to maxTurns, any segment, and a landing point inside it clear of the borders. Call it with
 * Math.random, or a seeded stream for a repeatable spin.
 */
export function pickSpin(rand: () => number, config?: Partial<BonusWheelConfig>): BonusSpin {
  const resolved = resolveConfig(config);
  const min = Math.round(Math.min(resolved.minTurns, resolved.maxTurns));
  const max = Math.round(Math.max(resolved.minTurns, resolved.maxTurns));
  const segments = segmentCount(resolved);
  const pick = (count: number) => Math.min(Math.floor(rand() * count), count - 1);
  const turns = min + pick(max - min + 1);
  const segment = pick(segments);
  const margin = Math.min(Math.max(resolved.edgeMargin, 0.001), 0.5);
  const landing = margin + rand() * (1 - 2 * margin);
  return { turns, segment, landing };
}

export function bonusMotion(plan: BonusWheelPlan): BonusWheelMotion {
  const config = resolveConfig(plan.config);
  const segments = segmentCount(config);
  if (!Number.isInteger(plan.segment) || plan.segment < 0 || plan.segment >= segments) {
    throw new RangeError(`bonusMotion: segment ${plan.segment} is not one of ${segments} segments`);
  }
  const turns = plan.reducedMotion ? config.reducedMotionTurns : plan.turns;
  if (!Number.isFinite(turns) || turns < 0) {
    throw new RangeError(`bonusMotion: turns ${turns} is not a number of full turns`);
  }
  const fullTurns = Math.round(turns);
  const targetFraction = (plan.segment + clampLanding(plan.landing ?? 0.5, config)) / segments;
  const startTurns = mod1(plan.startFraction ?? 0);
  return {
    segments,
    segment: plan.segment,
    targetFraction,
    startTurns,
    finalTurns: startTurns + fullTurns + mod1(targetFraction - startTurns),
    fullTurns,
    durationMs: Math.max(plan.reducedMotion ? config.reducedMotionDurationMs : config.durationMs, 0),
    ease: config.ease,
    direction: config.direction,
  };
}

/** The pose tMs after the start: eased from startTurns to finalTurns, held before the start and after the end. */
export function motion(wheel: BonusWheelMotion, tMs: number): BonusWheelPose {
  const tween = tweenAt(wheel.durationMs, wheel.ease, tMs);
  const { progress, done } = tween;
  const turns = tweenValue(wheel.startTurns, wheel.finalTurns, tween);
  const fraction = done ? wheel.targetFraction : mod1(turns);
  return {
    turns,
    fraction,
    rotation: wheelRotation(fraction, wheel.direction),
    segment: done ? wheel.segment : segmentAt(fraction, wheel.segments),
    progress,
    done,
  };
}

/** Segments whose first border passes the pointer after fromMs and by toMs, in order (one tick each). */
export function crossings(wheel: BonusWheelMotion, fromMs: number, toMs: number): number[] {
  if (!(toMs > fromMs)) return [];
  return borderCrossings(wheel.segments, motion(wheel, fromMs).turns, motion(wheel, toMs).turns);
}

/**
 * Times (ms after the start, ascending) at which each segment border passes the pointer, as crossings() reports
 * them: solved on the spin's keyframes (see borderTimes), so a play's tick schedule costs next to nothing as
 * it starts.
 */
export function crossingSchedule(wheel: BonusWheelMotion): number[] {
  return borderTimes(wheel, wheel.direction, wheel.segments);
}

/**
 * The spin as a composited disc's keyframes (see CompositedDisc): the face's angle in degrees from the
 * spin's start to its end, cumulative, within a quarter degree of motion() between keyframes.
 */
export function discKeyframes(wheel: BonusWheelMotion): { t: number; angle: number }[] {
  return turnKeyframes(wheel, wheel.direction);
}
