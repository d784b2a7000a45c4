import { extend, useApplication } from '@pixi/react';
import { Container, Graphics, Sprite, type Texture } from 'pixi.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { animate } from '../shared/animate.ts';
import { systemClock, type SceneClock } from '../shared/clock.ts';
import { useFrameDemand } from '../shared/ticker.ts';
import { wheelRotation } from '../shared/wheel.ts';
import { resolveConfig, type BonusWheelConfig } from './config.ts';
import { bakeWheelFace } from './face.ts';
import {
  bonusMotion,
  crossings,
  motion,
  segmentCentre,
  segmentCount,
  type BonusWheelMotion,
} from './motion.ts';
import type { BonusSegment, BonusSpin } from './plan.ts';

extend({ Container, Graphics, Sprite });

export interface BonusWheelViewProps {
  /** Side of the square the wheel fills, px. */
  size: number;
  /**
   * The prizes, segment 0 first (repeated if fewer than segmentCount). Memoize it. Segments are laid out
   * from the top against the spin (counter-clockwise for the default clockwise spin), so the pointer meets
   * them in index order; at rest, before the first spin, segment 0 is under the pointer.
   */
  segments: readonly BonusSegment[];
  /** The app's random choice for the spin (pickSpin()), or null while idle. */
  spin: BonusSpin | null;
  /** A new value (with a spin) starts a new spin. */
  spinId: number | string;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
  /** Overrides of the tuning values in config.ts (the debug scene switcher). */
  config?: Partial<BonusWheelConfig>;
  /** Time source; default the real time (the debug scene switcher passes one it can slow, pause and scrub). */
  clock?: SceneClock;
  /** A segment border passed the pointer; the argument is the segment it opens (e.g. for a click sound). */
  onTick?: (segment: number) => void;
  /** The wheel stopped on spin.segment; fired once per spin. */
  onSettled?: (segment: number) => void;
}

interface Spin {
  key: string;
  startAt: number;
  wheel: BonusWheelMotion;
  tickedTo: number;
  settled: boolean;
}

/** The face texture for these segments, look and size, or null until it is baked. */
function useFace(
  segments: readonly BonusSegment[],
  config: BonusWheelConfig,
  radius: number,
): Texture | null {
  const { app } = useApplication();
  const [baked, setBaked] = useState<{ texture: Texture }>();
  useEffect(() => {
    let live = true;
    void bakeWheelFace(app.renderer, segments, config, radius).then((texture) => {
      if (live) setBaked({ texture });
    });
    return () => {
      live = false;
    };
  }, [app, segments, config, radius]);
  // while a new face bakes (e.g. after a resize) the old one stays up, stretched to the new size
  return baked?.texture ?? null;
}

/**
 * The bonus wheel: a baked face sprite turning under a fixed pointer at the top. Each frame copies motion()
 * onto the sprite's rotation; React renders only when the data or the size changes.
 */
export function BonusWheelView(props: BonusWheelViewProps) {
  const { size, segments, spin, spinId, reducedMotion, config: overrides, clock = systemClock } = props;
  const { app } = useApplication();
  const demand = useFrameDemand();
  const config = useMemo(() => resolveConfig(overrides), [overrides]);
  const radius = (size / 2) * (1 - config.padding);
  const face = useFace(segments, config, radius);
  const sprite = useRef<Sprite>(null);
  // wheel fraction under the pointer as last drawn: where the next spin starts (first: segment 0's centre)
  const rest = useRef<number>(null);
  const firstRest = segmentCentre(0, segmentCount(config));

  const events = useRef({ onTick: props.onTick, onSettled: props.onSettled });
  useEffect(() => {
    events.current = { onTick: props.onTick, onSettled: props.onSettled };
  }, [props.onTick, props.onSettled]);

  const spinKey = spin === null ? null : `${spinId}|${spin.turns}|${spin.segment}|${spin.landing ?? ''}`;
  const current = useRef<Spin>(null);
  const ready = face !== null;

  useEffect(() => {
    if (spinKey === null || spin === null || !ready) {
      if (sprite.current)
        sprite.current.rotation = wheelRotation(rest.current ?? firstRest, config.direction);
      demand.invalidate();
      return;
    }
    if (current.current?.key !== spinKey) {
      const startAt = clock.now();
      clock.spinStarted?.(startAt);
      current.current = {
        key: spinKey,
        startAt,
        wheel: bonusMotion({
          ...spin,
          startFraction: rest.current ?? firstRest,
          config: overrides,
          reducedMotion,
        }),
        tickedTo: 0,
        settled: false,
      };
    }
    const state = current.current;
    const frame = () => {
      const t = clock.now() - state.startAt;
      const pose = motion(state.wheel, t);
      rest.current = pose.fraction;
      if (sprite.current) sprite.current.rotation = pose.rotation;
      if (!state.settled) {
        for (const segment of crossings(state.wheel, state.tickedTo, t)) events.current.onTick?.(segment);
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return false;
      if (!state.settled) {
        state.settled = true;
        events.current.onSettled?.(state.wheel.segment);
      }
      return true;
    };
    return animate(app, demand, frame, clock);
  }, [app, demand, spinKey, spin, ready, overrides, reducedMotion, config.direction, firstRest, clock]);

  const centre = size / 2;
  const drawFront = useCallback(
    (g: Graphics) => {
      const pointer = radius * config.pointerSize;
      const tip = centre - radius + pointer * 0.55;
      g.clear()
        .circle(centre, centre, radius * config.hubSize)
        .fill(config.hubColor)
        .poly([centre, tip, centre - pointer * 0.5, tip - pointer, centre + pointer * 0.5, tip - pointer])
        .fill(config.pointerColor)
        .stroke({ width: Math.max(radius * 0.012, 1), color: config.borderColor });
    },
    [
      centre,
      radius,
      config.pointerSize,
      config.hubSize,
      config.hubColor,
      config.pointerColor,
      config.borderColor,
    ],
  );
  useEffect(() => demand.invalidate(), [demand, drawFront, face]);

  return (
    <pixiContainer>
      {face && (
        <pixiSprite
          ref={(node: Sprite | null) => {
            sprite.current = node;
            if (node) node.rotation = wheelRotation(rest.current ?? firstRest, config.direction);
          }}
          texture={face}
          anchor={0.5}
          x={centre}
          y={centre}
          width={radius * 2}
          height={radius * 2}
        />
      )}
      <pixiGraphics draw={drawFront} />
    </pixiContainer>
  );
}
