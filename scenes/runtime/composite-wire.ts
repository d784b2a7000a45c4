import type { CompositedLayer } from './contract.ts';
import type { SentLayer } from './protocol.ts';

/**
 * Composited layers between a worker's runtime and the page (no Pixi, no DOM: both sides import it).
 * Keyframe times are on the sender's performance.now() time line; a worker's time origin is not the
 * page's, so they cross on the shared one (performance.timeOrigin + performance.now()), as tick schedules do.
 * Images cross once (`preload`) and are named by number after: a Blob posted again would arrive as another
 * object, which the page would have to decode again.
 */

/** A layer with every keyframe time moved by `by` ms. */
export function shiftLayer<L extends { keyframes: readonly { t: number }[] }>(layer: L, by: number): L {
  return { ...layer, keyframes: layer.keyframes.map((k) => ({ ...k, t: k.t + by })) };
}

/** Pairs of numbers packed in one array: a and b of item k at 2k and 2k + 1, with `by` added to each a. */
function pack<T>(items: readonly T[], a: (item: T) => number, b: (item: T) => number, by = 0): Float64Array {
  const packed = new Float64Array(items.length * 2);
  items.forEach((item, k) => {
    packed[2 * k] = a(item) + by;
    packed[2 * k + 1] = b(item);
  });
  return packed;
}

/** The pairs of a packed array back as items, with `by` added to each a. */
function unpack<T>(packed: Float64Array, item: (a: number, b: number) => T, by = 0): T[] {
  const items: T[] = new Array<T>(packed.length / 2);
  for (let k = 0; k < items.length; k++) items[k] = item(packed[2 * k]! + by, packed[2 * k + 1]!);
  return items;
}

/**
 * Layers as a worker sends them: images by number, times on the shared time line, and a strip's cards and
 * every keyframe packed as numbers (see SentLayer).
 */
export function sendLayers(
  layers: readonly CompositedLayer[],
  numberOf: (image: Blob) => number,
  timeOrigin: number,
): SentLayer[] {
  const named = (image: Blob | null) => (image ? numberOf(image) : null);
  return layers.map((layer): SentLayer => {
    if ('kind' in layer) {
      const { landedImage, ...disc } = layer;
      return {
        ...disc,
        image: named(disc.image),
        ...(landedImage !== undefined ? { landedImage: named(landedImage) } : {}),
        keyframes: pack(
          disc.keyframes,
          (k) => k.t,
          (k) => k.angle,
          timeOrigin,
        ),
      };
    }
    return {
      ...layer,
      images: layer.images.map(named),
      cards: pack(
        layer.cards,
        (c) => c.image,
        (c) => c.x,
      ),
      keyframes: pack(
        layer.keyframes,
        (k) => k.t,
        (k) => k.x,
        timeOrigin,
      ),
    };
  });
}

/** Layers as the page shows them: images it holds (an unknown number shows blank), times on its own time line. */
export function receivedLayers(
  layers: readonly SentLayer[],
  imageOf: (image: number) => Blob | undefined,
  timeOrigin: number,
): CompositedLayer[] {
  const image = (n: number | null) => (n === null ? null : (imageOf(n) ?? null));
  return layers.map((layer): CompositedLayer => {
    if ('kind' in layer) {
      const { landedImage, ...disc } = layer;
      return {
        ...disc,
        image: image(disc.image),
        ...(landedImage !== undefined ? { landedImage: image(landedImage) } : {}),
        keyframes: unpack(disc.keyframes, (t, angle) => ({ t, angle }), -timeOrigin),
      };
    }
    return {
      ...layer,
      images: layer.images.map(image),
      cards: unpack(layer.cards, (image, x) => ({ image, x })),
      keyframes: unpack(layer.keyframes, (t, x) => ({ t, x }), -timeOrigin),
    };
  });
}
