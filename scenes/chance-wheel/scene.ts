import { Container, Graphics, Text } from 'pixi.js';
import type { Scene, SceneContext } from '../runtime/contract.ts';
import { crossingTimes } from '../shared/ticks.ts';
import { localAngle, wheelRotation } from '../shared/wheel.ts';
import { clampChance, formatChance, isInsideArc } from './chance.ts';
import { resolveConfig, type ChanceWheelConfig } from './config.ts';
import { chanceMotion, crossings, motion, type ChanceWheelMotion } from './motion.ts';
import type { ChanceWheelOutcome, ChanceWheelScenePlan } from './plan.ts';

interface Roll {
  startAt: number;
  wheel: ChanceWheelMotion;
  tickedTo: number;
  stopped: boolean;
  resulted: boolean;
}

/**
 * The upgrade game's chance wheel: a ring turning under a fixed pointer at the top, with the success arc
 * laid out from the wheel's top. frame() copies motion() onto the ring's rotation; the colours change when
 * the wheel stops, and `settled` follows resultDelayMs later.
 */
export function chanceWheelScene(context: SceneContext): Scene<ChanceWheelScenePlan, ChanceWheelConfig> {
  let overrides: Partial<ChanceWheelConfig> = {};
  let config = resolveConfig();
  let plan: ChanceWheelScenePlan = { chance: 0, rolled: null };
  let roll: Roll | null = null;
  // wheel fraction under the pointer as last drawn: where the next roll starts
  let rest = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const backdrop = new Graphics();
  const ring = new Container();
  const ringGraphics = new Graphics();
  ring.addChild(ringGraphics);
  const label = new Text({ text: '', anchor: 0.5 });
  context.stage.addChild(backdrop, ring, label);

  function verdict(): ChanceWheelOutcome | null {
    if (plan.rolled === null) return plan.outcome ?? null;
    if (!roll?.stopped) return null;
    return plan.outcome ?? (isInsideArc(plan.rolled, plan.chance) ? 'success' : 'fail');
  }

  function redraw(): void {
    const size = Math.min(context.size.width, context.size.height);
    const radius = size / 2;
    const outer = radius * (1 - config.padding);
    const width = radius * config.ringWidth;
    const middle = outer - width / 2;
    const shown = verdict();
    const arcColor =
      shown === 'success' ? config.successColor : shown === 'fail' ? config.failColor : config.neutralColor;

    const pointer = radius * config.pointerSize;
    const tip = radius - outer + width * 0.6;
    backdrop
      .clear()
      .circle(radius, radius, outer - width)
      .fill(config.discColor)
      .poly([radius, tip, radius - pointer * 0.55, tip - pointer, radius + pointer * 0.55, tip - pointer])
      .fill(config.pointerColor);

    ring.position.set(radius, radius);
    const arc = clampChance(plan.chance);
    const g = ringGraphics.clear().circle(0, 0, middle).stroke({ width, color: config.trackColor });
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
    ring.rotation = wheelRotation(rest, config.direction);

    label.text = plan.label ?? formatChance(plan.chance);
    label.style = {
      fill: config.labelColor,
      fontFamily: config.fontFamily,
      fontSize: Math.max(Math.round(radius * config.labelSize), 1),
      fontWeight: '700',
    };
    label.position.set(radius, radius);
    context.invalidate();
  }

  function result(state: Roll): void {
    if (state.resulted) return;
    state.resulted = true;
    const success = plan.outcome ? plan.outcome === 'success' : state.wheel.success;
    context.settled({ scene: 'chance-wheel', success, fraction: rest });
  }

  function rebuild(state: Roll, rolled: number): void {
    state.wheel = chanceMotion({
      chance: plan.chance,
      rolled,
      startFraction: state.wheel.startTurns,
      config: overrides,
      reducedMotion: plan.reducedMotion,
    });
  }

  return {
    async prepare(next) {
      clearTimeout(timer);
      plan = next;
      roll = null;
      redraw();
    },
    play(now) {
      if (plan.rolled === null) return;
      clearTimeout(timer);
      const wheel = chanceMotion({
        chance: plan.chance,
        rolled: plan.rolled,
        startFraction: rest,
        config: overrides,
        reducedMotion: plan.reducedMotion,
      });
      roll = { startAt: now, wheel, tickedTo: 0, stopped: false, resulted: false };
      context.started(now);
      redraw();
    },
    frame(now) {
      if (!roll) return false;
      const state = roll;
      const t = now - state.startAt;
      const pose = motion(state.wheel, t);
      rest = pose.fraction;
      ring.rotation = pose.rotation;
      if (!state.stopped) {
        for (const notch of crossings(state.wheel, state.tickedTo, t)) context.tick(notch);
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return true;
      if (!state.stopped) {
        state.stopped = true;
        redraw(); // a phase edge: the colours change
      }
      if (!state.resulted && timer === undefined) {
        // nothing moves while the result waits: a timer, not frames
        const wait =
          (state.startAt + state.wheel.durationMs + state.wheel.resultDelayMs - now) / context.clock.rate;
        if (wait <= 0 || context.clock.isPaused) {
          if (wait <= 0) result(state);
        } else {
          timer = setTimeout(() => {
            timer = undefined;
            result(state);
          }, wait);
        }
      }
      return false;
    },
    ticks() {
      if (!roll) return [];
      const { wheel, startAt } = roll;
      return crossingTimes(wheel.durationMs, (a, b) => crossings(wheel, a, b)).map((t) => startAt + t);
    },
    resize() {
      redraw();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      if (roll && plan.rolled !== null) rebuild(roll, plan.rolled);
      redraw();
    },
    destroy() {
      clearTimeout(timer);
    },
  };
}
