import { extend, useApplication } from '@pixi/react';
import { Container, Graphics, Text, type TextStyleOptions } from 'pixi.js';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { animate } from '../shared/animate.ts';
import { systemClock, type SceneClock } from '../shared/clock.ts';
import { useFrameDemand } from '../shared/ticker.ts';
import { localAngle, wheelRotation } from '../shared/wheel.ts';
import { clampChance, formatChance, isInsideArc } from './chance.ts';
import { resolveConfig, type ChanceWheelConfig } from './config.ts';
import { chanceMotion, crossings, motion, type ChanceWheelMotion } from './motion.ts';

extend({ Container, Graphics, Text });

/** An outcome the app already knows: the server's success flag, or 'fail' when the roll request failed. */
export type ChanceWheelOutcome = 'success' | 'fail';

export interface ChanceWheelViewProps {
  /** Side of the square the wheel fills, px. */
  size: number;
  /** Probability of success in [0, 1] (baseChance / coef): the arc's share of the ring. Keep it fixed during a roll. */
  chance: number;
  /** Text in the centre; default formatChance(chance), e.g. '19.5%'. */
  label?: string;
  /** The server's roll in [0, 1), or null while idle or waiting for the server. */
  rolled: number | null;
  /** A new value (with a number in `rolled`) starts a new roll. */
  spinId: number | string;
  /**
   * The outcome as the app knows it. With a roll, it replaces the wheel's own verdict (rolled < chance) in
   * the colours shown once the wheel stops and in onResult; with rolled null, the colours show it at once
   * (e.g. 'fail' when the roll request failed: no roll, red ring, no onResult).
   */
  outcome?: ChanceWheelOutcome | null;
  /** The player prefers reduced motion. */
  reducedMotion?: boolean;
  /** Overrides of the tuning values in config.ts (the debug scene switcher). */
  config?: Partial<ChanceWheelConfig>;
  /** Time source; default the real time (the debug scene switcher passes one it can slow, pause and scrub). */
  clock?: SceneClock;
  /** A notch of the ring passed the pointer (0 to tickCount - 1), e.g. for a click sound. */
  onTick?: (notch: number) => void;
  /** resultDelayMs after the wheel stopped, once per roll: whether the roll succeeded. */
  onResult?: (success: boolean) => void;
}

interface Roll {
  key: string;
  startAt: number;
  wheel: ChanceWheelMotion;
  tickedTo: number;
  stopped: boolean;
  resulted: boolean;
}

/**
 * The chance wheel: a ring turning under a fixed pointer at the top, with the success arc laid out from the
 * wheel's top. Each frame copies motion() onto the ring's rotation; React renders only at phase edges.
 */
export function ChanceWheelView(props: ChanceWheelViewProps) {
  const { size, chance, rolled, spinId, outcome, reducedMotion, config: overrides } = props;
  const clock = props.clock ?? systemClock;
  const { app } = useApplication();
  const demand = useFrameDemand();
  const config = useMemo(() => resolveConfig(overrides), [overrides]);
  const ring = useRef<Container>(null);
  // wheel fraction under the pointer as last drawn: where the next roll starts
  const rest = useRef(0);

  const events = useRef({ onTick: props.onTick, onResult: props.onResult, outcome });
  useEffect(() => {
    events.current = { onTick: props.onTick, onResult: props.onResult, outcome };
  }, [props.onTick, props.onResult, outcome]);

  const rollKey = rolled === null ? null : `${spinId}|${rolled}`;
  const roll = useRef<Roll>(null);
  const [stoppedKey, setStoppedKey] = useState<string | null>(null);

  useEffect(() => {
    if (rollKey === null || rolled === null) {
      if (ring.current) ring.current.rotation = wheelRotation(rest.current, config.direction);
      demand.invalidate();
      return;
    }
    if (roll.current?.key !== rollKey) {
      const wheel = chanceMotion({
        chance,
        rolled,
        startFraction: rest.current,
        config: overrides,
        reducedMotion,
      });
      const startAt = clock.now();
      clock.spinStarted?.(startAt);
      roll.current = {
        key: rollKey,
        startAt,
        wheel,
        tickedTo: 0,
        stopped: false,
        resulted: false,
      };
    }
    const state = roll.current;
    const { wheel } = state;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = () => {
      if (state.resulted) return;
      state.resulted = true;
      const known = events.current.outcome;
      events.current.onResult?.(known ? known === 'success' : wheel.success);
    };

    const frame = () => {
      const t = clock.now() - state.startAt;
      const pose = motion(wheel, t);
      rest.current = pose.fraction;
      if (ring.current) ring.current.rotation = pose.rotation;
      if (!state.stopped) {
        for (const notch of crossings(wheel, state.tickedTo, t)) events.current.onTick?.(notch);
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return false;
      if (!state.stopped) {
        state.stopped = true;
        setStoppedKey(state.key); // a phase edge: the colours change
      }
      if (!state.resulted && timer === undefined) {
        // nothing moves while the result waits: a timer, not frames
        const wait = state.startAt + wheel.durationMs + wheel.resultDelayMs - clock.now();
        if (wait <= 0) result();
        else timer = setTimeout(result, wait);
      }
      return true;
    };
    const stop = animate(app, demand, frame, clock);
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [app, demand, rollKey, rolled, chance, overrides, reducedMotion, config.direction, clock]);

  const verdict: ChanceWheelOutcome | null =
    rolled === null
      ? (outcome ?? null)
      : stoppedKey === rollKey
        ? (outcome ?? (isInsideArc(rolled, chance) ? 'success' : 'fail'))
        : null;
  const arcColor =
    verdict === 'success' ? config.successColor : verdict === 'fail' ? config.failColor : config.neutralColor;

  const radius = size / 2;
  const outer = radius * (1 - config.padding);
  const width = radius * config.ringWidth;
  const middle = outer - width / 2;

  const drawRing = useCallback(
    (g: Graphics) => {
      const arc = clampChance(chance);
      g.clear().circle(0, 0, middle).stroke({ width, color: config.trackColor });
      if (arc >= 1) {
        g.circle(0, 0, middle).stroke({ width, color: arcColor });
      } else if (arc > 0) {
        const from = localAngle(0, config.direction);
        const to = localAngle(arc, config.direction);
        g.moveTo(Math.cos(from) * middle, Math.sin(from) * middle) // else the path joins the arc from the centre
          .arc(0, 0, middle, from, to, to < from)
          .stroke({ width, color: arcColor, cap: 'butt' });
      }
      for (let k = 0; k < config.tickCount; k++) {
        const angle = localAngle(k / config.tickCount, config.direction);
        const cos = Math.cos(angle);
        const sin = Math.sin(angle);
        g.moveTo(cos * (outer - width), sin * (outer - width)).lineTo(cos * outer, sin * outer);
      }
      if (config.tickCount > 0) g.stroke({ width: Math.max(1, width * 0.08), color: config.tickColor });
    },
    [
      chance,
      middle,
      width,
      outer,
      arcColor,
      config.trackColor,
      config.direction,
      config.tickCount,
      config.tickColor,
    ],
  );

  const drawStatic = useCallback(
    (g: Graphics) => {
      const pointer = radius * config.pointerSize;
      const tip = radius - outer + width * 0.6;
      g.clear()
        .circle(radius, radius, outer - width)
        .fill(config.discColor)
        .poly([radius, tip, radius - pointer * 0.55, tip - pointer, radius + pointer * 0.55, tip - pointer])
        .fill(config.pointerColor);
    },
    [radius, outer, width, config.pointerSize, config.discColor, config.pointerColor],
  );

  const labelStyle = useMemo<TextStyleOptions>(
    () => ({
      fill: config.labelColor,
      fontFamily: config.fontFamily,
      fontSize: Math.max(Math.round(radius * config.labelSize), 1),
      fontWeight: '700',
    }),
    [radius, config.labelColor, config.fontFamily, config.labelSize],
  );
  const label = props.label ?? formatChance(chance);

  useEffect(() => demand.invalidate(), [demand, drawRing, drawStatic, labelStyle, label]);

  return (
    <pixiContainer>
      <pixiGraphics draw={drawStatic} />
      <pixiContainer
        ref={(container: Container | null) => {
          ring.current = container;
          if (container) container.rotation = wheelRotation(rest.current, config.direction);
        }}
        x={radius}
        y={radius}
      >
        <pixiGraphics draw={drawRing} />
      </pixiContainer>
      <pixiText text={label} style={labelStyle} anchor={0.5} x={radius} y={radius} />
    </pixiContainer>
  );
}
