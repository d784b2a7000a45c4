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

/** An outcome the app already knows: the server's success flag, or 'fail' when the roll request failed. */
export type ChanceWheelOutcome = 'success' | 'fail';

/** What the chance wheel scene is prepared with. */
export interface ChanceWheelScenePlan {
  /** Probability of success in [0, 1]: the arc's share of the ring. */
  chance: number;
  /** Text in the centre; default formatChance(chance), e.g. '19.5%'. */
  label?: string;
  /** The server's roll in [0, 1), played by play(); null while idle or waiting for the server. */
  rolled: number | null;
  /**
   * The outcome as the app knows it: with a roll, it replaces the wheel's own verdict (rolled < chance) once
   * the wheel stops; with rolled null, the colours show it at once (e.g. 'fail' when the request failed).
   */
  outcome?: ChanceWheelOutcome | null;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
}
