import { extend, useApplication } from '@pixi/react';
import { Container, Graphics, Sprite, type Texture } from 'pixi.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { animate } from '../shared/animate.ts';
import { bakeCards, type CardLook } from '../shared/cards.ts';
import { systemClock, type SceneClock } from '../shared/clock.ts';
import { drawReelMarker, SpritePool } from '../shared/reel.tsx';
import { useFrameDemand } from '../shared/ticker.ts';
import { cardLook, resolveConfig } from './config.ts';
import { crossings, motion, reelMotion } from './motion.ts';
import type { RoulettePlan } from './plan.ts';
import { buildTrack } from './track.ts';

extend({ Container, Graphics, Sprite });

export interface RouletteViewProps {
  /** Read by identity: keep the object stable while the reel spins (a new plan recomputes the layout). */
  plan: RoulettePlan;
  /** Top of the reel inside the canvas, px. */
  y?: number;
  /** Height of the reel, px; cards are centred in it. */
  height: number;
  /** Time source of plan.startAt and the motion; default the real time (performance.now()). */
  clock?: SceneClock;
  /** A card's left edge reached the marker (track index), e.g. for a tick sound. */
  onTick?: (cardIndex: number) => void;
  /** The reel stopped on the winner; fired once per spin. */
  onSettled?: () => void;
}

/** Textures of the plan's items, or null until they are baked. */
function useCardTextures(plan: RoulettePlan, look: CardLook): Texture[] | null {
  const { app } = useApplication();
  const [baked, setBaked] = useState<{ items: RoulettePlan['items']; look: CardLook; textures: Texture[] }>();
  useEffect(() => {
    let live = true;
    void bakeCards(app.renderer, plan.items, look).then((textures) => {
      if (live) setBaked({ items: plan.items, look, textures });
    });
    return () => {
      live = false;
    };
  }, [app, plan.items, look]);
  return baked && baked.items === plan.items && baked.look === look ? baked.textures : null;
}

/**
 * One virtualized reel: a pool of sprites, just enough to cover the width, recycled as the track scrolls.
 * Each frame copies motion() onto the pool; React renders only when the plan or the size changes.
 */
export function RouletteView({
  plan,
  y = 0,
  height,
  clock = systemClock,
  onTick,
  onSettled,
}: RouletteViewProps) {
  const { app } = useApplication();
  const demand = useFrameDemand();
  const config = useMemo(() => resolveConfig(plan.config), [plan.config]);
  const look = useMemo(() => cardLook(config), [config]);
  const track = useMemo(
    () =>
      buildTrack({ items: plan.items, winnerIndex: plan.winnerIndex, seed: plan.seed, config: plan.config }),
    [plan.items, plan.winnerIndex, plan.seed, plan.config],
  );
  const reel = useMemo(
    () =>
      reelMotion({
        seed: plan.seed,
        widthPx: plan.widthPx,
        config: plan.config,
        reducedMotion: plan.reducedMotion,
      }),
    [plan.seed, plan.widthPx, plan.config, plan.reducedMotion],
  );
  const textures = useCardTextures(plan, look);
  const poolSize = Math.ceil(plan.widthPx / reel.pitch) + 1;
  const slots = useRef<(Sprite | null)[]>([]);

  const events = useRef({ onTick, onSettled });
  useEffect(() => {
    events.current = { onTick, onSettled };
  }, [onTick, onSettled]);

  // The spin: its start time and how far ticks went, kept across re-layouts such as a resize.
  const spin = useRef<{ key: string; startAt: number; tickedTo: number; settled: boolean }>(null);
  const spinKey = `${plan.seed}|${plan.winnerIndex}|${plan.startAt ?? ''}`;

  useEffect(() => {
    if (!textures) return;
    if (spin.current?.key !== spinKey) {
      const startAt = plan.startAt ?? clock.now();
      // a reel mounted after its start (e.g. remounted) does not replay the ticks it missed
      spin.current = {
        key: spinKey,
        startAt,
        tickedTo: Math.max(clock.now() - startAt, 0),
        settled: false,
      };
    }
    const state = spin.current;

    const frame = () => {
      const t = clock.now() - state.startAt;
      const pose = motion(reel, t);
      const first = Math.floor(pose.x / reel.pitch);
      slots.current.forEach((sprite, k) => {
        if (!sprite) return;
        const item = track[first + k];
        sprite.visible = item !== undefined;
        if (item === undefined) return;
        sprite.texture = textures[item]!;
        sprite.x = (first + k) * reel.pitch - pose.x;
      });
      if (!state.settled) {
        for (const cardIndex of crossings(reel, state.tickedTo, t)) events.current.onTick?.(cardIndex);
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return false;
      if (!state.settled) {
        state.settled = true;
        events.current.onSettled?.();
      }
      return true;
    };
    return animate(app, demand, frame, clock);
  }, [app, demand, reel, track, textures, spinKey, plan.startAt, clock]);

  const drawMarker = useCallback(
    (g: Graphics) => drawReelMarker(g, reel.markerX, config.markerWidth, height, config.markerColor),
    [reel.markerX, height, config.markerWidth, config.markerColor],
  );
  useEffect(() => demand.invalidate(), [demand, drawMarker, y]);

  return (
    <pixiContainer y={y}>
      <SpritePool y={Math.round((height - config.cardHeight) / 2)} size={poolSize} slots={slots} />
      <pixiGraphics draw={drawMarker} />
    </pixiContainer>
  );
}
