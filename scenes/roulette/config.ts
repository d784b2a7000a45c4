import type { CardLook, Rarity } from '../shared/cards.ts';

/** Tuning of the case-opening roulette: plain data, edited live by the debug scene switcher. */
export interface RouletteConfig {
  /** Length of a normal spin, ms (spec §9: 10 s). */
  durationMs: number;
  /** Length of a spin when the player asks for reduced motion, ms. */
  reducedMotionDurationMs: number;
  /**
   * Delay between the play and the motion's start, ms. 0: the first frame after the play already moves (by
   * one frame's worth, as every later frame does); a lead only holds the rest pose on screen for its frames.
   */
  startLeadMs: number;
  /** With reduced motion the reel scrolls only this many cards before the winner, not the whole track. */
  reducedMotionCards: number;
  /** Card width, px (spec §9: 130). */
  itemWidth: number;
  /** Empty space between two neighbouring cards, px. */
  cardGap: number;
  /** Card height, px. */
  cardHeight: number;
  /** Empty space above and below the cards inside one reel, px. */
  reelPadding: number;
  /** The track never holds fewer cards than this, whatever targetTrackLength says (spec §9: 50 copies). */
  minCopies: number;
  /** Number of cards on the track (spec §9: about 200). */
  targetTrackLength: number;
  /** The winner sits this many cards before the end of the track: stop index = track length - stopFromEnd. */
  stopFromEnd: number;
  /** Scroll easing (monotonic): a gsap ease name such as 'power4.out', or 'cubic-bezier(x1, y1, x2, y2)'. */
  ease: string;
  /** Fraction of the card width kept clear of both card borders when choosing where the marker lands. */
  edgeMargin: number;
  /** Colour of the centre marker line. */
  markerColor: number;
  /** Width of the centre marker line, px. */
  markerWidth: number;
  /** Card corner radius, px. */
  cardRadius: number;
  /** Card base colour, under the rarity glow. */
  cardColor: number;
  /** Card accent colour by item rarity: border and glow behind the art. */
  rarityColors: Record<Rarity, number>;
  /** Price text colour. */
  priceColor: number;
  /** Price text size, px. */
  priceFontSize: number;
  /** Font family of the texts baked into cards. */
  fontFamily: string;
  /** Text drawn after the price (the price text comes formatted by the caller: at least 2 decimals, spec §9). */
  priceSuffix: string;
}

export const rouletteConfig: RouletteConfig = {
  durationMs: 10000,
  reducedMotionDurationMs: 3000,
  startLeadMs: 0,
  reducedMotionCards: 8,
  itemWidth: 130,
  cardGap: 8,
  cardHeight: 150,
  reelPadding: 10,
  minCopies: 50,
  targetTrackLength: 200,
  stopFromEnd: 5,
  ease: 'power4.out',
  edgeMargin: 0.12,
  markerColor: 0xffd34d,
  markerWidth: 3,
  cardRadius: 14,
  cardColor: 0x1c2030,
  rarityColors: {
    common: 0x8b93a7,
    uncommon: 0x4cc38a,
    rare: 0x3d8bfd,
    epic: 0xa35cf0,
    legendary: 0xf5a524,
  },
  priceColor: 0xffffff,
  priceFontSize: 17,
  fontFamily: 'Inter, Roboto, Arial, sans-serif',
  priceSuffix: ' TON',
};

/** The defaults with a plan's overrides on top. */
export function resolveConfig(overrides?: Partial<RouletteConfig>): RouletteConfig {
  return overrides ? { ...rouletteConfig, ...overrides } : rouletteConfig;
}

/** Height of one reel: the cards plus their padding, px. */
export function reelHeight(config: RouletteConfig = rouletteConfig): number {
  return config.cardHeight + 2 * config.reelPadding;
}

/** The card look (shared/cards.ts) this config asks for. */
export function cardLook(config: RouletteConfig): CardLook {
  return {
    width: config.itemWidth,
    height: config.cardHeight,
    radius: config.cardRadius,
    color: config.cardColor,
    rarityColors: config.rarityColors,
    priceColor: config.priceColor,
    priceFontSize: config.priceFontSize,
    fontFamily: config.fontFamily,
    priceSuffix: config.priceSuffix,
  };
}
