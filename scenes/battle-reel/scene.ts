import { Graphics, type Texture } from 'pixi.js';
import type { Scene, SceneContext } from '../runtime/contract.ts';
import { crossingTimes } from '../shared/ticks.ts';
import { drawReelMarker, SpritePool } from '../shared/reel.ts';
import { resolveConfig, type BattleReelConfig } from './config.ts';
import { battleMotion, crossings, motion, wrapIndex, type BattleReelMotion } from './motion.ts';
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
 * cover the reel, recycled as the strip scrolls. frame() copies motion() onto the pool.
 */
export function battleReelScene(context: SceneContext): Scene<BattleReelScenePlan, BattleReelConfig> {
  let overrides: Partial<BattleReelConfig> = {};
  let config = resolveConfig();
  let plan: BattleReelScenePlan = { images: [], winnerIndex: null };
  let textures: Texture[] = [];
  let spin: Spin | null = null;
  // case under the marker as last drawn: where the next spin starts
  let rest = 0;
  let bakeRun = 0;

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
    if (run !== bakeRun) return;
    textures = baked;
    if (spin) spin.reel = motionOf(spin.startIndex, spin.winnerIndex);
    if (plan.images.length > 0 && !spin) draw(motionOf(rest, 0).startX);
    context.animate(); // a spin under way redraws its pose; else one frame
  }

  return {
    async prepare(next) {
      plan = next;
      spin = null;
      await layout();
    },
    play(now) {
      if (plan.winnerIndex === null || plan.images.length === 0) return;
      const startIndex = wrapIndex(rest, plan.images.length);
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
      draw(pose.x);
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
      }
      return false;
    },
    ticks() {
      if (!spin) return [];
      const { reel, startAt } = spin;
      return crossingTimes(reel.durationMs, (a, b) => crossings(reel, a, b)).map((t) => startAt + t);
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
    },
  };
}
