import { Container, Graphics, RenderTexture, type Renderer } from 'pixi.js';
import { localAngle } from '../shared/wheel.ts';
import { clampChance } from './chance.ts';
import type { ChanceWheelConfig } from './config.ts';

/** The wheel's measures for a surface whose shorter side is `size` CSS px. */
export interface RingGeometry {
  /** The wheel's square: its side and the centre (radius, radius). */
  size: number;
  radius: number;
  /** Outer edge of the ring. */
  outer: number;
  /** Thickness of the ring. */
  width: number;
  /** Middle of the ring, where its strokes run. */
  middle: number;
}

export function ringGeometry(size: number, config: ChanceWheelConfig): RingGeometry {
  const radius = size / 2;
  const outer = radius * (1 - config.padding);
  const width = radius * config.ringWidth;
  return { size, radius, outer, width, middle: outer - width / 2 };
}

/** The inner disc, around (0, 0): it does not turn, but lies under the ring (and in its baked face). */
export function drawDisc(g: Graphics, geometry: RingGeometry, config: ChanceWheelConfig): Graphics {
  return g
    .clear()
    .circle(0, 0, geometry.outer - geometry.width)
    .fill(config.discColor);
}

/**
 * The turning ring around (0, 0) at rotation 0: the track, the success arc [0, chance) in `arcColor` laid
 * out from the top against the spin, and the notches.
 */
export function drawRing(
  g: Graphics,
  geometry: RingGeometry,
  chance: number,
  arcColor: number,
  config: ChanceWheelConfig,
): Graphics {
  const { outer, width, middle } = geometry;
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
  return g;
}

/**
 * Names everything the baked face shows: the chance, the surface's wheel size, the resolution and the
 * look. Two plans with the same key share one face.
 */
export function faceKey(chance: number, size: number, resolution: number, config: ChanceWheelConfig): string {
  return JSON.stringify([
    clampChance(chance),
    size,
    resolution,
    config.padding,
    config.ringWidth,
    config.trackColor,
    config.discColor,
    config.neutralColor,
    config.tickCount,
    config.tickColor,
    config.direction,
  ]);
}

/**
 * The face a roll turns, as the page's compositor shows it: the inner disc and the ring with its arc in
 * `arcColor` (the neutral colour while a roll turns, as it shows no outcome until it stops; the verdict's
 * once it has stopped), at rotation 0, in a texture covering the wheel's square at the renderer's
 * resolution (crisp at the device's pixel ratio).
 */
export function bakeRingFace(
  renderer: Renderer,
  geometry: RingGeometry,
  chance: number,
  arcColor: number,
  config: ChanceWheelConfig,
): RenderTexture {
  const root = new Container();
  const disc = drawDisc(new Graphics(), geometry, config);
  const ring = drawRing(new Graphics(), geometry, chance, arcColor, config);
  for (const part of [disc, ring]) {
    part.position.set(geometry.radius, geometry.radius);
    root.addChild(part);
  }
  const target = RenderTexture.create({
    width: geometry.size,
    height: geometry.size,
    resolution: renderer.resolution,
    antialias: true,
  });
  renderer.render({ container: root, target, clear: true });
  root.destroy({ children: true });
  return target;
}
