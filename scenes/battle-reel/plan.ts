import type { BattleReelConfig } from './config.ts';

/** One case on the reel. */
export interface BattleCase {
  id: string;
  /** Shown when the image cannot be loaded. */
  name: string;
  imageUrl: string;
}

/** Everything one spin needs, as plain data. */
export interface BattleReelPlan {
  /** The strip: these cases repeat endlessly along the reel (spec §9: 7). */
  images: readonly BattleCase[];
  /** Index into images of the case that ends under the marker. */
  winnerIndex: number;
  /** Width of the reel, px; the marker sits at its centre. */
  widthPx: number;
  /** Extra loops over the strip before the winner; default the config's (spec §4: 3). */
  loops?: number;
  /** Index into images of the case under the marker when the spin starts (where the last one stopped); default 0. */
  startIndex?: number;
  /** Overrides of the tuning values in config.ts. */
  config?: Partial<BattleReelConfig>;
  /** The player prefers reduced motion: shorter spin, fewer loops. */
  reducedMotion?: boolean;
}

/** What the battle reel scene is prepared with. */
export interface BattleReelScenePlan {
  /** The strip of cases, repeated endlessly (spec §9: 7). */
  images: readonly BattleCase[];
  /** Index into images of the case to stop on, played by play(); null while idle. */
  winnerIndex: number | null;
  /** Extra loops over the strip before the winner; default the config's (spec §4: 3). */
  loops?: number;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
  /**
   * The strips of the rounds still to come (a battle's later cases): baked, and encoded for a composited
   * play, while the reel is idle, so their round's spin starts without waiting for either.
   */
  upcoming?: readonly (readonly BattleCase[])[];
}
