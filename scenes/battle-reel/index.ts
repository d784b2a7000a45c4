import { lazy } from 'react';
import { resolveConfig, type BattleReelConfig } from './config.ts';

/**
 * The battle screen's case reel (a demonstration: the app picks the winner with pickWinner and only logs
 * it). The component is lazy: importing this entry costs no Pixi until a <BattleReel> renders (inside
 * <Suspense>).
 */
export const BattleReel = lazy(() => import('./BattleReel.tsx').then((m) => ({ default: m.BattleReel })));
export type { BattleReelProps } from './BattleReel.tsx';
export type { BattleCase, BattleReelPlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SceneClock } from '../shared/clock.ts';

export { battleReelConfig, resolveConfig, type BattleReelConfig } from './config.ts';
export {
  battleMotion,
  crossings,
  motion,
  pickWinner,
  slotAt,
  wrapIndex,
  type BattleReelMotion,
  type BattleReelPose,
} from './motion.ts';

/** Canvas height that fits the tiles with `padding` px above and below, px. */
export function battleReelHeight(padding = 10, config?: Partial<BattleReelConfig>): number {
  return resolveConfig(config).tileHeight + 2 * padding;
}
