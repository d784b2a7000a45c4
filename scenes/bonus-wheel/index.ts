/**
 * The bonus wheel (a client-side demonstration: the app picks the spin with pickSpin(Math.random)): its
 * plan, tuning and pure motion. The app shows it through the scene runtime (<SceneView scene="bonus-wheel">).
 */
export type { BonusSegment, BonusSpin, BonusWheelScenePlan } from './plan.ts';
export { bonusWheelConfig, type BonusWheelConfig } from './config.ts';
export {
  bonusMotion,
  clampLanding,
  crossings,
  crossingSchedule,
  motion,
  pickSpin,
  segmentAt,
} from './motion.ts';
