import type { Application } from 'pixi.js';
import { systemClock, type SceneClock } from './clock.ts';
import type { FrameDemand } from './ticker.ts';

/**
 * Runs `frame` on every tick of the application, holding frames (ticker.ts) until it returns true, and once
 * right away. Returns a stop function for effect cleanups; it is safe to call after the application is
 * destroyed and more than once.
 *
 * With a clock (clock.ts) the loop also rests while the clock is paused, and runs again (one frame, or
 * until `frame` returns true) whenever the clock says its time jumped or resumed. With the default clock
 * it behaves as a plain loop.
 */
export function animate(
  app: Application,
  demand: FrameDemand,
  frame: () => boolean,
  clock: SceneClock = systemClock,
): () => void {
  let release: (() => void) | undefined;
  let running = false;
  let disposed = false;
  const rest = () => {
    if (!running) return;
    running = false;
    app.ticker?.remove(step); // null once the application is destroyed, which can come first on unmount
    release?.();
    release = undefined;
  };
  const step = () => {
    if (!running) return;
    if (frame() || clock.isPaused?.()) rest();
  };
  const start = () => {
    if (running || disposed || !app.ticker) return;
    running = true;
    release = demand.hold();
    app.ticker.add(step);
    step();
  };
  const unsubscribe = clock.subscribe?.(start);
  start();
  return () => {
    disposed = true;
    unsubscribe?.();
    rest();
  };
}
