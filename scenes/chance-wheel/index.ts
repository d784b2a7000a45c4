/**
 * The upgrade game's chance wheel: its plan, tuning, odds and pure motion. The app shows it through the scene
 * runtime (<SceneView scene="chance-wheel">); this entry holds no Pixi (DESIGN rule 9).
 */
export type { ChanceWheelOutcome, ChanceWheelScenePlan } from './plan.ts';
export { chanceWheelConfig, type ChanceWheelConfig } from './config.ts';
export { formatChance, isInsideArc, upgradeChance } from './chance.ts';
export { chanceMotion, crossings, crossingSchedule, landingFraction, motion, phaseAt } from './motion.ts';
