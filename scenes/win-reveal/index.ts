/**
 * The win reveal behind the win screen's items: a glow, rays, a shock ring and sparks that step up with the
 * win's tier (revealTier()). Its plan, tuning and pure motion; the app shows it through the scene runtime
 * (<SceneView scene="win-reveal">).
 */
export type { RevealTier, WinRevealScenePlan } from './plan.ts';
export { winRevealConfig, type WinRevealConfig } from './config.ts';
export { revealMotion, revealPose } from './motion.ts';
