import { lazy } from 'react';
import { reelHeight, resolveConfig, type RouletteConfig } from './config.ts';

/**
 * The case-opening roulette. The component is lazy: importing this entry costs no Pixi until a <Roulette>
 * renders (inside <Suspense>), so the case list ships without it (DESIGN rule 9).
 */
export const Roulette = lazy(() => import('./Roulette.tsx').then((m) => ({ default: m.Roulette })));
export type { RouletteProps, RouletteReel } from './Roulette.tsx';
export type { RoulettePlan, RouletteItem } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SceneClock } from '../shared/clock.ts';
export type { Rarity } from '../shared/cards.ts';

export { rouletteConfig, resolveConfig, reelHeight, type RouletteConfig } from './config.ts';
export { buildTrack, landingOffset, stopIndex, trackLength, type TrackPlan } from './track.ts';
export {
  motion,
  crossings,
  indexAt,
  reelMotion,
  type ReelMotion,
  type ReelPose,
  type MotionPlan,
} from './motion.ts';

/** Canvas height that fits `reels` reels (1 to 3) at their natural size, px. */
export function rouletteHeight(reels: number, config?: Partial<RouletteConfig>): number {
  return Math.max(reels, 1) * reelHeight(resolveConfig(config));
}
