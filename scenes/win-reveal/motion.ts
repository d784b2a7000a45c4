import { parseEase } from '../shared/easing.ts';
import { seededRandom } from '../shared/random.ts';
import { resolveConfig, type WinRevealConfig } from './config.ts';
import type { RevealTier } from './plan.ts';

/** One spark: thrown from the centre at an angle and speed, fading over its life. */
interface Spark {
  angle: number;
  /** px per ms */
  speed: number;
  /** ms */
  life: number;
  /** 0.6 to 1: its size against the config's */
  size: number;
}

/** One reveal as plain data. */
export interface RevealMotion {
  tier: RevealTier;
  durationMs: number;
  sparks: Spark[];
  config: WinRevealConfig;
}

/** Where everything is at one moment, relative to the surface's centre (px) and shorter side. */
export interface RevealPose {
  /** Glow radius as a fraction of the shorter side, and its opacity. */
  glowRadius: number;
  glowAlpha: number;
  /** Rays' rotation (radians) and opacity (0 below raysFromTier). */
  raysRotation: number;
  raysAlpha: number;
  /** Shock ring radius as a fraction of the shorter side, and its opacity (0 below ringFromTier). */
  ringRadius: number;
  ringAlpha: number;
  /** Each spark's offset from the centre (px), size factor and opacity. */
  sparks: { x: number; y: number; scale: number; alpha: number }[];
  /** The reveal is over: nothing shows. */
  done: boolean;
}

export interface RevealPlanInput {
  tier: RevealTier;
  seed: string;
  config?: Partial<WinRevealConfig>;
}

/** A reveal's motion: its length and sparks, fixed by the tier and the seed. */
export function revealMotion({ tier, seed, config: overrides }: RevealPlanInput): RevealMotion {
  const config = resolveConfig(overrides);
  const durationMs = config.durationMs + config.tierDurationMs * tier;
  const random = seededRandom(`${seed}:${tier}`);
  const count = Math.max(0, Math.round(config.particleCounts[tier] ?? 0));
  const boost = 1 + 0.15 * tier;
  const sparks = Array.from({ length: count }, (_, i) => ({
    // spread evenly round the circle, each jittered, so a few sparks still read as a burst
    angle: ((i + random() * 0.8) / Math.max(count, 1)) * Math.PI * 2,
    speed:
      ((config.particleSpeedMin + random() * (config.particleSpeedMax - config.particleSpeedMin)) * boost) /
      1000,
    life: durationMs * (0.55 + random() * 0.45),
    size: 0.6 + random() * 0.4,
  }));
  return { tier, durationMs, sparks, config };
}

const clamp01 = (v: number) => Math.min(Math.max(v, 0), 1);

/** The pose at `t` ms into the reveal (pure: the same motion and time give the same pose). */
export function revealPose(m: RevealMotion, t: number): RevealPose {
  const { config, tier, durationMs } = m;
  const time = Math.max(t, 0);
  const done = time >= durationMs;
  // everything fades together over the last fadeOut of the reveal
  const fade = 1 - clamp01((time / durationMs - (1 - config.fadeOut)) / Math.max(config.fadeOut, 1e-6));
  const ease = parseEase(config.ease);
  const open = ease(clamp01(time / config.glowInMs));
  const glowRadius = config.glowRadius * (1 + config.glowGrowth * tier) * (0.45 + 0.55 * open);
  const glowAlpha = done ? 0 : (config.glowAlpha[tier] ?? 0) * open * fade;
  const rays = tier >= config.raysFromTier;
  const raysRotation = (time / 1000) * config.raySpeed * Math.PI * 2;
  const raysAlpha = done || !rays ? 0 : 0.35 * open * fade;
  const ring = tier >= config.ringFromTier;
  const ringT = clamp01(time / config.ringMs);
  const ringRadius = 0.5 * ease(ringT);
  const ringAlpha = done || !ring ? 0 : 1 - ringT;
  const gravity = config.gravity / 1e6; // px per ms²
  const sparks = m.sparks.map((s) => {
    const life = clamp01(time / s.life);
    const tt = Math.min(time, s.life);
    return {
      x: Math.cos(s.angle) * s.speed * tt,
      y: Math.sin(s.angle) * s.speed * tt + 0.5 * gravity * tt * tt,
      scale: s.size * (1 - 0.5 * life),
      alpha: done ? 0 : 1 - life * life,
    };
  });
  return { glowRadius, glowAlpha, raysRotation, raysAlpha, ringRadius, ringAlpha, sparks, done };
}
