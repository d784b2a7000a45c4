/**
 * The upgrade game's chance wheel: its plan, tuning, odds and pure motion. The app shows it through the scene
 * runtime (<SceneView scene="chance-wheel">); this entry holds no Pixi (DESIGN rule 9).
 */
export type { ChanceWheelOutcome, ChanceWheelPlan, ChanceWheelScenePlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SpinDirection } from '../shared/wheel.ts';

export { chanceWheelConfig, resolveConfig, type ChanceWheelConfig } from './config.ts';
export { clampChance, formatChance, isInsideArc, upgradeChance } from './chance.ts';
export {
  chanceMotion,
  crossings,
  landingFraction,
  motion,
  phaseAt,
  type ChanceWheelMotion,
  type ChanceWheelPhase,
  type ChanceWheelPose,
} from './motion.ts';
