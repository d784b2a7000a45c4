import { Container, Sprite, type Graphics, type Texture } from 'pixi.js';

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

/**
 * A fixed pool of sprites in one container: a virtualized reel draws only these, whatever its length.
 * The pool grows to `size` and hides what it does not need.
 */
export class SpritePool {
  readonly container = new Container();
  private readonly sprites: Sprite[] = [];

  resize(size: number): void {
    while (this.sprites.length < size) this.sprites.push(this.container.addChild(new Sprite()));
    this.sprites.forEach((sprite, k) => (sprite.visible = k < size));
  }

  get size(): number {
    return this.sprites.length;
  }

  /** Shows `texture` at x in slot k, or hides slot k when texture is undefined. */
  place(k: number, texture: Texture | undefined, x: number): void {
    const sprite = this.sprites[k];
    if (!sprite) return;
    sprite.visible = texture !== undefined;
    if (texture === undefined) return;
    sprite.texture = texture;
    sprite.x = x;
  }
}
