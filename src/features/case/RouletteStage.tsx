import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  rouletteConfig,
  rouletteHeight,
  type RouletteItem,
  type RouletteReel,
  type RouletteScenePlan,
} from '../../../scenes/roulette';
import type { SceneEvent } from '../../../scenes/runtime';
import { hapticSelection } from '../../lib/haptics';
import { SceneView } from '../../lib/scene/SceneView';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';
import { playTick } from '../../lib/sound';

/** A started spin's length, ms: once it has run this (plus a margin) the win screen shows anyway. */
const SPIN_MS = rouletteConfig.startLeadMs + rouletteConfig.durationMs;

interface RouletteStageProps {
  /** The case's cards: baked while the page is shown, so that the spin starts without waiting for art. */
  pieces: readonly RouletteItem[];
  /** Reels to play; empty while idle or while the opening request is out. */
  reels: readonly RouletteReel[];
  /** How many reels the stage makes room for. */
  count: number;
  /** The stage is on screen (a normal open is under way); hidden, it stays mounted and ready. */
  shown: boolean;
  /** Every reel has landed. */
  onDone: () => void;
}

/**
 * The roulette of a normal open: one reel per copy, all spinning at once, with ticks (sound and haptics)
 * as cards cross the marker. Mounted with the case page (hidden until the player taps Open), so the scene
 * runtime, Pixi and the case's cards are ready before the tap; the reels start as soon as the server has
 * answered (DESIGN rule 1: the server decides, then the reel plays its answer).
 */
export function RouletteStage({ pieces, reels, count, shown, onDone }: RouletteStageProps) {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  const height = rouletteHeight(count);
  const spinning = reels.length > 0;
  const [failed, setFailed] = useState(false);

  const plan = useMemo<RouletteScenePlan>(
    () => ({ items: pieces, reels, reducedMotion }),
    [pieces, reels, reducedMotion],
  );

  // without a scene the result still shows, as soon as there is one
  useEffect(() => {
    if (failed && spinning) onDone();
  }, [failed, spinning, onDone]);

  // a stalled scene must not hold the prize; counted from when the reels really start, not from the request
  const started = useSpinWatchdog(spinning, SPIN_MS, onDone);

  const onEvents = useCallback(
    (events: SceneEvent[]) => {
      for (const event of events) {
        if (event.type === 'tick') {
          playTick();
          hapticSelection();
        } else if (event.type === 'started') {
          started();
        } else if (event.type === 'settled') {
          onDone();
        } else if (event.type === 'error') {
          console.error('Roulette failed', event.message);
          setFailed(true);
        }
      }
    },
    [onDone, started],
  );

  return (
    <div
      ref={ref}
      className={shown ? 'roulette-stage' : 'roulette-stage roulette-stage--standby'}
      style={{ height }}
      data-testid={shown ? 'roulette' : undefined}
      data-spinning={spinning || undefined}
      role="img"
      aria-hidden={!shown || undefined}
      aria-label={t('case.roulette')}
    >
      {width > 0 && (
        <SceneView
          scene="roulette"
          plan={plan}
          play={spinning ? reels.map((reel) => reel.seed).join('|') : null}
          width={width}
          height={height}
          dpr={sceneResolution()}
          className="roulette-stage__canvas"
          onEvents={onEvents}
        />
      )}
      <span className="roulette-stage__fade roulette-stage__fade--left" aria-hidden="true" />
      <span className="roulette-stage__fade roulette-stage__fade--right" aria-hidden="true" />
    </div>
  );
}
