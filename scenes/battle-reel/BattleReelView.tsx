import { extend, useApplication } from '@pixi/react';
import { Container, Graphics, Sprite, type Texture } from 'pixi.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { animate } from '../shared/animate.ts';
import { systemClock, type SceneClock } from '../shared/clock.ts';
import { drawReelMarker, SpritePool } from '../shared/reel.tsx';
import { useFrameDemand } from '../shared/ticker.ts';
import { resolveConfig, type BattleReelConfig } from './config.ts';
import { battleMotion, crossings, motion, wrapIndex } from './motion.ts';
import type { BattleCase } from './plan.ts';
import { bakeTiles, tileLook, type TileLook } from './tiles.ts';

extend({ Container, Graphics, Sprite });

export interface BattleReelViewProps {
  /** Width of the reel, px; the marker sits at its centre. */
  width: number;
  /** Height of the reel, px; tiles are centred in it. */
  height: number;
  /** The strip of cases, repeated endlessly (spec §9: 7). Memoize it. */
  images: readonly BattleCase[];
  /** Index into images of the case to stop on, or null while idle. */
  winnerIndex: number | null;
  /** A new value (with a winnerIndex) starts a new spin. */
  spinId: number | string;
  /** Extra loops over the strip before the winner; default the config's (spec §4: 3). */
  loops?: number;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
  /** Overrides of the tuning values in config.ts (the debug scene switcher). */
  config?: Partial<BattleReelConfig>;
  /** Time source; default the real time (the debug scene switcher passes one it can slow, pause and scrub). */
  clock?: SceneClock;
  /** A case's left edge reached the marker (its index into images), e.g. for a tick sound. */
  onTick?: (caseIndex: number) => void;
  /** The reel stopped with the winner under the marker; fired once per spin. */
  onSettled?: (winnerIndex: number) => void;
}

/** Textures of the cases, or null until they are baked. */
function useTileTextures(images: readonly BattleCase[], look: TileLook): Texture[] | null {
  const { app } = useApplication();
  const [baked, setBaked] = useState<{
    images: readonly BattleCase[];
    look: TileLook;
    textures: Texture[];
  }>();
  useEffect(() => {
    let live = true;
    void bakeTiles(app.renderer, images, look).then((textures) => {
      if (live) setBaked({ images, look, textures });
    });
    return () => {
      live = false;
    };
  }, [app, images, look]);
  return baked && baked.images === images && baked.look === look ? baked.textures : null;
}

interface Spin {
  key: string;
  startAt: number;
  startIndex: number;
  winnerIndex: number;
  tickedTo: number;
  settled: boolean;
}

/**
 * The battle screen's case reel, virtualized like the roulette: a pool of sprites just wide enough to
 * cover the reel, recycled as the strip scrolls. Each frame copies motion() onto the pool.
 */
export function BattleReelView(props: BattleReelViewProps) {
  const { width, height, images, winnerIndex, spinId, loops, reducedMotion, config: overrides } = props;
  const clock = props.clock ?? systemClock;
  const { app } = useApplication();
  const demand = useFrameDemand();
  const config = useMemo(() => resolveConfig(overrides), [overrides]);
  const look = useMemo(() => tileLook(config), [config]);
  const textures = useTileTextures(images, look);
  const pitch = config.itemWidth;
  const poolSize = Math.ceil(width / Math.max(pitch, 1)) + 1;
  const slots = useRef<(Sprite | null)[]>([]);
  // index into images of the case under the marker as last drawn: where the next spin starts
  const rest = useRef(0);

  const events = useRef({ onTick: props.onTick, onSettled: props.onSettled });
  useEffect(() => {
    events.current = { onTick: props.onTick, onSettled: props.onSettled };
  }, [props.onTick, props.onSettled]);

  const spinKey = winnerIndex === null ? null : `${spinId}|${winnerIndex}`;
  const spin = useRef<Spin>(null);

  useEffect(() => {
    if (!textures || images.length === 0) return;
    const count = images.length;
    const draw = (x: number) => {
      const first = Math.floor(x / pitch);
      slots.current.forEach((sprite, k) => {
        if (!sprite) return;
        sprite.texture = textures[wrapIndex(first + k, count)]!;
        sprite.x = (first + k) * pitch - x + config.tileGap / 2;
      });
    };

    if (spinKey === null || winnerIndex === null) {
      const idle = battleMotion({
        images,
        winnerIndex: 0,
        widthPx: width,
        startIndex: rest.current,
        config: overrides,
      });
      draw(idle.startX);
      demand.invalidate();
      return;
    }
    if (spin.current?.key !== spinKey) {
      // the tiles were baked just now or earlier: start a moment later, so the first frame lands at t = 0
      const startAt = clock.now() + config.startLeadMs;
      clock.spinStarted?.(startAt);
      spin.current = {
        key: spinKey,
        startAt,
        startIndex: wrapIndex(rest.current, count),
        winnerIndex,
        tickedTo: 0,
        settled: false,
      };
    }
    const state = spin.current;
    // derived on every run with the current width: a resize re-lays the reel out but keeps the spin
    const reel = battleMotion({
      images,
      winnerIndex: state.winnerIndex,
      widthPx: width,
      loops,
      startIndex: state.startIndex,
      config: overrides,
      reducedMotion,
    });
    const frame = () => {
      const t = clock.now() - state.startAt;
      const pose = motion(reel, t);
      draw(pose.x);
      rest.current = pose.caseIndex;
      if (!state.settled) {
        for (const slot of crossings(reel, state.tickedTo, t))
          events.current.onTick?.(wrapIndex(slot, count));
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return false;
      if (!state.settled) {
        state.settled = true;
        events.current.onSettled?.(state.winnerIndex);
      }
      return true;
    };
    return animate(app, demand, frame, clock);
  }, [
    app,
    demand,
    textures,
    images,
    spinKey,
    winnerIndex,
    width,
    loops,
    reducedMotion,
    overrides,
    pitch,
    config.tileGap,
    config.startLeadMs,
    poolSize,
    clock,
  ]);

  const drawMarker = useCallback(
    (g: Graphics) => drawReelMarker(g, width / 2, config.markerWidth, height, config.markerColor),
    [width, height, config.markerWidth, config.markerColor],
  );
  useEffect(() => demand.invalidate(), [demand, drawMarker]);

  return (
    <pixiContainer>
      <SpritePool y={Math.round((height - look.height) / 2)} size={poolSize} slots={slots} />
      <pixiGraphics draw={drawMarker} />
    </pixiContainer>
  );
}
