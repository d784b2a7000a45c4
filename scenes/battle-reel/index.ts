import { resolveConfig, type BattleReelConfig } from './config.ts';

/**
 * The battle screen's case reel (a demonstration: the app picks the winner with pickWinner and only logs
 * it): its plan, tuning and pure motion. The app shows it through the scene runtime
 * (<SceneView scene="battle-reel">).
 */
export type { BattleCase, BattleReelScenePlan } from './plan.ts';
export { battleReelConfig, type BattleReelConfig } from './config.ts';
export { battleMotion, crossings, crossingSchedule, motion, pickWinner, slotAt } from './motion.ts';

/** Canvas height that fits the tiles with `padding` px above and below, px. */
export function battleReelHeight(padding = 10, config?: Partial<BattleReelConfig>): number {
  return resolveConfig(config).tileHeight + 2 * padding;
}
