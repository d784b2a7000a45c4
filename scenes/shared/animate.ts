import type { Application } from 'pixi.js';
import type { FrameDemand } from './ticker.ts';

/**
 * Runs `frame` on every tick of the application, holding frames (ticker.ts) until it returns true, and once
 * right away. Returns a stop function for effect cleanups; it is safe to call after the application is
 * destroyed and more than once.
 */
export function animate(app: Application, demand: FrameDemand, frame: () => boolean): () => void {
  let release: (() => void) | undefined = demand.hold();
  let running = true;
  const stop = () => {
    if (!running) return;
    running = false;
    app.ticker?.remove(step); // null once the application is destroyed, which can come first on unmount
    release?.();
    release = undefined;
  };
  const step = () => {
    if (running && frame()) stop();
  };
  app.ticker.add(step);
  step();
  return stop;
}
