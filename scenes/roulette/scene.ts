import { Container, Graphics, type Texture } from 'pixi.js';
import type { CompositedStrip, Scene, SceneContext, SceneSize } from '../runtime/contract.ts';
import { bakeCards } from '../shared/cards.ts';
import { drawReelMarker, SpritePool } from '../shared/reel.ts';
import { cardLook, resolveConfig, type RouletteConfig } from './config.ts';
import {
  crossings,
  crossingSchedule,
  indexAt,
  motion,
  reelMotion,
  reelStrip,
  scrollKeyframes,
  type ReelMotion,
} from './motion.ts';
import type { RouletteReel, RouletteScenePlan } from './plan.ts';
import { buildTrack, trackLength } from './track.ts';

interface LaidReel {
  reel: RouletteReel;
  track: number[];
  motion: ReelMotion;
  textures: Texture[];
  /** The textures as images for a composited play (empty unless the runtime composites). */
  images: (Blob | null)[];
  /** The reel's band height, px. */
  slot: number;
  pool: SpritePool;
  marker: Graphics;
  view: Container;
  tickedTo: number;
}

/**
 * The case-opening roulette: 1 to 3 virtualized reels sharing the surface's height, each a pool of sprites
 * just wide enough to cover the width, recycled as the track scrolls. frame() copies motion() onto the
 * pools; the reels start together and `settled` reports, per reel, the card under the marker.
 */
export function rouletteScene(context: SceneContext): Scene<RouletteScenePlan, RouletteConfig> {
  let overrides: Partial<RouletteConfig> = {};
  let config = resolveConfig();
  let plan: RouletteScenePlan = { items: [], reels: [] };
  let reels: LaidReel[] = [];
  let startAt: number | null = null;
  let settled = false;
  /** The play's strips are on the page's compositor: the pools are hidden until they come back. */
  let handedOff = false;
  let layoutRun = 0;
  let latest: Promise<void> = Promise.resolve();

  /** Starts a new layout; an older one still baking is dropped when it ends. */
  function layout(): Promise<void> {
    latest = layOut(++layoutRun);
    return latest;
  }

  /** Resolves once the newest layout (even one started while waiting) is done. */
  async function laidOut(): Promise<void> {
    let waited: Promise<void>;
    do {
      waited = latest;
      await waited;
    } while (waited !== latest);
  }

  /** Bakes the plan's cards and lays the reels out for the current size and config. */
  async function layOut(run: number): Promise<void> {
    const look = cardLook(config);
    const bakes = [plan.items, ...plan.reels.map((reel) => reel.items)].map((items) =>
      bakeCards(context.renderer, items, look, context.art),
    );
    const [cards = [], ...textures] = await Promise.all(bakes);
    // the case's cards are encoded for a composited play while the page waits for the tap (a reel's cards
    // are the same textures, so its images are then ready, not encoded between the answer and the motion),
    // and the spin's ease is sampled into keyframes for this width (a stand-in spin of the same config)
    let staged: CompositedStrip[] | null = null;
    if (plan.reels.length === 0) {
      const cardImages = context.stripImages(cards);
      scrollKeyframes(standIn());
      // the next play's strips, painted on the page while it waits for the tap (see RouletteScenePlan.stage)
      const seeds = context.composites ? (plan.stage ?? []) : [];
      staged = seeds.length > 0 ? stagedStrips(seeds, await cardImages) : [];
    }
    const images = await Promise.all(textures.map((baked) => context.stripImages(baked)));
    if (run !== layoutRun) return;
    // a play's layout leaves the staged strips alone: its show takes them
    if (staged) context.standBy(staged);
    for (const old of reels) old.view.destroy({ children: true });
    reels = [];
    const { width, height } = context.size;
    const slot = height / Math.max(plan.reels.length, 1);
    const pitch = config.itemWidth + config.cardGap;
    plan.reels.forEach((reel, i) => {
      const view = new Container();
      view.y = i * slot;
      const pool = new SpritePool();
      pool.resize(Math.ceil(width / pitch) + 1);
      pool.container.y = Math.round((slot - config.cardHeight) / 2);
      pool.container.visible = !handedOff;
      const marker = new Graphics();
      drawReelMarker(marker, width / 2, config.markerWidth, slot, config.markerColor);
      view.addChild(pool.container, marker);
      context.stage.addChild(view);
      reels.push({
        reel,
        track: buildTrack({ ...reel, config: overrides }),
        motion: reelMotion({
          seed: reel.seed,
          widthPx: width,
          config: overrides,
          reducedMotion: plan.reducedMotion,
        }),
        textures: textures[i] ?? [],
        images: images[i] ?? [],
        slot,
        pool,
        marker,
        view,
        tickedTo: 0,
      });
    });
    context.invalidate();
  }

  /** A spin of the current config and width, standing in for the next one (its easing and its cards' band). */
  function standIn(): ReelMotion {
    return reelMotion({
      seed: 'keyframes',
      widthPx: context.size.width,
      config: overrides,
      reducedMotion: plan.reducedMotion,
    });
  }

  /**
   * The strips of a play whose reels bring these track seeds, laid out as the play's will be (the same
   * bands, cards and easing), from the case's items: only each stop's card waits for the answer.
   */
  function stagedStrips(seeds: readonly string[], images: (Blob | null)[]): CompositedStrip[] {
    if (plan.items.length === 0 || images.length !== plan.items.length) return [];
    const { width, height } = context.size;
    const slot = height / seeds.length;
    const reel = standIn();
    const { cards, keyframes, easing } = reelStrip(reel, trackLength(config), width);
    return seeds.map((seed, i) => {
      const track = buildTrack({ items: plan.items, seed, config: overrides });
      return {
        x: 0,
        y: i * slot,
        width,
        height: slot,
        images,
        cardWidth: config.itemWidth,
        cardHeight: config.cardHeight,
        cardY: Math.round((slot - config.cardHeight) / 2),
        cards: cards.map(({ index, x }) => ({ image: track[index]!, x })),
        keyframes,
        ...(easing ? { easing } : {}),
      };
    });
  }

  function draw(laid: LaidReel, x: number): void {
    const first = Math.floor(x / laid.motion.pitch);
    for (let k = 0; k < laid.pool.size; k++) {
      const item = laid.track[first + k];
      laid.pool.place(
        k,
        item === undefined ? undefined : laid.textures[item],
        (first + k) * laid.motion.pitch - x,
      );
    }
  }

  /** A reel as a composited strip: the cards the play passes and its scroll, keyframed from motion(). */
  function strip(laid: LaidReel, from: number): CompositedStrip {
    const { width } = context.size;
    const { cards, keyframes, easing } = reelStrip(laid.motion, laid.track.length, width);
    return {
      x: 0,
      y: laid.view.y,
      width,
      height: laid.slot,
      images: laid.images,
      cardWidth: config.itemWidth,
      cardHeight: config.cardHeight,
      cardY: laid.pool.container.y,
      cards: cards.map(({ index, x }) => ({ image: laid.track[index]!, x })),
      keyframes: keyframes.map(({ t, x }) => ({ t: from + t, x })),
      ...(easing ? { easing } : {}),
    };
  }

  function showPools(visible: boolean): void {
    for (const laid of reels) laid.pool.container.visible = visible;
    context.invalidate();
  }

  return {
    async prepare(next) {
      plan = next;
      startAt = null;
      settled = false;
      handedOff = false;
      void layout();
      await laidOut();
    },
    play(now) {
      if (reels.length === 0) return;
      startAt = now + config.startLeadMs;
      settled = false;
      for (const laid of reels) laid.tickedTo = 0;
      context.started(startAt);
    },
    frame(now) {
      const t = startAt === null ? 0 : now - startAt;
      let done = true;
      for (const laid of reels) {
        const pose = motion(laid.motion, t);
        if (!handedOff) draw(laid, pose.x);
        done &&= pose.done;
        if (startAt !== null && !settled) {
          for (const card of crossings(laid.motion, laid.tickedTo, t)) context.tick(card);
          laid.tickedTo = Math.max(laid.tickedTo, t);
        }
      }
      if (startAt === null) return false;
      if (done && !settled) {
        settled = true;
        context.settled({
          scene: 'roulette',
          reels: reels.map((laid) => {
            const index = indexAt(laid.motion, laid.motion.finalX);
            const item = laid.reel.items[laid.track[index] ?? -1];
            return { index, itemId: item?.id ?? '' };
          }),
        });
      }
      return !done;
    },
    ticks() {
      if (startAt === null) return [];
      const from = startAt;
      return reels
        .flatMap((laid) => crossingSchedule(laid.motion).map((t) => from + t))
        .sort((a, b) => a - b);
    },
    composite(on) {
      if (!on) {
        if (handedOff) {
          handedOff = false;
          showPools(true);
        }
        return [];
      }
      const ready = reels.every(
        (laid) => laid.textures.length > 0 && laid.images.length === laid.textures.length,
      );
      if (startAt === null || settled || reels.length === 0 || !ready) return [];
      handedOff = true;
      showPools(false);
      const from = startAt;
      return reels.map((laid) => strip(laid, from));
    },
    resize(_size: SceneSize) {
      void layout();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      void layout();
    },
    destroy() {
      layoutRun += 1;
      reels = [];
    },
  };
}
