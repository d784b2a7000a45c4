import { useApplication } from '@pixi/react';
import { Ticker, UPDATE_PRIORITY, type Application } from 'pixi.js';
import { useMemo } from 'react';

/**
 * Frames on demand (DESIGN rule 6: zero frames at idle). The application is created with autoStart: false;
 * its ticker runs while someone holds it and stops itself at the end of the first frame nobody does.
 *
 * Pixi also keeps a global Ticker.system looping for its housekeeping (texture GC schedule, pointer-over
 * checks): it would request an animation frame 60 times a second forever. Scenes run it only while some
 * scene holds frames; with nothing moving there is nothing for it to do.
 */
export interface FrameDemand {
  /** Keep frames coming until the returned release is called (idempotent). */
  hold(): () => void;
  /** Draw one more frame, e.g. after a change while idle. */
  invalidate(): void;
}

const demands = new WeakMap<Application, FrameDemand>();
let systemHolders = 0;

function holdSystemTicker(): () => void {
  if (systemHolders++ === 0) Ticker.system.start();
  return () => {
    if (--systemHolders === 0) Ticker.system.stop();
  };
}

export function frameDemand(app: Application): FrameDemand {
  const existing = demands.get(app);
  if (existing) return existing;
  const ticker = app.ticker;
  let holders = 0;
  Ticker.system.autoStart = false; // no restart when Pixi adds a housekeeping listener
  if (systemHolders === 0) Ticker.system.stop();
  // runs after the render (UPDATE_PRIORITY.LOW), so the frame that releases the last hold is still drawn
  ticker.add(() => holders === 0 && ticker.stop(), undefined, UPDATE_PRIORITY.UTILITY);
  const demand: FrameDemand = {
    hold() {
      holders += 1;
      ticker.start();
      const releaseSystem = holdSystemTicker();
      let held = true;
      return () => {
        if (held) {
          held = false;
          holders -= 1;
          releaseSystem();
        }
      };
    },
    invalidate() {
      ticker.start();
    },
  };
  demands.set(app, demand);
  return demand;
}

/** frameDemand() of the enclosing @pixi/react Application. */
export function useFrameDemand(): FrameDemand {
  const { app } = useApplication();
  return useMemo(() => frameDemand(app), [app]);
}
