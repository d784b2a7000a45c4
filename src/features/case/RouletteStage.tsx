import { Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Roulette, rouletteConfig, rouletteHeight, type RouletteReel } from '../../../scenes/roulette';
import { hapticSelection } from '../../lib/haptics';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';
import { playTick } from '../../lib/sound';
import { SceneBoundary } from '../../lib/ui/SceneBoundary';

/** Longest a spin may take before the win screen shows anyway (a stalled scene must not hold the prize). */
const WATCHDOG_MS = rouletteConfig.durationMs + 20_000;

interface RouletteStageProps {
  /** reels to play; empty while the opening request is out (the scene loads meanwhile) */
  reels: readonly RouletteReel[];
  /** how many reels the stage makes room for */
  count: number;
  /** every reel has landed */
  onDone: () => void;
}

/**
 * The roulette of a normal open: one reel per copy, all spinning at once, with ticks (sound and haptics)
 * as cards cross the marker. Mounted as soon as the player taps Open, so Pixi loads while the server answers.
 */
export function RouletteStage({ reels, count, onDone }: RouletteStageProps) {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  const height = rouletteHeight(count);
  const resolution = sceneResolution();
  const spinning = reels.length > 0;
  const [failed, setFailed] = useState(false);
  const fail = useCallback(() => setFailed(true), []);

  // without a scene the result still shows, as soon as there is one
  useEffect(() => {
    if (failed && spinning) onDone();
  }, [failed, spinning, onDone]);

  const onTick = useCallback(() => {
    playTick();
    hapticSelection();
  }, []);

  useEffect(() => {
    if (!spinning) return;
    const timer = setTimeout(onDone, WATCHDOG_MS);
    return () => clearTimeout(timer);
  }, [spinning, onDone]);

  return (
    <div
      ref={ref}
      className="roulette-stage"
      style={{ height }}
      data-testid="roulette"
      data-spinning={spinning || undefined}
      role="img"
      aria-label={t('case.roulette')}
    >
      {width > 0 && (
        <SceneBoundary name="Roulette" onFail={fail}>
          <Suspense fallback={<div className="roulette-stage__loading" />}>
            <Roulette
              width={width}
              height={height}
              reels={reels}
              reducedMotion={reducedMotion}
              resolution={resolution}
              className="roulette-stage__canvas"
              onTick={onTick}
              onAllSettled={onDone}
            />
          </Suspense>
        </SceneBoundary>
      )}
      <span className="roulette-stage__fade roulette-stage__fade--left" aria-hidden="true" />
      <span className="roulette-stage__fade roulette-stage__fade--right" aria-hidden="true" />
    </div>
  );
}
