/** Tuning of the win reveal: plain data, edited live by the debug scene switcher. */
export interface WinRevealConfig {
  /** Length of a tier 0 reveal, ms; each tier above adds tierDurationMs. */
  durationMs: number;
  /** What each tier adds to the reveal's length, ms. */
  tierDurationMs: number;
  /** Sparks thrown out, by tier 0 to 4 (tier 0: a quiet glow only). */
  particleCounts: number[];
  /** Slowest and fastest spark, px per second at tier 0 (each tier throws them 15% faster). */
  particleSpeedMin: number;
  particleSpeedMax: number;
  /** Pull on the sparks, px per second squared (they fall as they fade). */
  gravity: number;
  /** Size of a spark, px. */
  particleSize: number;
  /** Radius of the glow behind the item at tier 0, as a fraction of the surface's shorter side. */
  glowRadius: number;
  /** How much larger the glow grows per tier, as a fraction of glowRadius. */
  glowGrowth: number;
  /** The glow's strongest opacity, by tier. */
  glowAlpha: number[];
  /** Time the glow and the shock ring take to open, ms. */
  glowInMs: number;
  /** How the glow and the ring open (monotonic): a gsap ease name such as 'power3.out', or 'cubic-bezier(x1, y1, x2, y2)'. */
  ease: string;
  /** Lowest tier with turning rays behind the item. */
  raysFromTier: number;
  /** Rays in the fan. */
  rayCount: number;
  /** Turn of the rays, turns per second. */
  raySpeed: number;
  /** Lowest tier with a shock ring. */
  ringFromTier: number;
  /** Time the shock ring takes to reach the edge, ms. */
  ringMs: number;
  /** Width of the shock ring, px. */
  ringWidth: number;
  /** Share of the reveal over which everything fades out at its end. */
  fadeOut: number;
}

export const winRevealConfig: WinRevealConfig = {
  durationMs: 1200,
  tierDurationMs: 250,
  particleCounts: [0, 10, 24, 44, 72],
  particleSpeedMin: 90,
  particleSpeedMax: 240,
  gravity: 160,
  particleSize: 7,
  glowRadius: 0.32,
  glowGrowth: 0.12,
  glowAlpha: [0.35, 0.5, 0.65, 0.8, 0.95],
  glowInMs: 420,
  ease: 'power3.out',
  raysFromTier: 2,
  rayCount: 12,
  raySpeed: 0.08,
  ringFromTier: 3,
  ringMs: 650,
  ringWidth: 4,
  fadeOut: 0.35,
};

/** The defaults with a plan's overrides on top. */
export function resolveConfig(overrides?: Partial<WinRevealConfig>): WinRevealConfig {
  return overrides ? { ...winRevealConfig, ...overrides } : winRevealConfig;
}
