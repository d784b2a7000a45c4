/** How big a win is: 0 (worth less than the case) to 4 (a legendary item, or twenty times the price). */
export type RevealTier = 0 | 1 | 2 | 3 | 4;

/** What the win reveal scene is prepared with. */
export interface WinRevealScenePlan {
  /** The tier of the reveal (the app's revealTier()): glow, rays, ring and sparks step up with it. */
  tier: RevealTier;
  /** Colour of the glow and sparks (the won item's rarity colour). */
  color: number;
  /** Seed of the sparks' directions and speeds (the opening's id: the same win replays the same burst). */
  seed: string;
}
