import { tweenAt } from '../shared/easing.ts';
import { markTimes, scrollKeyframes as easedScrollKeyframes, tweenEasing } from '../shared/keyframes.ts';
export { KEYFRAME_MAX_MS } from '../shared/keyframes.ts';
import { resolveConfig } from './config.ts';
import type { RoulettePlan } from './plan.ts';
import { landingOffset, stopIndex } from './track.ts';

/**
 * A reel's motion as plain data. Track coordinates: card i spans [i * pitch, i * pitch + cardWidth].
 * At scroll x, the track point x sits at the reel's left edge and x + markerX under the marker.
 */
export interface ReelMotion {
  /** Distance between the left edges of neighbouring cards, px. */
  pitch: number;
  /** Width of a card, px. */
  cardWidth: number;
  /** Marker position from the reel's left edge, px. */
  markerX: number;
  /** Track index of the winner's card. */
  stopIndex: number;
  /** Where the marker ends inside the winner's card, px from its left edge. */
  landingOffset: number;
  /** Scroll at the start, px. */
  startX: number;
  /** Scroll at the end: the landing point exactly under the marker, px. */
  finalX: number;
  /** Length of the spin, ms. */
  durationMs: number;
  /** Ease name, see config.ts. */
  ease: string;
}

/** Where the reel is at one moment. */
export interface ReelPose {
  /** Track scroll offset, px. */
  x: number;
  /** Elapsed fraction of the spin, 0 to 1. */
  progress: number;
  /** The spin has reached its end. */
  done: boolean;
  /** Track index of the card slot (card plus the gap after it) under the marker. */
  index: number;
}

export type MotionPlan = Pick<RoulettePlan, 'seed' | 'widthPx' | 'config' | 'reducedMotion'>;

export function reelMotion(plan: MotionPlan): ReelMotion {
  const config = resolveConfig(plan.config);
  const pitch = config.itemWidth + config.cardGap;
  const markerX = plan.widthPx / 2;
  const stop = stopIndex(config);
  const offset = landingOffset(plan);
  const finalX = stop * pitch + offset - markerX;
  return {
    pitch,
    cardWidth: config.itemWidth,
    markerX,
    stopIndex: stop,
    landingOffset: offset,
    startX: plan.reducedMotion ? Math.max(0, finalX - config.reducedMotionCards * pitch) : 0,
    finalX,
    durationMs: plan.reducedMotion ? config.reducedMotionDurationMs : config.durationMs,
    ease: config.ease,
  };
}

/** Index of the card slot under the marker at scroll x. */
export function indexAt(reel: ReelMotion, x: number): number {
  return Math.floor((x + reel.markerX) / reel.pitch);
}

/** The pose tMs after the start: eased from startX to finalX, held before the start and after the end. */
export function motion(reel: ReelMotion, tMs: number): ReelPose {
  const { progress, done, eased } = tweenAt(reel.durationMs, reel.ease, tMs);
  const x = done ? reel.finalX : reel.startX + (reel.finalX - reel.startX) * eased;
  return { x, progress, done, index: indexAt(reel, x) };
}

/** Track indices of the cards whose left edge reaches the marker after fromMs and by toMs, in order. */
export function crossings(reel: ReelMotion, fromMs: number, toMs: number): number[] {
  if (!(toMs > fromMs)) return [];
  const first = motion(reel, fromMs).index + 1;
  const last = motion(reel, toMs).index;
  const passed: number[] = [];
  for (let i = first; i <= last; i++) passed.push(i);
  return passed;
}

/** How far a composited spin's straight keyframe piece may stray from motion(), px. */
const KEYFRAME_TOLERANCE_PX = 0.25;

/** A spin as a composited strip (see CompositedStrip): the cards it passes and its scroll, keyframed. */
export interface ReelStrip {
  /** Track indices shown and their left edge in track coordinates, px. */
  cards: { index: number; x: number }[];
  /** Scroll at times from the spin's start, ms, from 0 to the end: dense where the curve bends most. */
  keyframes: { t: number; x: number }[];
  /** Their curve as a CSS linear() easing, made once for every spin of the config (see tweenEasing). */
  easing: string | null;
}

/**
 * The cards a reel `widthPx` wide passes from its start to its end (every card of `trackLength` that is
 * ever on screen, the same for every landing inside the winner's card) and its scroll sampled from motion()
 * for a linear-keyframed animation: each step as long as the curve allows (halved until the straight piece
 * stays within a quarter pixel, never below a 240 Hz frame), so the fast start gets many keyframes and the
 * slow end few.
 */
export function reelStrip(reel: ReelMotion, trackLength: number, widthPx: number): ReelStrip {
  // the band of every landing of this config and width (the landing offset moves both ends by less than a
  // card): a strip staged before the answer holds the same cards as the play's
  const shift = reel.landingOffset;
  const low = reel.startX > 0 ? Math.max(Math.min(reel.startX, reel.finalX) - shift, 0) : 0;
  const high = Math.max(reel.startX, reel.finalX) - shift + reel.cardWidth + widthPx;
  const cards: ReelStrip['cards'] = [];
  const last = Math.min(Math.ceil(high / reel.pitch), trackLength - 1);
  for (let index = Math.max(Math.floor(low / reel.pitch), 0); index <= last; index++)
    cards.push({ index, x: index * reel.pitch });
  const scroll = scrollKeyframes(reel);
  const keyframes = scroll.map(({ t, value }) => ({ t, x: value }));
  return { cards, keyframes, easing: tweenEasing(scroll) };
}

/**
 * A reel's scroll as keyframes (see reelStrip), computed once per motion; called for a stand-in motion of
 * the same config and width while the page waits for the tap, it samples the ease for the real spin ahead.
 */
export function scrollKeyframes(reel: ReelMotion): { t: number; value: number }[] {
  // no spin of this config goes further than the card after the winner's: one band for all of them
  return easedScrollKeyframes(reel, KEYFRAME_TOLERANCE_PX, (reel.stopIndex + 1) * reel.pitch);
}

/**
 * Times (ms after the start, ascending) at which each card's left edge reaches the marker, as crossings()
 * reports them: solved on the scroll's keyframes (within a quarter pixel of motion()), not stepped through
 * the whole spin, so a play's tick schedule costs next to nothing as it starts.
 */
export function crossingSchedule(reel: ReelMotion): number[] {
  return markTimes(scrollKeyframes(reel), reel.pitch - reel.markerX, reel.pitch);
}
