import { Container, Graphics, RenderTexture, Sprite, type Renderer, type Texture } from 'pixi.js';
import type { Scene, SceneContext } from '../runtime/contract.ts';
import { bakeOnce } from '../shared/bake.ts';
import { resolveConfig, type WinRevealConfig } from './config.ts';
import { revealMotion, revealPose, type RevealMotion } from './motion.ts';
import type { WinRevealScenePlan } from './plan.ts';

/** Size of the baked glow, ray fan and ring textures, px (scaled to the surface). */
const BAKE = 256;

function bake(renderer: Renderer, draw: (g: Graphics) => void): Texture {
  const g = new Graphics();
  draw(g);
  const target = RenderTexture.create({ width: BAKE, height: BAKE, resolution: 1, antialias: true });
  renderer.render({ container: g, target, clear: true });
  g.destroy();
  return target;
}

/** A soft white disc, strongest in the middle (tinted with the rarity colour). */
const glowTexture = (renderer: Renderer) =>
  bakeOnce(renderer, 'win-reveal:glow', async () =>
    bake(renderer, (g) => {
      const steps = 48;
      for (let i = steps; i >= 1; i--)
        g.circle(BAKE / 2, BAKE / 2, (BAKE / 2) * (i / steps)).fill({ color: 0xffffff, alpha: 0.035 });
    }),
  );

/** A fan of white rays from the centre, fading towards the ends. */
const raysTexture = (renderer: Renderer, count: number) =>
  bakeOnce(renderer, `win-reveal:rays:${count}`, async () =>
    bake(renderer, (g) => {
      const c = BAKE / 2;
      const half = Math.PI / Math.max(count, 1) / 2.6;
      for (let i = 0; i < count; i++) {
        const a = (i / count) * Math.PI * 2;
        for (const [r, alpha] of [
          [c, 0.12],
          [c * 0.7, 0.35],
          [c * 0.45, 0.4],
        ] as const)
          g.poly([
            c,
            c,
            c + Math.cos(a - half) * r,
            c + Math.sin(a - half) * r,
            c + Math.cos(a + half) * r,
            c + Math.sin(a + half) * r,
          ]).fill({
            color: 0xffffff,
            alpha,
          });
      }
    }),
  );

/** A white ring (the shock ring), its width a fraction of its radius. */
const ringTexture = (renderer: Renderer) =>
  bakeOnce(renderer, 'win-reveal:ring', async () =>
    bake(renderer, (g) =>
      g.circle(BAKE / 2, BAKE / 2, BAKE / 2 - 6).stroke({ width: 6, color: 0xffffff, alpha: 1 }),
    ),
  );

/** A small soft white dot (a spark). */
const sparkTexture = (renderer: Renderer) =>
  bakeOnce(renderer, 'win-reveal:spark', async () =>
    bake(renderer, (g) => {
      g.circle(BAKE / 2, BAKE / 2, BAKE / 2).fill({ color: 0xffffff, alpha: 0.35 });
      g.circle(BAKE / 2, BAKE / 2, BAKE / 4).fill({ color: 0xffffff, alpha: 1 });
    }),
  );

/**
 * The win reveal: baked glow, rays, ring and sparks whose sizes, turns and opacities frame() copies from the
 * pure revealPose(). It draws only while the reveal plays and reports `settled` at its end; at rest it
 * shows nothing, so it costs no frames.
 */
export function winRevealScene(context: SceneContext): Scene<WinRevealScenePlan, WinRevealConfig> {
  let overrides: Partial<WinRevealConfig> = {};
  let config = resolveConfig();
  let plan: WinRevealScenePlan | null = null;
  let play: { startAt: number; motion: RevealMotion; settled: boolean } | null = null;
  let prepareRun = 0;

  const root = new Container();
  const glow = new Sprite();
  const rays = new Sprite();
  const ring = new Sprite();
  const sparks = new Container();
  for (const s of [glow, rays, ring]) s.anchor.set(0.5);
  root.addChild(rays, glow, ring, sparks);
  root.visible = false;
  context.stage.addChild(root);
  let sparkTex: Texture | null = null;

  function layout(): void {
    root.position.set(context.size.width / 2, context.size.height / 2);
  }

  function motionOf(p: WinRevealScenePlan): RevealMotion {
    return revealMotion({ tier: p.tier, seed: p.seed, config: overrides });
  }

  function fillSparks(count: number): void {
    while (sparks.children.length > count) sparks.removeChildAt(sparks.children.length - 1).destroy();
    while (sparks.children.length < count && sparkTex) {
      const s = new Sprite(sparkTex);
      s.anchor.set(0.5);
      sparks.addChild(s);
    }
  }

  return {
    async prepare(next) {
      const run = ++prepareRun;
      plan = next;
      play = null;
      root.visible = false;
      layout();
      const [g, r, o, s] = await Promise.all([
        glowTexture(context.renderer),
        raysTexture(context.renderer, config.rayCount),
        ringTexture(context.renderer),
        sparkTexture(context.renderer),
      ]);
      if (run !== prepareRun) return;
      glow.texture = g;
      rays.texture = r;
      ring.texture = o;
      sparkTex = s;
      for (const sprite of [glow, rays, ring]) sprite.tint = next.color;
      fillSparks(motionOf(next).sparks.length);
      for (const spark of sparks.children) (spark as Sprite).tint = next.color;
      context.invalidate();
    },
    play(now) {
      if (!plan) return;
      play = { startAt: now, motion: motionOf(plan), settled: false };
      fillSparks(play.motion.sparks.length);
      for (const spark of sparks.children) (spark as Sprite).tint = plan.color;
      root.visible = true;
      context.started(now);
    },
    frame(now) {
      if (!play) return false;
      const pose = revealPose(play.motion, now - play.startAt);
      const side = Math.min(context.size.width, context.size.height);
      const glowSize = pose.glowRadius * side * 2;
      glow.width = glowSize;
      glow.height = glowSize;
      glow.alpha = pose.glowAlpha;
      rays.width = side * 0.9;
      rays.height = side * 0.9;
      rays.rotation = pose.raysRotation;
      rays.alpha = pose.raysAlpha;
      rays.visible = pose.raysAlpha > 0;
      const ringSize = pose.ringRadius * side * 2;
      ring.width = ringSize;
      ring.height = ringSize;
      ring.alpha = pose.ringAlpha;
      ring.visible = pose.ringAlpha > 0;
      const sparkSize = play.motion.config.particleSize * 2;
      pose.sparks.forEach((p, i) => {
        const s = sparks.children[i] as Sprite | undefined;
        if (!s) return;
        s.position.set(p.x, p.y);
        s.width = sparkSize * p.scale;
        s.height = sparkSize * p.scale;
        s.alpha = p.alpha;
      });
      if (!pose.done) return true;
      root.visible = false;
      if (!play.settled) {
        play.settled = true;
        context.settled({ scene: 'win-reveal', tier: play.motion.tier });
      }
      return false;
    },
    ticks() {
      return [];
    },
    resize() {
      layout();
      context.invalidate();
    },
    configure(next) {
      overrides = next;
      config = resolveConfig(next);
      if (play && plan) play.motion = motionOf(plan);
    },
    destroy() {
      prepareRun += 1;
    },
  };
}
