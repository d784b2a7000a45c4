import { Graphics, Sprite, Texture } from 'pixi.js';
import type { CompositedDisc, Scene, SceneContext } from '../runtime/contract.ts';
import { turnEasing, wheelRotation } from '../shared/wheel.ts';
import { resolveConfig, type BonusWheelConfig } from './config.ts';
import { bakeWheelFace } from './face.ts';
import {
  bonusMotion,
  crossings,
  crossingSchedule,
  discKeyframes,
  motion,
  segmentCentre,
  segmentCount,
  type BonusWheelMotion,
} from './motion.ts';
import type { BonusWheelScenePlan } from './plan.ts';

interface Spin {
  startAt: number;
  wheel: BonusWheelMotion;
  startFraction: number;
  tickedTo: number;
  settled: boolean;
}

/**
 * The bonus wheel: a baked face sprite turning under a fixed pointer at the top. frame() copies motion()
 * onto the sprite's rotation; `settled` names the segment it stopped on. Where the runtime has a page
 * compositor, the face is also encoded as it bakes, and a spin hands its turn to the compositor: the
 * canvas keeps the hub and the pointer above it and draws nothing, and the stopped face stays there until
 * something changes it (see CompositedDisc.holds).
 */
export function bonusWheelScene(context: SceneContext): Scene<BonusWheelScenePlan, BonusWheelConfig> {
  let overrides: Partial<BonusWheelConfig> = {};
  let config = resolveConfig();
  let plan: BonusWheelScenePlan = { segments: [], spin: null };
  let spin: Spin | null = null;
  // wheel fraction under the pointer as last drawn: where the next spin starts (first: segment 0's centre)
  let rest: number | null = null;
  let bakeRun = 0;
  /** The face's encoded image for the compositor, once ready, and the texture it shows. */
  let faceImage: { texture: Texture; image: Blob } | null = null;
  /** The spin's face is on the page's compositor: the sprite is hidden until it comes back. */
  let handedOff = false;
  /** The face's box on the surface, CSS px: its centre and radius as laid out. */
  let box = { centre: 0, radius: 0 };

  const face = new Sprite(Texture.EMPTY);
  face.anchor.set(0.5);
  const front = new Graphics();
  context.stage.addChild(face, front);

  const restFraction = () => rest ?? segmentCentre(0, segmentCount(config));

  async function layout(): Promise<void> {
    const run = ++bakeRun;
    const size = Math.min(context.size.width, context.size.height);
    const centre = size / 2;
    const radius = centre * (1 - config.padding);
    box = { centre, radius };
    const pointer = radius * config.pointerSize;
    const tip = centre - radius + pointer * 0.55;
    front
      .clear()
      .circle(centre, centre, radius * config.hubSize)
      .fill(config.hubColor)
      .poly([centre, tip, centre - pointer * 0.5, tip - pointer, centre + pointer * 0.5, tip - pointer])
      .fill(config.pointerColor)
      .stroke({ width: Math.max(radius * 0.012, 1), color: config.borderColor });
    // while a new face bakes (e.g. after a resize) the old one stays up, stretched to the new size
    face.position.set(centre, centre);
    face.width = radius * 2;
    face.height = radius * 2;
    face.rotation = wheelRotation(restFraction(), config.direction);
    context.invalidate();
    const texture = await bakeWheelFace(context.renderer, plan.segments, config, radius, context.art);
    if (run !== bakeRun) return;
    face.texture = texture;
    face.width = radius * 2;
    face.height = radius * 2;
    context.invalidate();
    encode(texture);
  }

  /** Encodes the face for composited spins, without holding the layout (or a spin's start) back. */
  function encode(texture: Texture): void {
    if (!context.composites || texture === Texture.EMPTY || faceImage?.texture === texture) return;
    void context.stripImages([texture]).then(([image]) => {
      if (!image || face.texture !== texture) return;
      faceImage = { texture, image };
      // it waits on the page's compositor for the next spin (see SceneContext.standBy), with the curve every
      // spin of these settings turns along (see turnEasing)
      const next = bonusMotion({
        turns: config.maxTurns,
        segment: 0,
        startFraction: restFraction(),
        config: overrides,
        reducedMotion: plan.reducedMotion,
      });
      context.standBy([faceDisc(image, [], turnEasing(next, next.direction))]);
    });
  }

  /** The face as a disc: the sprite's box, its texture stretched to the wheel's diameter about its centre. */
  function faceDisc(
    image: Blob,
    keyframes: CompositedDisc['keyframes'],
    easing: string | null,
  ): CompositedDisc {
    const { centre, radius } = box;
    return {
      kind: 'disc',
      x: centre - radius,
      y: centre - radius,
      width: radius * 2,
      height: radius * 2,
      image,
      keyframes,
      ...(easing ? { easing } : {}),
    };
  }

  function showFace(visible: boolean): void {
    face.visible = visible;
    context.invalidate();
  }

  function motionOf(state: Pick<Spin, 'startFraction'>) {
    return bonusMotion({
      ...plan.spin!,
      startFraction: state.startFraction,
      config: overrides,
      reducedMotion: plan.reducedMotion,
    });
  }

  return {
    async prepare(next) {
      plan = next;
      spin = null;
      handedOff = false;
      showFace(true);
      await layout();
    },
    play(now) {
      if (!plan.spin) return;
      const startFraction = restFraction();
      spin = { startAt: now, startFraction, wheel: motionOf({ startFraction }), tickedTo: 0, settled: false };
      context.started(now);
    },
    frame(now) {
      if (!spin) return false;
      const state = spin;
      const t = now - state.startAt;
      const pose = motion(state.wheel, t);
      rest = pose.fraction;
      face.rotation = pose.rotation;
      if (!state.settled) {
        for (const segment of crossings(state.wheel, state.tickedTo, t)) context.tick(segment);
        state.tickedTo = Math.max(state.tickedTo, t);
      }
      if (!pose.done) return true;
      if (!state.settled) {
        state.settled = true;
        context.settled({ scene: 'bonus-wheel', segment: state.wheel.segment });
      }
      return false;
    },
    ticks() {
      if (!spin) return [];
      const { wheel, startAt } = spin;
      return crossingSchedule(wheel).map((t) => startAt + t);
    },
    composite(on) {
      if (!on) {
        if (handedOff) {
          handedOff = false;
          showFace(true);
        }
        return [];
      }
      const image = faceImage?.texture === face.texture ? faceImage.image : null;
      if (!spin || spin.settled || !image) return [];
      const { startAt, wheel } = spin;
      handedOff = true;
      showFace(false);
      // the stopped face is the rest pose (the hub and the pointer above it do not change): it stays on the
      // compositor, and the landing draws nothing
      return [
        {
          ...faceDisc(
            image,
            discKeyframes(wheel).map(({ t, angle }) => ({ t: startAt + t, angle })),
            turnEasing(wheel, wheel.direction),
          ),
          holds: true,
        },
      ];
    },
    resize() {
      void layout();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      if (spin && plan.spin) spin.wheel = motionOf(spin);
      void layout();
    },
    destroy() {
      bakeRun += 1;
    },
  };
}
