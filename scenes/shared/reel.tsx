import { extend } from '@pixi/react';
import { Container, Sprite, type Graphics } from 'pixi.js';
import type { RefObject } from 'react';

extend({ Container, Sprite });

/**
 * Draws a reel's marker: a bar `w` px wide at x over the whole height, with a triangle pointing inwards at
 * the top and at the bottom.
 */
export function drawReelMarker(g: Graphics, x: number, w: number, height: number, color: number): void {
  g.clear()
    .rect(x - w / 2, 0, w, height)
    .fill(color)
    .poly([x - 3 * w, 0, x + 3 * w, 0, x, 3 * w])
    .fill(color)
    .poly([x - 3 * w, height, x + 3 * w, height, x, height - 3 * w])
    .fill(color);
}

export interface SpritePoolProps {
  /** Offset of the pool's container, px. */
  y: number;
  /** Number of sprites. */
  size: number;
  /** Filled with the sprites, by index, as they mount (null once unmounted). */
  slots: RefObject<(Sprite | null)[]>;
}

/** A fixed pool of sprites in one container: a virtualized reel draws only these, whatever its length. */
export function SpritePool({ y, size, slots }: SpritePoolProps) {
  return (
    <pixiContainer y={y}>
      {Array.from({ length: size }, (_, k) => (
        <pixiSprite
          key={k}
          ref={(sprite: Sprite | null) => {
            slots.current[k] = sprite;
          }}
        />
      ))}
    </pixiContainer>
  );
}
