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

/** Layers as a worker sends them: images by number, times on the shared time line. */
export function sendLayers(
  layers: readonly CompositedLayer[],
  numberOf: (image: Blob) => number,
  timeOrigin: number,
): SentLayer[] {
  const named = (image: Blob | null) => (image ? numberOf(image) : null);
  return layers.map((layer) =>
    'kind' in layer
      ? shiftLayer({ ...layer, image: named(layer.image) }, timeOrigin)
      : shiftLayer({ ...layer, images: layer.images.map(named) }, timeOrigin),
  );
}

/** Layers as the page shows them: images it holds (an unknown number shows blank), times on its own time line. */
export function receivedLayers(
  layers: readonly SentLayer[],
  imageOf: (image: number) => Blob | undefined,
  timeOrigin: number,
): CompositedLayer[] {
  const image = (n: number | null) => (n === null ? null : (imageOf(n) ?? null));
  return layers.map((layer) =>
    'kind' in layer
      ? shiftLayer({ ...layer, image: image(layer.image) }, -timeOrigin)
      : shiftLayer({ ...layer, images: layer.images.map(image) }, -timeOrigin),
  );
}
