import { tweenAt, tweenValue } from '../shared/easing.ts';
import {
  borderCrossings,
  borderTimes,
  mod1,
  turnKeyframes,
  wheelRotation,
  type SpinDirection,
} from '../shared/wheel.ts';
import { clampChance, isInsideArc } from './chance.ts';
import { resolveConfig } from './config.ts';
import type { ChanceWheelPlan } from './plan.ts';

/**
 * One roll as plain data. Turns are cumulative from the wheel's rest position (fraction 0 under the
 * pointer): at `turns`, the wheel fraction turns mod 1 is under the pointer (shared/wheel.ts).
 */
export interface ChanceWheelMotion {
  /** Success arc, fraction of the ring in [0, 1]. */
  chance: number;
  /** The server's roll: the wheel fraction that ends under the pointer. */
  rolled: number;
  /** Whether the pointer ends inside the arc (rolled < chance). */
  success: boolean;
  /** Cumulative turns at the start (the start fraction). */
  startTurns: number;
  /** Cumulative turns at the end: startTurns + fullTurns + the way from the start fraction to rolled. */
  finalTurns: number;
  /** Full turns made before the last partial one. */
  fullTurns: number;
  /** Length of the roll, ms. */
  durationMs: number;
  /** Time from the stop to the result callback, ms. */
  resultDelayMs: number;
  /** Ease name, see config.ts. */
  ease: string;
  /** Which way the wheel turns. */
  direction: SpinDirection;
  /** Notches on the ring, for onTick. */
  tickCount: number;
}

/** rolling: the wheel turns; stopped: it stands on the roll, colours show the outcome; result: onResult fired. */
export type ChanceWheelPhase = 'rolling' | 'stopped' | 'result';

/** Where the wheel is at one moment. */
export interface ChanceWheelPose {
  /** Cumulative turns since the rest position; never decreases during a roll. */
  turns: number;
  /** Wheel fraction under the pointer, in [0, 1); exactly `rolled` once the roll is done. */
  fraction: number;
  /** Rotation of the wheel's display object, Pixi radians. */
  rotation: number;
  /** Elapsed fraction of the roll, 0 to 1. */
  progress: number;
  /** The wheel has stopped. */
  done: boolean;
  /** Phase at this moment, see phaseAt(). */
  phase: ChanceWheelPhase;
}

export function chanceMotion(plan: ChanceWheelPlan): ChanceWheelMotion {
  const config = resolveConfig(plan.config);
  const { rolled } = plan;
  if (!Number.isFinite(rolled) || rolled < 0 || rolled >= 1) {
    throw new RangeError(`chanceMotion: rolled ${rolled} is not a fraction of a turn in [0, 1)`);
  }
  const chance = clampChance(plan.chance);
  const startTurns = mod1(plan.startFraction ?? 0);
  const fullTurns = Math.max(Math.round(plan.reducedMotion ? config.reducedMotionTurns : config.turns), 0);
  return {
    chance,
    rolled,
    success: isInsideArc(rolled, chance),
    startTurns,
    finalTurns: startTurns + fullTurns + mod1(rolled - startTurns),
    fullTurns,
    durationMs: Math.max(plan.reducedMotion ? config.reducedMotionDurationMs : config.durationMs, 0),
    resultDelayMs: Math.max(config.resultDelayMs, 0),
    ease: config.ease,
    direction: config.direction,
    tickCount: Math.max(Math.round(config.tickCount), 0),
  };
}

/** The phase tMs after the start: rolling until durationMs, stopped for resultDelayMs, then result. */
export function phaseAt(wheel: ChanceWheelMotion, tMs: number): ChanceWheelPhase {
  if (tMs < wheel.durationMs) return 'rolling';
  return tMs < wheel.durationMs + wheel.resultDelayMs ? 'stopped' : 'result';
}

/** The pose tMs after the start: eased from startTurns to finalTurns, held before the start and after the end. */
export function motion(wheel: ChanceWheelMotion, tMs: number): ChanceWheelPose {
  const tween = tweenAt(wheel.durationMs, wheel.ease, tMs);
  const { progress, done } = tween;
  const turns = tweenValue(wheel.startTurns, wheel.finalTurns, tween);
  // at the end the fraction is the server's number itself, not finalTurns mod 1 (which can be off by an ulp)
  const fraction = done ? wheel.rolled : mod1(turns);
  return {
    turns,
    fraction,
    rotation: wheelRotation(fraction, wheel.direction),
    progress,
    done,
    phase: phaseAt(wheel, tMs),
  };
}

/** The wheel fraction under the pointer tMs after the start; `rolled` exactly once the wheel stopped. */
export function landingFraction(wheel: ChanceWheelMotion, tMs: number): number {
  return motion(wheel, tMs).fraction;
}

/** Notches (0 to tickCount - 1) that pass the pointer after fromMs and by toMs, in order. */
export function crossings(wheel: ChanceWheelMotion, fromMs: number, toMs: number): number[] {
  if (!(toMs > fromMs)) return [];
  return borderCrossings(wheel.tickCount, motion(wheel, fromMs).turns, motion(wheel, toMs).turns);
}

/**
 * Times (ms after the start, ascending) at which each notch passes the pointer, as crossings() reports
 * them: solved on the spin's keyframes (see borderTimes), so a play's tick schedule costs next to nothing as
 * it starts.
 */
export function crossingSchedule(wheel: ChanceWheelMotion): number[] {
  return borderTimes(wheel, wheel.direction, wheel.tickCount);
}

/**
 * The roll as a composited disc's keyframes (see CompositedDisc): the ring's angle in degrees from the
 * roll's start to its stop, cumulative, within a quarter degree of motion() between keyframes.
 */
export function discKeyframes(wheel: ChanceWheelMotion): { t: number; angle: number }[] {
  return turnKeyframes(wheel, wheel.direction);
}
