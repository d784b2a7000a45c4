import { Container, Graphics, RenderTexture, Sprite, Text, Texture, type Renderer } from 'pixi.js';
import type { ArtLoader } from '../runtime/contract.ts';
import { bakeOnce } from './bake.ts';

export type Rarity = 'common' | 'uncommon' | 'rare' | 'epic' | 'legendary';

/** What a card shows. */
export interface CardFace {
  id: string;
  name: string;
  /** the price as shown, already formatted by the caller (every significant decimal, locale separators) */
  price: string;
  imageUrl: string;
  rarity: Rarity;
}

/** How a card looks; scenes fill it from their config. */
export interface CardLook {
  width: number;
  height: number;
  radius: number;
  color: number;
  rarityColors: Record<Rarity, number>;
  priceColor: number;
  priceFontSize: number;
  fontFamily: string;
  priceSuffix: string;
}

/**
 * One texture per card face, baked once per renderer (background, art and price text flattened into a
 * RenderTexture), so a reel draws plain sprites and never re-renders text. Baking is shared between reels
 * and scenes: the same face and look on the same renderer resolves to the same texture.
 */
export function bakeCards(
  renderer: Renderer,
  faces: readonly CardFace[],
  look: CardLook,
  art: ArtLoader,
): Promise<Texture[]> {
  const lookKey = JSON.stringify(look);
  return Promise.all(
    faces.map((face) =>
      bakeOnce(
        renderer,
        JSON.stringify(['card', face.id, face.name, face.price, face.imageUrl, face.rarity, lookKey]),
        // a card that cannot be drawn stays blank rather than holding the reel (and the win screen) back
        () => bakeCard(renderer, face, look, art).catch(() => Texture.EMPTY),
      ),
    ),
  );
}

async function bakeCard(
  renderer: Renderer,
  face: CardFace,
  look: CardLook,
  loadArt: ArtLoader,
): Promise<Texture> {
  const art = await loadArt(face.imageUrl);
  const { width, height } = look;
  const accent = look.rarityColors[face.rarity] ?? look.rarityColors.common;
  const pad = Math.round(width * 0.08);
  const priceBand = Math.round(look.priceFontSize * 1.8);
  const artSize = Math.min(width - 2 * pad, height - priceBand - 2 * pad);
  const artCentreY = pad + (height - priceBand - 2 * pad) / 2;

  const card = new Container();
  card.addChild(
    new Graphics()
      .roundRect(0, 0, width, height, look.radius)
      .fill(look.color)
      .circle(width / 2, artCentreY, artSize * 0.5)
      .fill({ color: accent, alpha: 0.28 })
      .rect(pad, height - priceBand, width - 2 * pad, 2)
      .fill({ color: accent, alpha: 0.6 })
      .roundRect(1, 1, width - 2, height - 2, look.radius)
      .stroke({ color: accent, width: 2 }),
  );
  if (art) {
    const sprite = new Sprite(art);
    sprite.anchor.set(0.5);
    sprite.scale.set(artSize / Math.max(art.width, art.height, 1));
    sprite.position.set(width / 2, artCentreY);
    card.addChild(sprite);
  } else {
    const name = new Text({
      text: face.name,
      style: {
        fill: look.priceColor,
        fontFamily: look.fontFamily,
        fontSize: Math.round(look.priceFontSize * 0.85),
        align: 'center',
        wordWrap: true,
        wordWrapWidth: artSize,
      },
    });
    name.anchor.set(0.5);
    name.position.set(width / 2, artCentreY);
    card.addChild(name);
  }
  const price = new Text({
    text: `${face.price}${look.priceSuffix}`,
    style: {
      fill: look.priceColor,
      fontFamily: look.fontFamily,
      fontSize: look.priceFontSize,
      fontWeight: '700',
    },
  });
  price.anchor.set(0.5);
  price.position.set(width / 2, height - priceBand / 2);
  card.addChild(price);

  const target = RenderTexture.create({ width, height, resolution: renderer.resolution, antialias: true });
  renderer.render({ container: card, target, clear: true });
  card.destroy({ children: true }); // the art texture stays in the runtime's cache; the texts free their own
  return target;
}
