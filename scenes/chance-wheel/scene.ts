import { Container, Graphics, Text } from 'pixi.js';
import type { CompositedDisc, Scene, SceneContext } from '../runtime/contract.ts';
import { turnEasing, wheelRotation } from '../shared/wheel.ts';
import { formatChance, isInsideArc } from './chance.ts';
import { resolveConfig, type ChanceWheelConfig } from './config.ts';
import { bakeRingFace, drawDisc, drawRing, faceKey, ringGeometry } from './face.ts';
import {
  chanceMotion,
  crossings,
  crossingSchedule,
  discKeyframes,
  motion,
  type ChanceWheelMotion,
} from './motion.ts';
import type { ChanceWheelOutcome, ChanceWheelScenePlan } from './plan.ts';

/**
 * Baked faces kept for the compositor: the player goes back and forth between a few selections, each with
 * three faces (the arc neutral while it turns, and in the success and the fail colour once stopped).
 */
const FACES_KEPT = 24;
/** Longest wait for an idle moment before a face is baked anyway, ms. */
const BAKE_IDLE_TIMEOUT_MS = 1000;

/** The page's idle callbacks, where the thread has them (the main thread's window). */
const idle = globalThis as {
  requestIdleCallback?: (run: () => void, options: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/** Runs `run` when the thread is idle (soon, where it cannot tell); returns its cancel. */
function whenIdle(run: () => void): () => void {
  if (idle.requestIdleCallback && idle.cancelIdleCallback) {
    const id = idle.requestIdleCallback(run, { timeout: BAKE_IDLE_TIMEOUT_MS });
    return () => idle.cancelIdleCallback?.(id);
  }
  const id = setTimeout(run, 0);
  return () => clearTimeout(id);
}

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
 * the wheel stops, and `settled` follows resultDelayMs later. Where the runtime has a page compositor, the
 * ring (with the disc inside it) is baked ahead, once per face, when the thread is idle, and a roll hands
 * its turn to the compositor: the canvas keeps the pointer and the label above it and draws nothing until
 * the wheel stops; with the faces it may stop with baked too (the arc in the success and the fail colour),
 * the stopped wheel stays there, showing the verdict's face, until something changes it (see
 * CompositedDisc.holds).
 */
export function chanceWheelScene(context: SceneContext): Scene<ChanceWheelScenePlan, ChanceWheelConfig> {
  let overrides: Partial<ChanceWheelConfig> = {};
  let config = resolveConfig();
  let plan: ChanceWheelScenePlan = { chance: 0, rolled: null };
  let roll: Roll | null = null;
  // wheel fraction under the pointer as last drawn: where the next roll starts
  let rest = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The roll's ring is on the page's compositor: the disc and the ring are hidden until it comes back. */
  let handedOff = false;
  /**
   * The wheel stopped while its ring was on the page's compositor, which shows the verdict's colours (its
   * landed face): the hidden ring is drawn in them when it comes back, not as the wheel stops.
   */
  let stoppedAway = false;
  /** Encoded faces by faceOf(), newest last (null: it could not be read); the one baking and its cancel. */
  const faces = new Map<string, Blob | null>();
  let baking: { key: string; color: number; cancel: () => void } | null = null;
  /** The face staged on the page's compositor, and the easing of the roll it was staged for. */
  let stagedFace: string | null = null;
  let stagedEasing: string | null = null;
  /** The settings the staged easing was made for (the easing depends on nothing else, see turnEasing). */
  let stagedSettings: string | null = null;
  let destroyed = false;

  // bottom to top: the disc and the ring turn (and are handed off), the pointer and the label stay above
  const disc = new Graphics();
  const ring = new Container();
  const ringGraphics = new Graphics();
  ring.addChild(ringGraphics);
  const pointer = new Graphics();
  const label = new Text({ text: '', anchor: 0.5 });
  context.stage.addChild(disc, ring, pointer, label);

  const wheelSize = () => Math.min(context.size.width, context.size.height);
  /** The current selection's face with its arc in `arcColor` (default: neutral, as a roll turns it). */
  const faceOf = (arcColor = config.neutralColor) =>
    `${faceKey(plan.chance, wheelSize(), context.renderer.resolution, config)}|${arcColor}`;
  const currentFace = () => faceOf();
  /** The arc colours of the current selection's faces, in the order they are baked. */
  const faceColors = () => [config.neutralColor, config.successColor, config.failColor];

  function verdict(): ChanceWheelOutcome | null {
    if (plan.rolled === null) return plan.outcome ?? null;
    if (!roll?.stopped) return null;
    return rollVerdict(plan.rolled);
  }

  /** What a roll of `rolled` shows once it stops. */
  function rollVerdict(rolled: number): ChanceWheelOutcome {
    return plan.outcome ?? (isInsideArc(rolled, plan.chance) ? 'success' : 'fail');
  }

  /** Counts config edits (each gives a new config object): a part's key names the config it was drawn with. */
  let configVersion = 0;
  /** What each part was last drawn from: a part is drawn again only when this changes. */
  const drawnFrom = { disc: '', ring: '', pointer: '', labelStyle: '' };

  /** Whether `part` must be drawn again for `key` (and notes that it now is). */
  function changed(part: keyof typeof drawnFrom, key: string): boolean {
    if (drawnFrom[part] === key) return false;
    drawnFrom[part] = key;
    return true;
  }

  /**
   * Draws the wheel at rest from the plan, the config and the size. Each part is drawn again only when what
   * it shows changed: the wheel stopping changes only the arc's colour, so its landing frame redraws the ring
   * alone (a text's style set again re-renders it, and the disc and the pointer would be rebuilt for nothing).
   * `stage`: whether the face waits for the next roll now or (in a landing) once the thread is idle.
   */
  function redraw(stage: 'now' | 'idle' = 'now'): void {
    const geometry = ringGeometry(wheelSize(), config);
    const { radius, outer, width } = geometry;
    const shown = verdict();
    const arcColor =
      shown === 'success' ? config.successColor : shown === 'fail' ? config.failColor : config.neutralColor;
    const shape = `${wheelSize()}|${configVersion}`;

    if (changed('disc', shape)) drawDisc(disc, geometry, config).position.set(radius, radius);
    ring.position.set(radius, radius);
    if (changed('ring', `${shape}|${plan.chance}|${arcColor}`))
      drawRing(ringGraphics, geometry, plan.chance, arcColor, config);
    ring.rotation = wheelRotation(rest, config.direction);

    if (changed('pointer', shape)) {
      const length = radius * config.pointerSize;
      const tip = radius - outer + width * 0.6;
      pointer
        .clear()
        .poly([radius, tip, radius - length * 0.55, tip - length, radius + length * 0.55, tip - length])
        .fill(config.pointerColor);
    }

    label.text = plan.label ?? formatChance(plan.chance);
    const fontSize = Math.max(Math.round(radius * config.labelSize), 1);
    if (changed('labelStyle', `${config.labelColor}|${config.fontFamily}|${fontSize}`))
      label.style = { fill: config.labelColor, fontFamily: config.fontFamily, fontSize, fontWeight: '700' };
    label.position.set(radius, radius);
    context.invalidate();
    bakeWhenIdle();
    if (stage === 'now') stageFace();
    else stageWhenIdle();
  }

  let stagingSoon: (() => void) | null = null;

  /** stageFace() once the thread is idle (a landing's frame does not also make the next roll's turn). */
  function stageWhenIdle(): void {
    stagingSoon?.();
    stagingSoon = whenIdle(() => {
      stagingSoon = null;
      if (!destroyed) stageFace();
    });
  }

  /** The current face, once baked, waits on the page's compositor for the next roll (see SceneContext.standBy). */
  function stageFace(): void {
    stagingSoon?.();
    stagingSoon = null;
    const key = currentFace();
    const image = faces.get(key);
    if (!image) return;
    // every roll from here turns along the same curve, whatever it rolls (see turnEasing): it is made again
    // only when the settings change (a landing stages the same face, and making it costs a slow phone ms)
    const settings = `${configVersion}|${plan.reducedMotion === true}`;
    if (stagedFace === key && stagedSettings === settings) return;
    const next = chanceMotion({
      chance: plan.chance,
      rolled: 0,
      startFraction: rest,
      config: overrides,
      reducedMotion: plan.reducedMotion,
    });
    const easing = turnEasing(next, next.direction);
    stagedSettings = settings;
    if (stagedFace === key && stagedEasing === easing) return;
    stagedFace = key;
    stagedEasing = easing;
    context.standBy([discAt(image, [], easing)]);
  }

  /**
   * Gets the current selection's faces ready for a composited roll, one at a time: the one it turns, then
   * the two it may stop with (so the stopped wheel stays on the compositor, see CompositedDisc.holds). Each
   * is baked and encoded when the thread is idle (a selection change stays cheap, and a roll's start never
   * waits for it), once.
   */
  function bakeWhenIdle(): void {
    if (!context.composites || wheelSize() <= 0) return;
    const color = faceColors().find((c) => !faces.has(faceOf(c)));
    if (color === undefined) return;
    const key = faceOf(color);
    if (baking?.key === key) return;
    baking?.cancel();
    const job = { key, color, cancel: () => {} };
    const attempt = () => {
      // a moving wheel is drawn frame by frame: bake once it has stopped
      if (roll && !roll.stopped) job.cancel = whenIdle(attempt);
      else void bake(job);
    };
    job.cancel = whenIdle(attempt);
    baking = job;
  }

  async function bake(job: { key: string; color: number }): Promise<void> {
    if (baking !== job || destroyed) return;
    if (job.key !== faceOf(job.color)) {
      baking = null;
      bakeWhenIdle();
      return;
    }
    const geometry = ringGeometry(wheelSize(), config);
    const texture = bakeRingFace(context.renderer, geometry, plan.chance, job.color, config);
    const [image] = await context.stripImages([texture]);
    texture.destroy(true); // the encoded image is what the compositor shows
    if (baking === job) baking = null;
    if (destroyed) return;
    faces.delete(job.key);
    faces.set(job.key, image ?? null);
    while (faces.size > FACES_KEPT) faces.delete(faces.keys().next().value!);
    stageFace();
    bakeWhenIdle();
  }

  function showRing(visible: boolean): void {
    disc.visible = visible;
    ring.visible = visible;
    context.invalidate();
  }

  /**
   * The current roll's ring as a composited disc, or null when its face is not ready. With the face it
   * stops with ready too (the arc in the verdict's colour), it holds: the stopped wheel stays on the
   * compositor, and the landing draws nothing on the canvas (the pointer and the label do not change).
   */
  function discOf(state: Roll): CompositedDisc | null {
    const image = faces.get(currentFace());
    if (!image || plan.rolled === null) return null;
    const landed = faces.get(
      faceOf(rollVerdict(plan.rolled) === 'success' ? config.successColor : config.failColor),
    );
    return {
      ...discAt(
        image,
        discKeyframes(state.wheel).map(({ t, angle }) => ({ t: state.startAt + t, angle })),
        turnEasing(state.wheel, state.wheel.direction),
      ),
      ...(landed ? { holds: true, landedImage: landed } : {}),
    };
  }

  /** The ring's face as a disc filling the wheel's box. */
  function discAt(
    image: Blob,
    keyframes: CompositedDisc['keyframes'],
    easing: string | null,
  ): CompositedDisc {
    const size = wheelSize();
    return {
      kind: 'disc',
      x: 0,
      y: 0,
      width: size,
      height: size,
      image,
      keyframes,
      ...(easing ? { easing } : {}),
    };
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
      timer = undefined;
      plan = next;
      roll = null;
      handedOff = false;
      stoppedAway = false;
      showRing(true);
      redraw();
    },
    play(now) {
      if (plan.rolled === null) return;
      clearTimeout(timer);
      timer = undefined;
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
        // a phase edge: the colours change (on the page's landed face, where the ring rests there)
        if (handedOff) stoppedAway = true;
        else redraw('idle');
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
      return crossingSchedule(wheel).map((t) => startAt + t);
    },
    composite(on) {
      if (!on) {
        if (handedOff) {
          handedOff = false;
          showRing(true);
          if (stoppedAway) redraw();
          stoppedAway = false;
        }
        return [];
      }
      if (!roll || roll.stopped) return [];
      const shown = discOf(roll);
      if (!shown) return [];
      handedOff = true;
      showRing(false);
      return [shown];
    },
    resize() {
      redraw();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      configVersion += 1;
      if (roll && plan.rolled !== null) rebuild(roll, plan.rolled);
      redraw();
    },
    destroy() {
      destroyed = true;
      clearTimeout(timer);
      baking?.cancel();
      baking = null;
      stagingSoon?.();
    },
  };
}
