import { lazy } from 'react';

/**
 * The bonus wheel (a client-side demonstration: the app picks the spin with pickSpin(Math.random)). The
 * component is lazy: importing this entry costs no Pixi until a <BonusWheel> renders (inside <Suspense>).
 */
export const BonusWheel = lazy(() => import('./BonusWheel.tsx').then((m) => ({ default: m.BonusWheel })));
export type { BonusWheelProps } from './BonusWheel.tsx';
export type { BonusSegment, BonusSpin, BonusWheelPlan } from './plan.ts';
export type { RendererChoice } from '../shared/renderer.ts';
export type { SceneClock } from '../shared/clock.ts';
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
