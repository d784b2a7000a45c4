import { lazy } from 'react';

/**
 * The upgrade game's chance wheel. The component is lazy: importing this entry costs no Pixi until a
 * <ChanceWheel> renders (inside <Suspense>), so the first screen ships without it (DESIGN rule 9).
 */
export const ChanceWheel = lazy(() => import('./ChanceWheel.tsx').then((m) => ({ default: m.ChanceWheel })));
export type { ChanceWheelProps } from './ChanceWheel.tsx';
export type { ChanceWheelOutcome } from './ChanceWheelView.tsx';
export type { ChanceWheelPlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SceneClock } from '../shared/clock.ts';
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
