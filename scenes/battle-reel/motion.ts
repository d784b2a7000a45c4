import { tweenAt, tweenValue } from '../shared/easing.ts';
import { markTimes, scrollKeyframes as easedScrollKeyframes, tweenEasing } from '../shared/keyframes.ts';
import { resolveConfig } from './config.ts';
import type { BattleReelPlan } from './plan.ts';

/**
 * A spin as plain data. Strip coordinates: slot k (any integer) spans [k * pitch, (k + 1) * pitch) and
 * shows images[k mod count]. At scroll x, the strip point x sits at the reel's left edge and x + markerX
 * under the marker; a slot is centred under the marker at x = k * pitch + centring.
 */
export interface BattleReelMotion {
  /** Number of cases on the strip. */
  count: number;
  /** Distance between the left edges of neighbouring slots, px. */
  pitch: number;
  /** Marker position from the reel's left edge, px. */
  markerX: number;
  /** Scroll that centres slot 0 under the marker: pitch / 2 - markerX, px. */
  centring: number;
  /** Index into images of the winner. */
  winnerIndex: number;
  /** Slot that ends under the marker: startIndex + loops × count + the way on to the winner. */
  stopSlot: number;
  /** Scroll at the start (startIndex centred), px. */
  startX: number;
  /** Scroll at the end: stopSlot × pitch + centring, px. */
  finalX: number;
  /** Length of the spin, ms. */
  durationMs: number;
  /** Ease name, see config.ts. */
  ease: string;
}

/** Where the reel is at one moment. */
export interface BattleReelPose {
  /** Strip scroll offset, px; never decreases during a spin. */
  x: number;
  /** Elapsed fraction of the spin, 0 to 1. */
  progress: number;
  /** The spin has reached its end. */
  done: boolean;
  /** Slot under the marker. */
  slot: number;
  /** Index into images of the case under the marker. */
  caseIndex: number;
}

/** n mod count, in [0, count). */
export function wrapIndex(n: number, count: number): number {
  return ((n % count) + count) % count;
}

/** The app's random winner for the demonstration battle (it is only logged): an index into `count` cases. */
export function pickWinner(rand: () => number, count: number): number {
  return Math.min(Math.floor(rand() * count), Math.max(count - 1, 0));
}

export function battleMotion(plan: BattleReelPlan): BattleReelMotion {
  const config = resolveConfig(plan.config);
  const count = plan.images.length;
  if (count === 0) throw new Error('battleMotion: the reel has no cases');
  if (!Number.isInteger(plan.winnerIndex) || plan.winnerIndex < 0 || plan.winnerIndex >= count) {
    throw new RangeError(`battleMotion: winnerIndex ${plan.winnerIndex} is not an index of ${count} cases`);
  }
  const pitch = config.itemWidth;
  const markerX = plan.widthPx / 2;
  const centring = pitch / 2 - markerX;
  const start = wrapIndex(Math.round(plan.startIndex ?? 0), count);
  const loops = Math.max(
    Math.round(plan.reducedMotion ? config.reducedMotionLoops : (plan.loops ?? config.loops)),
    0,
  );
  const stopSlot = start + loops * count + wrapIndex(plan.winnerIndex - start, count);
  return {
    count,
    pitch,
    markerX,
    centring,
    winnerIndex: plan.winnerIndex,
    stopSlot,
    startX: start * pitch + centring,
    finalX: stopSlot * pitch + centring,
    durationMs: Math.max(plan.reducedMotion ? config.reducedMotionDurationMs : config.durationMs, 0),
    ease: config.ease,
  };
}

/** Slot under the marker at scroll x. */
export function slotAt(reel: BattleReelMotion, x: number): number {
  return Math.floor((x + reel.markerX) / reel.pitch);
}

/** The pose tMs after the start: eased from startX to finalX, held before the start and after the end. */
export function motion(reel: BattleReelMotion, tMs: number): BattleReelPose {
  const tween = tweenAt(reel.durationMs, reel.ease, tMs);
  const { progress, done } = tween;
  const x = tweenValue(reel.startX, reel.finalX, tween);
  const slot = done ? reel.stopSlot : slotAt(reel, x);
  return { x, progress, done, slot, caseIndex: wrapIndex(slot, reel.count) };
}

/** Slots whose left edge reaches the marker after fromMs and by toMs, in order. */
export function crossings(reel: BattleReelMotion, fromMs: number, toMs: number): number[] {
  if (!(toMs > fromMs)) return [];
  const first = motion(reel, fromMs).slot + 1;
  const last = motion(reel, toMs).slot;
  const passed: number[] = [];
  for (let k = first; k <= last; k++) passed.push(k);
  return passed;
}

/**
 * How far a composited spin's straight keyframe piece may stray from motion() at the quarter points the
 * sampler checks, px: a little under a quarter pixel, so that between them it stays within one too.
 */
const KEYFRAME_TOLERANCE_PX = 0.2;

/** A spin as a composited strip (see CompositedStrip): the tiles it shows and its scroll, keyframed. */
export interface BattleStrip {
  /** Every slot on screen at some time of the spin: its image (index into the cases) and its tile's left edge in strip coordinates, px. */
  tiles: { slot: number; image: number; x: number }[];
  /** Scroll at times from the spin's start, ms, from 0 to the end: dense where the curve bends most. */
  keyframes: { t: number; x: number }[];
  /** Their curve as a CSS linear() easing, made once for every spin of the config (see tweenEasing). */
  easing: string | null;
}

/**
 * The tiles a reel `widthPx` wide shows from the spin's start to its end, or to the end of the farthest
 * landing from the same start (the same tiles for every winner; slot k's tile drawn `tileGap / 2`
 * into its slot and `pitch - tileGap` wide, as the scene draws it; x may be negative at the start) and its
 * scroll sampled from motion() for a linear-keyframed animation: each step as long as the curve allows,
 * within a quarter pixel of the curve, the first keyframe at 0 and the last at the spin's end.
 */
export function battleStrip(reel: BattleReelMotion, widthPx: number, tileGap: number): BattleStrip {
  const { pitch } = reel;
  const inset = tileGap / 2;
  // the scroll stays between these (the ease never overshoots): a tile shows while it overlaps
  // [low, high + widthPx). The band reaches the farthest landing from this start (count − 1 slots past
  // the nearest), whatever this spin's winner: a strip staged before the round's answer holds its tiles
  const startSlot = Math.round((reel.startX - reel.centring) / pitch);
  const past = pitch > 0 ? wrapIndex(reel.stopSlot - startSlot, reel.count) : 0;
  const farthestX = reel.finalX + (reel.count - 1 - past) * pitch;
  const low = Math.min(reel.startX, reel.finalX);
  const high = Math.max(reel.startX, farthestX) + widthPx;
  const tiles: BattleStrip['tiles'] = [];
  // (a pitch tuned down to nothing has no slots to list)
  if (pitch > 0) {
    const first = Math.floor((low + inset) / pitch);
    const last = Math.ceil((high - inset) / pitch) - 1;
    for (let slot = first; slot <= last; slot++)
      tiles.push({ slot, image: wrapIndex(slot, reel.count), x: slot * pitch + inset });
  }
  const scroll = scrollKeyframes(reel);
  const keyframes = scroll.map(({ t, value }) => ({ t, x: value }));
  return { tiles, keyframes, easing: tweenEasing(scroll) };
}

/** A reel's scroll as keyframes (see battleStrip), computed once per motion. */
function scrollKeyframes(reel: BattleReelMotion): { t: number; value: number }[] {
  return easedScrollKeyframes(reel, KEYFRAME_TOLERANCE_PX);
}

/**
 * Times (ms after the start, ascending) at which each slot's left edge reaches the marker, as crossings()
 * reports them: solved on the scroll's keyframes, not stepped through the whole spin.
 */
export function crossingSchedule(reel: BattleReelMotion): number[] {
  // slot k's left edge is under the marker at scroll k · pitch - markerX
  return markTimes(scrollKeyframes(reel), -reel.markerX, reel.pitch);
}
