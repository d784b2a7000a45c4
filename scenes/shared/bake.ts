import { Assets, type Renderer, type Texture } from 'pixi.js';

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

/** An image through Pixi's asset cache, or null when it cannot be loaded (the caller draws a placeholder). */
export async function loadArt(url: string | undefined): Promise<Texture | null> {
  if (!url) return null;
  try {
    return await Assets.load<Texture>(url);
  } catch {
    return null;
  }
}
