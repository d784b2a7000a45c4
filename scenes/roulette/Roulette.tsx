import { useApplication } from '@pixi/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { SceneApplication, useCanvasSize, type SceneCanvasProps } from '../shared/application.tsx';
import { bakeCards } from '../shared/cards.ts';
import { systemClock, type SceneClock } from '../shared/clock.ts';
import { cardLook, resolveConfig } from './config.ts';
import type { RoulettePlan } from './plan.ts';
import { RouletteView } from './RouletteView.tsx';

/** One reel of a multi-open: the server's result for one copy of the case. */
export type RouletteReel = Omit<RoulettePlan, 'widthPx' | 'reducedMotion' | 'startAt'>;

export interface RouletteProps extends SceneCanvasProps {
  /** Canvas width in CSS px; every reel spans it, with the marker at its centre. */
  width: number;
  /** Canvas height in CSS px, shared evenly by the reels (see rouletteHeight()). */
  height: number;
  /** 1 to 3 reels, top to bottom, started together once all their cards are ready. */
  /** A new array is a new spin: memoize it. */
  reels: readonly RouletteReel[];
  /** The player prefers reduced motion (the app reads the media query). */
  reducedMotion?: boolean;
  /** Time source; default the real time (the debug scene switcher passes one it can slow, pause and scrub). */
  clock?: SceneClock;
  /** A card of reel `reel` crossed the marker. */
  onTick?: (reel: number, cardIndex: number) => void;
  /** Reel `reel` stopped on its winner. */
  onReelSettled?: (reel: number) => void;
  /** Every reel has stopped. */
  onAllSettled?: () => void;
}

function Reels(props: RouletteProps) {
  const { width, height, reels, reducedMotion, onTick, onReelSettled, onAllSettled } = props;
  const clock = props.clock ?? systemClock;
  const { app } = useApplication();
  const [startAt, setStartAt] = useState<{ reels: RouletteProps['reels']; at: number }>();

  useCanvasSize(width, height);

  // bake every reel's cards first, so that all reels start on the same frame
  useEffect(() => {
    let live = true;
    const baking = reels.map((reel) =>
      bakeCards(app.renderer, reel.items, cardLook(resolveConfig(reel.config))),
    );
    void Promise.allSettled(baking).then(() => {
      if (!live) return;
      const at = clock.now() + resolveConfig(reels[0]?.config).startLeadMs;
      clock.spinStarted?.(at);
      setStartAt({ reels, at });
    });
    return () => {
      live = false;
    };
  }, [app, reels, clock]);
  const at = startAt?.reels === reels ? startAt.at : undefined;

  const plans = useMemo(
    () =>
      at === undefined
        ? []
        : reels.map((reel): RoulettePlan => ({ ...reel, widthPx: width, reducedMotion, startAt: at })),
    [reels, width, reducedMotion, at],
  );

  // reels settled in the current spin (a resize re-lays the reels out but keeps the spin)
  const settled = useRef<{ at?: number; reels: Set<number> }>({ reels: new Set() });

  const slot = height / Math.max(reels.length, 1);
  return plans.map((plan, i) => (
    <RouletteView
      key={i}
      plan={plan}
      y={i * slot}
      height={slot}
      clock={clock}
      onTick={onTick && ((cardIndex) => onTick(i, cardIndex))}
      onSettled={() => {
        if (settled.current.at !== at) settled.current = { at, reels: new Set() };
        settled.current.reels.add(i);
        onReelSettled?.(i);
        if (settled.current.reels.size === plans.length) onAllSettled?.();
      }}
    />
  ));
}

/**
 * The case-opening roulette: a Pixi canvas of width × height with 1 to 3 reels. The ticker runs only while
 * a reel moves. Load it lazily (index.ts exports it through React.lazy).
 */
export function Roulette(props: RouletteProps) {
  return (
    <SceneApplication {...props}>
      <Reels {...props} />
    </SceneApplication>
  );
}
