import type { CardFace } from '../shared/cards.ts';
import type { RouletteConfig } from './config.ts';

/** One item of the case, as a card on the reel. */
export interface RouletteItem extends CardFace {
  /** Drop weight (the case's integer weight or drop chance): common items show up more. Default 1. */
  weight?: number;
}

/** Everything one reel needs, as plain data: the server's result plus what the app knows about the screen. */
export interface RoulettePlan {
  /** The case's items; the track is made of indices into this list. */
  items: readonly RouletteItem[];
  /** Index into items of the item the server dropped. */
  winnerIndex: number;
  /** Layout seed from the server's proof, e.g. `${serverSeedHash}:${nonce}`: same seed, same reel. */
  seed: string;
  /**
   * Seeds the cards instead of `seed` (the landing inside the winner's card still follows `seed`): the seed
   * the page chose for this reel before the tap, so the track laid out then (RouletteScenePlan.stage) is
   * this reel's but for its stop.
   */
  trackSeed?: string;
  /** Width of the reel, px; the marker sits at its centre. */
  widthPx: number;
  /** Overrides of the tuning values in config.ts. */
  config?: Partial<RouletteConfig>;
  /** The player prefers reduced motion: shorter, calmer spin. */
  reducedMotion?: boolean;
  /** When the spin starts, as a performance.now() timestamp; default: as soon as the cards are ready. */
  startAt?: number;
}

/** One reel of a multi-open: the server's result for one copy of the case. */
export interface RouletteReel {
  /** The cards of this reel (the case's items, plus the dropped item if the case no longer lists it). */
  items: readonly RouletteItem[];
  /** Index into items of the item the server dropped. */
  winnerIndex: number;
  /** Layout seed from the server's proof. */
  seed: string;
  /** The track's seed, when the page staged it before the answer (see RoulettePlan.trackSeed). */
  trackSeed?: string;
}

/** What the roulette scene is prepared with (the runtime's plan for this scene). */
export interface RouletteScenePlan {
  /** Cards to bake ahead (the case's items): prepared before the tap, the spin starts without baking. */
  items: readonly RouletteItem[];
  /** 1 to 3 reels, top to bottom, started together; empty to only bake the items. */
  reels: readonly RouletteReel[];
  /**
   * While no reel plays: the track seeds of the next play's reels (one per reel, top to bottom). Their
   * strips are laid out from the case's items and staged on the page's compositor, painted and unseen, so
   * the play that brings these seeds (RouletteReel.trackSeed) changes one card of each and starts.
   */
  stage?: readonly string[];
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
}
