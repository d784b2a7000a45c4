import { reelHeight, resolveConfig, type RouletteConfig } from './config.ts';

/**
 * The case-opening roulette: its plan, tuning and pure motion. The app shows it through the scene runtime
 * (<SceneView scene="roulette">); this entry holds no Pixi, so the case list ships without it (DESIGN rule 9).
 */
export type { RouletteItem, RouletteReel, RouletteScenePlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { Rarity } from '../shared/cards.ts';

export { rouletteConfig, resolveConfig, type RouletteConfig } from './config.ts';
export { buildTrack, landingOffset, stopIndex, trackLength } from './track.ts';
export { motion, crossings, crossingSchedule, reelMotion, reelStrip, KEYFRAME_MAX_MS } from './motion.ts';

/** Canvas height that fits `reels` reels (1 to 3) at their natural size, px. */
export function rouletteHeight(reels: number, config?: Partial<RouletteConfig>): number {
  return Math.max(reels, 1) * reelHeight(resolveConfig(config));
}
