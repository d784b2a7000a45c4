import type { BonusWheelConfig } from './config.ts';

/** One segment of the bonus wheel: a prize shown as a label, an optional icon and an optional colour. */
export interface BonusSegment {
  /** Stable id of the prize. */
  id: string;
  /** Text drawn on the segment (already translated by the app). */
  label: string;
  /** Icon drawn on the segment; a failed image leaves just the label. */
  imageUrl?: string;
  /** Segment colour; default the config's alternating colours. */
  color?: number;
}

/** The random part of a spin, chosen by the app (pickSpin()) so that the motion itself stays pure. */
export interface BonusSpin {
  /** Full turns before the wheel reaches the segment (spec §4: 5 to 7). */
  turns: number;
  /** Index of the segment the pointer lands on, 0 to segmentCount - 1. */
  segment: number;
  /** Where inside the segment the pointer lands, 0 to 1 from its first border; kept edgeMargin from both. Default 0.5. */
  landing?: number;
}

/** Everything one spin needs, as plain data. */
export interface BonusWheelPlan extends BonusSpin {
  /** Wheel fraction under the pointer when the spin starts (where the last spin stopped); default 0. */
  startFraction?: number;
  /** Overrides of the tuning values in config.ts. */
  config?: Partial<BonusWheelConfig>;
  /** The player prefers reduced motion: shorter spin, fewer turns. */
  reducedMotion?: boolean;
}

/** What the bonus wheel scene is prepared with. */
export interface BonusWheelScenePlan {
  /**
   * The prizes, segment 0 first (repeated if fewer than segmentCount). Segments are laid out from the top
   * against the spin, so the pointer meets them in index order; before the first spin, segment 0 is under
   * the pointer.
   */
  segments: readonly BonusSegment[];
  /** The app's random choice for the spin (pickSpin()), played by play(); null while idle. */
  spin: BonusSpin | null;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
}
