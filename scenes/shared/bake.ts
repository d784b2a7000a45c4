import type { Renderer, Texture } from 'pixi.js';

const baked = new WeakMap<Renderer, Map<string, Promise<Texture>>>();

/**
 * A texture made once per renderer and key: `make` runs the first time a key is asked for, and every later
 * call (from any scene on the same renderer) gets the same promise. The key must name everything the
 * texture shows (content and look).
 */
export function bakeOnce(renderer: Renderer, key: string, make: () => Promise<Texture>): Promise<Texture> {
  let cache = baked.get(renderer);
  if (!cache) baked.set(renderer, (cache = new Map()));
  let texture = cache.get(key);
  if (!texture) {
    texture = make();
    cache.set(key, texture);
  }
  return texture;
}
