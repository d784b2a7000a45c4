import { Container, Graphics, RenderTexture, Sprite, Text, Texture, type Renderer } from 'pixi.js';
import type { ArtLoader } from '../runtime/contract.ts';
import { bakeOnce } from '../shared/bake.ts';
import type { BattleReelConfig } from './config.ts';
import type { BattleCase } from './plan.ts';

/** How a tile looks, from the config. */
export interface TileLook {
  width: number;
  height: number;
  radius: number;
  color: number;
  borderColor: number;
  artSize: number;
  nameColor: number;
  nameFontSize: number;
  fontFamily: string;
}

export function tileLook(config: BattleReelConfig): TileLook {
  return {
    width: Math.max(config.itemWidth - config.tileGap, 1),
    height: Math.max(config.tileHeight, 1),
    radius: config.tileRadius,
    color: config.tileColor,
    borderColor: config.tileBorderColor,
    artSize: config.artSize,
    nameColor: config.nameColor,
    nameFontSize: config.nameFontSize,
    fontFamily: config.fontFamily,
  };
}

/**
 * One texture per case (tile background and case art, or the name when the art fails), baked once per
 * renderer, case and look: the reel draws plain sprites.
 */
export function bakeTiles(
  renderer: Renderer,
  cases: readonly BattleCase[],
  look: TileLook,
  art: ArtLoader,
): Promise<Texture[]> {
  const lookKey = JSON.stringify(look);
  return Promise.all(
    cases.map((face) =>
      bakeOnce(renderer, JSON.stringify(['battle-tile', face.id, face.name, face.imageUrl, lookKey]), () =>
        // a tile that cannot be drawn stays blank rather than holding the reel back
        bakeTile(renderer, face, look, art).catch(() => Texture.EMPTY),
      ),
    ),
  );
}

async function bakeTile(
  renderer: Renderer,
  face: BattleCase,
  look: TileLook,
  loadArt: ArtLoader,
): Promise<Texture> {
  const art = await loadArt(face.imageUrl);
  const { width, height } = look;
  const tile = new Container();
  tile.addChild(
    new Graphics()
      .roundRect(0, 0, width, height, look.radius)
      .fill(look.color)
      .roundRect(1, 1, width - 2, height - 2, look.radius)
      .stroke({ color: look.borderColor, width: 2 }),
  );
  if (art) {
    const size = Math.min(width, height) * look.artSize;
    const sprite = new Sprite(art);
    sprite.anchor.set(0.5);
    sprite.scale.set(size / Math.max(art.width, art.height, 1));
    sprite.position.set(width / 2, height / 2);
    tile.addChild(sprite);
  } else {
    const name = new Text({
      text: face.name,
      style: {
        fill: look.nameColor,
        fontFamily: look.fontFamily,
        fontSize: look.nameFontSize,
        align: 'center',
        wordWrap: true,
        wordWrapWidth: width * 0.85,
      },
    });
    name.anchor.set(0.5);
    name.position.set(width / 2, height / 2);
    tile.addChild(name);
  }
  const target = RenderTexture.create({ width, height, resolution: renderer.resolution, antialias: true });
  renderer.render({ container: tile, target, clear: true });
  tile.destroy({ children: true }); // the art texture stays in the runtime's cache; the text frees its own
  return target;
}
