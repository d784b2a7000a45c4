import type { ChanceWheelConfig } from './config.ts';

/** Everything one roll of the chance wheel needs, as plain data: the server's answer plus the wheel's state. */
export interface ChanceWheelPlan {
  /** Probability of success in [0, 1] (baseChance / coef): the success arc covers this fraction of the ring. */
  chance: number;
  /** The server's roll in [0, 1), a fraction of a full turn: the wheel point that ends under the pointer. */
  rolled: number;
  /** Wheel fraction under the pointer when the roll starts (where the last roll stopped); default 0. */
  startFraction?: number;
  /** Overrides of the tuning values in config.ts. */
  config?: Partial<ChanceWheelConfig>;
  /** The player prefers reduced motion: shorter roll, fewer turns. */
  reducedMotion?: boolean;
}
