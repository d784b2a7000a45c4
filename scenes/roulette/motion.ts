import { tweenAt } from '../shared/easing.ts';
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
