import { Graphics, type Texture } from 'pixi.js';
import type { CompositedStrip, Scene, SceneContext } from '../runtime/contract.ts';
import { drawReelMarker, SpritePool } from '../shared/reel.ts';
import { resolveConfig, type BattleReelConfig } from './config.ts';
import {
  battleMotion,
  battleStrip,
  crossings,
  crossingSchedule,
  motion,
  wrapIndex,
  type BattleReelMotion,
} from './motion.ts';
import type { BattleReelScenePlan } from './plan.ts';
import { bakeTiles, tileLook } from './tiles.ts';

interface Spin {
  startAt: number;
  startIndex: number;
  winnerIndex: number;
  reel: BattleReelMotion;
  tickedTo: number;
  settled: boolean;
}

/**
 * The battle screen's case reel, virtualized like the roulette: a pool of sprites just wide enough to
 * cover the reel, recycled as the strip scrolls. frame() copies motion() onto the pool. Where the runtime
 * has a compositor (the main thread), a spin is handed to it as one strip of the tiles it passes.
 */
export function battleReelScene(context: SceneContext): Scene<BattleReelScenePlan, BattleReelConfig> {
  let overrides: Partial<BattleReelConfig> = {};
  let config = resolveConfig();
  let plan: BattleReelScenePlan = { images: [], winnerIndex: null };
  let textures: Texture[] = [];
  /** The tiles as images for a composited spin (empty unless the runtime composites). */
  let images: (Blob | null)[] = [];
  let spin: Spin | null = null;
  // case under the marker as last drawn: where the next spin starts
  let rest = 0;
  let bakeRun = 0;
  /** The spin's strip is on the page's compositor: the pool is hidden until it comes back. */
  let handedOff = false;
  let warming = false;
  let destroyed = false;

  const pool = new SpritePool();
  const marker = new Graphics();
  context.stage.addChild(pool.container, marker);

  function motionOf(startIndex: number, winnerIndex: number): BattleReelMotion {
    return battleMotion({
      images: plan.images,
      winnerIndex,
      widthPx: context.size.width,
      loops: plan.loops,
      startIndex,
      config: overrides,
      reducedMotion: plan.reducedMotion,
    });
  }

  /**
   * The case under the marker now: where a spin under way is (a handed-off one draws no frame to note it
   * in `rest`), else where the last one stopped.
   */
  function restNow(): number {
    return spin ? motion(spin.reel, context.clock.now() - spin.startAt).caseIndex : rest;
  }

  function showPool(visible: boolean): void {
    pool.container.visible = visible;
    context.invalidate();
  }

  /**
   * The spin as a composited strip: the tiles it passes (those of any winner from its start, see
   * battleStrip), drawn where draw() puts them, and its scroll.
   */
  function strip(state: Pick<Spin, 'startAt' | 'reel'>): CompositedStrip {
    const { width, height } = context.size;
    const look = tileLook(config);
    const { tiles, keyframes, easing } = battleStrip(state.reel, width, config.tileGap);
    return {
      x: 0,
      y: 0,
      width,
      height,
      images,
      cardWidth: look.width,
      cardHeight: look.height,
      cardY: pool.container.y,
      cards: tiles.map(({ image, x }) => ({ image, x })),
      keyframes: keyframes.map(({ t, x }) => ({ t: state.startAt + t, x })),
      ...(easing ? { easing } : {}),
    };
  }

  /**
   * Bakes the plan's upcoming strips and their images, one after another, while no spin plays (each is
   * made once per renderer and look: their round's layout then finds them ready). Stops when a spin
   * starts; the next idle moment goes on where it stopped.
   */
  async function warm(): Promise<void> {
    if (warming) return;
    warming = true;
    try {
      for (const cases of plan.upcoming ?? []) {
        if ((spin && !spin.settled) || destroyed) return;
        const baked = await bakeTiles(context.renderer, cases, tileLook(config), context.art);
        await context.stripImages(baked);
      }
    } finally {
      warming = false;
    }
  }

  function draw(x: number): void {
    const count = plan.images.length;
    const pitch = config.itemWidth;
    const first = Math.floor(x / pitch);
    for (let k = 0; k < pool.size; k++) {
      pool.place(k, textures[wrapIndex(first + k, count)], (first + k) * pitch - x + config.tileGap / 2);
    }
  }

  async function layout(): Promise<void> {
    const run = ++bakeRun;
    const { width, height } = context.size;
    const look = tileLook(config);
    pool.resize(Math.ceil(width / Math.max(config.itemWidth, 1)) + 1);
    pool.container.y = Math.round((height - look.height) / 2);
    drawReelMarker(marker, width / 2, config.markerWidth, height, config.markerColor);
    const baked = await bakeTiles(context.renderer, plan.images, look, context.art);
    // encoded (and handed to the page to decode) as they bake, ahead of any play that shows them
    const encoded = await context.stripImages(baked);
    if (run !== bakeRun) return;
    textures = baked;
    images = encoded;
    if (spin) spin.reel = motionOf(spin.startIndex, spin.winnerIndex);
    if (plan.images.length > 0 && !spin) draw(motionOf(rest, 0).startX);
    context.animate(); // a spin under way redraws its pose; else one frame
    // a plan with nothing to play (a battle not started yet) leaves the reel idle: time to warm, and to
    // sample the spin's ease into keyframes for each landing it may have (one or two distance bands)
    if (plan.winnerIndex === null) {
      for (let winner = 0; winner < plan.images.length; winner++) crossingSchedule(motionOf(rest, winner));
      // the next spin's strip, from where the reel rests, waits painted on the page: its tiles are every
      // winner's (see battleStrip), so the spin only starts its scroll
      const staged = context.composites && plan.images.length > 0 && images.length === textures.length;
      context.standBy(staged ? [strip({ startAt: 0, reel: motionOf(rest, 0) })] : []);
      void warm();
    }
  }

  return {
    async prepare(next) {
      rest = restNow();
      plan = next;
      spin = null;
      handedOff = false;
      pool.container.visible = true;
      await layout();
    },
    play(now) {
      if (plan.winnerIndex === null || plan.images.length === 0) return;
      const startIndex = wrapIndex(restNow(), plan.images.length);
      const startAt = now + config.startLeadMs;
      spin = {
        startAt,
        startIndex,
        winnerIndex: plan.winnerIndex,
        reel: motionOf(startIndex, plan.winnerIndex),
        tickedTo: 0,
        settled: false,
      };
      context.started(startAt);
    },
    frame(now) {
      if (!spin) return false;
      const state = spin;
      const t = now - state.startAt;
      const pose = motion(state.reel, t);
      // while the compositor scrolls the strip, the canvas keeps only the marker
      if (!handedOff) draw(pose.x);
      rest = pose.caseIndex;
      if (!state.settled) {
        for (const slot of crossings(state.reel, state.tickedTo, t))
          context.tick(wrapIndex(slot, state.reel.count));
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return true;
      if (!state.settled) {
        state.settled = true;
        context.settled({ scene: 'battle-reel', caseIndex: pose.caseIndex });
        void warm();
      }
      return false;
    },
    ticks() {
      if (!spin) return [];
      const { reel, startAt } = spin;
      return crossingSchedule(reel).map((t) => startAt + t);
    },
    composite(on) {
      if (!on) {
        if (handedOff) {
          handedOff = false;
          showPool(true);
        }
        return [];
      }
      const ready = textures.length > 0 && images.length === textures.length;
      // (a spin that starts where it ends has nothing to scroll: frames settle it at once)
      if (!spin || spin.settled || !ready || spin.reel.finalX === spin.reel.startX) return [];
      handedOff = true;
      showPool(false);
      return [strip(spin)];
    },
    resize() {
      void layout();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      void layout();
    },
    destroy() {
      bakeRun += 1;
      destroyed = true;
    },
  };
}
