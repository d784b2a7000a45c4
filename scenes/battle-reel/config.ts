/** Tuning of the battle screen's case reel: plain data, edited live by the debug scene switcher. */
export interface BattleReelConfig {
  /** Length of a spin, ms (spec §9: 3 s). */
  durationMs: number;
  /** Extra loops over the whole strip before the winner (spec §4: 3). */
  loops: number;
  /** Length of a spin when the player asks for reduced motion, ms. */
  reducedMotionDurationMs: number;
  /** Extra loops when the player asks for reduced motion. */
  reducedMotionLoops: number;
  /**
   * Delay between the play and the motion's start, ms. 0: the first frame after the play already moves (by
   * one frame's worth, as every later frame does); a lead only holds the rest pose on screen for its frames.
   */
  startLeadMs: number;
  /** Scroll easing (monotonic): a gsap ease name such as 'power3.out', or 'cubic-bezier(x1, y1, x2, y2)'. */
  ease: string;
  /** Distance between the left edges of neighbouring cases, px (spec §9: 90 per case). */
  itemWidth: number;
  /** Empty space between two neighbouring tiles, px (taken out of itemWidth). */
  tileGap: number;
  /** Tile height, px. */
  tileHeight: number;
  /** Tile corner radius, px. */
  tileRadius: number;
  /** Tile background colour. */
  tileColor: number;
  /** Tile border colour. */
  tileBorderColor: number;
  /** Size of the case image inside the tile, as a fraction of the tile's smaller side. */
  artSize: number;
  /** Colour of the case name drawn when its image cannot be loaded. */
  nameColor: number;
  /** Size of that name, px. */
  nameFontSize: number;
  /** Font family of the texts baked into tiles. */
  fontFamily: string;
  /** Colour of the centre marker line. */
  markerColor: number;
  /** Width of the centre marker line, px. */
  markerWidth: number;
}

export const battleReelConfig: BattleReelConfig = {
  durationMs: 3000,
  loops: 3,
  reducedMotionDurationMs: 1200,
  reducedMotionLoops: 0,
  startLeadMs: 0,
  ease: 'power3.out',
  itemWidth: 90,
  tileGap: 8,
  tileHeight: 82,
  tileRadius: 12,
  tileColor: 0x1c2030,
  tileBorderColor: 0x2f3650,
  artSize: 0.8,
  nameColor: 0xffffff,
  nameFontSize: 11,
  fontFamily: 'Inter, Roboto, Arial, sans-serif',
  markerColor: 0xffd34d,
  markerWidth: 3,
};

/** The defaults with a plan's overrides on top. */
export function resolveConfig(overrides?: Partial<BattleReelConfig>): BattleReelConfig {
  return overrides ? { ...battleReelConfig, ...overrides } : battleReelConfig;
}
