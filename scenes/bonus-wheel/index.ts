/**
 * The bonus wheel (a client-side demonstration: the app picks the spin with pickSpin(Math.random)): its
 * plan, tuning and pure motion. The app shows it through the scene runtime (<SceneView scene="bonus-wheel">).
 */
export type { BonusSegment, BonusSpin, BonusWheelPlan, BonusWheelScenePlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SpinDirection } from '../shared/wheel.ts';

export { bonusWheelConfig, resolveConfig, type BonusWheelConfig } from './config.ts';
export {
  bonusMotion,
  clampLanding,
  crossings,
  motion,
  pickSpin,
  segmentAt,
  segmentCentre,
  segmentCount,
  type BonusWheelMotion,
  type BonusWheelPose,
} from './motion.ts';
