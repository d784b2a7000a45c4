import { Container, Graphics, RenderTexture, Sprite, Text, Texture, type Renderer } from 'pixi.js';
import type { ArtLoader } from '../runtime/contract.ts';
import { bakeOnce } from '../shared/bake.ts';
import { localAngle } from '../shared/wheel.ts';
import type { BonusWheelConfig } from './config.ts';
import { segmentCount } from './motion.ts';
import type { BonusSegment } from './plan.ts';

/**
 * The wheel's face (segments, borders, rim, labels and icons) flattened into one texture of 2 × radius
 * square, baked once per renderer, segments, look and size: a spin only rotates one sprite.
 */
export function bakeWheelFace(
  renderer: Renderer,
  segments: readonly BonusSegment[],
  config: BonusWheelConfig,
  radius: number,
  art: ArtLoader,
): Promise<Texture> {
  const look = [
    segmentCount(config),
    config.direction,
    config.segmentColors,
    config.borderColor,
    config.rimWidth,
    config.labelColor,
    config.labelSize,
    config.labelRadius,
    config.iconSize,
    config.fontFamily,
  ];
  const key = JSON.stringify(['bonus-wheel-face', segments, look, radius, renderer.resolution]);
  // a face that cannot be drawn stays blank rather than holding the spin (and onSettled) back
  return bakeOnce(renderer, key, () =>
    bakeFace(renderer, segments, config, radius, art).catch(() => Texture.EMPTY),
  );
}

async function bakeFace(
  renderer: Renderer,
  segments: readonly BonusSegment[],
  config: BonusWheelConfig,
  radius: number,
  loadArt: ArtLoader,
): Promise<Texture> {
  const count = segmentCount(config);
  const faces = Array.from({ length: count }, (_, i) => segments[i % Math.max(segments.length, 1)]);
  const arts = await Promise.all(faces.map((face) => loadArt(face?.imageUrl)));
  const colors = config.segmentColors.length > 0 ? config.segmentColors : [0x333333];
  const rim = Math.max(radius * config.rimWidth, 1);
  const inner = radius - rim;

  // the wheel is drawn around the texture centre, inside a root left at the origin
  const root = new Container();
  const wheel = new Container();
  wheel.position.set(radius, radius);
  root.addChild(wheel);
  const slices = new Graphics();
  wheel.addChild(slices);
  for (let i = 0; i < count; i++) {
    const from = localAngle(i / count, config.direction);
    const to = localAngle((i + 1) / count, config.direction);
    slices
      .moveTo(0, 0)
      .arc(0, 0, inner, from, to, to < from)
      .closePath()
      .fill(faces[i]?.color ?? colors[i % colors.length]!);
  }
  for (let i = 0; i < count; i++) {
    const angle = localAngle(i / count, config.direction);
    slices.moveTo(0, 0).lineTo(Math.cos(angle) * inner, Math.sin(angle) * inner);
  }
  slices
    .stroke({ width: Math.max(rim * 0.35, 1), color: config.borderColor })
    .circle(0, 0, radius - rim / 2)
    .stroke({ width: rim, color: config.borderColor });

  const chord = (distance: number) => 2 * distance * Math.sin(Math.PI / count);
  for (let i = 0; i < count; i++) {
    const face = faces[i];
    if (!face) continue;
    const angle = localAngle((i + 0.5) / count, config.direction);
    const place = (node: Container, distance: number) => {
      node.position.set(Math.cos(angle) * distance, Math.sin(angle) * distance);
      node.rotation = angle + Math.PI / 2; // upright when the segment is at the top
      wheel.addChild(node);
    };
    const art = arts[i];
    let labelAt = radius * config.labelRadius;
    if (art) {
      const size = radius * config.iconSize;
      const icon = new Sprite(art);
      icon.anchor.set(0.5);
      icon.scale.set(size / Math.max(art.width, art.height, 1));
      place(icon, labelAt);
      labelAt -= size / 2 + radius * config.labelSize * 0.8;
    }
    if (face.label) {
      const label = new Text({
        text: face.label,
        style: {
          fill: config.labelColor,
          fontFamily: config.fontFamily,
          fontSize: Math.max(Math.round(radius * config.labelSize), 1),
          fontWeight: '700',
        },
      });
      label.anchor.set(0.5);
      // a long label shrinks to fit between the segment's borders
      const room = chord(labelAt) * 0.86;
      if (label.width > room) label.scale.set(room / label.width);
      place(label, labelAt);
    }
  }

  const side = Math.max(Math.ceil(radius * 2), 1);
  const target = RenderTexture.create({
    width: side,
    height: side,
    resolution: renderer.resolution,
    antialias: true,
  });
  renderer.render({ container: root, target, clear: true });
  root.destroy({ children: true }); // icon textures stay in the runtime's cache; the texts free their own
  return target;
}
