import { atom, useAtomValue, type Atom } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  rouletteConfig,
  rouletteHeight,
  type RouletteItem,
  type RouletteReel,
  type RouletteScenePlan,
} from '../../../scenes/roulette';
import { SceneView, useFollowingAtom, type SceneCue } from '../../lib/scene/SceneView';
import { useSceneEvents } from '../../lib/scene/useSceneEvents';
import { useSpinWatchdog } from '../../lib/scene/useSpinWatchdog';
import { sceneResolution, useElementWidth, usePrefersReducedMotion } from '../../lib/scene-hooks';

/** A started spin's length, ms: once it has run this (plus a margin) the win screen shows anyway. */
const SPIN_MS = rouletteConfig.startLeadMs + rouletteConfig.durationMs;

interface RouletteStageProps {
  /** The case's cards: baked while the page is shown, so that the spin starts without waiting for art. */
  pieces: readonly RouletteItem[];
  /** Reels to play; empty while idle or while the opening request is out. Set outside React (the answer). */
  reels: Atom<readonly RouletteReel[]>;
  /** Track seeds of the next play's reels (see CaseOpening.trackSeeds): staged while no reel plays. */
  trackSeeds?: Atom<readonly string[]>;
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
export function RouletteStage({ pieces, reels, trackSeeds, count, shown, onDone }: RouletteStageProps) {
  const { t } = useTranslation();
  const [ref, width] = useElementWidth<HTMLDivElement>();
  const reducedMotion = usePrefersReducedMotion();
  const height = rouletteHeight(count);
  const spinning = useAtomValue(reels).length > 0;
  const [failed, setFailed] = useState(false);

  // the plan and its play follow the reels atom directly: the reels start when the answer sets it; while
  // none plays, the next play's strips are staged for as many reels as the stage makes room for (the seeds
  // are read only then, so drawing the next ones as a play starts does not prepare it again)
  const reelCount = useFollowingAtom(count);
  const cue = useMemo(
    () =>
      atom((get): SceneCue<RouletteScenePlan> => {
        const playing = get(reels);
        const stage = playing.length === 0 && trackSeeds ? get(trackSeeds).slice(0, get(reelCount)) : [];
        return {
          plan: { items: pieces, reels: playing, reducedMotion, ...(stage.length > 0 ? { stage } : {}) },
          play: playing.length > 0 ? playing.map((reel) => reel.seed).join('|') : null,
        };
      }),
    [pieces, reels, trackSeeds, reelCount, reducedMotion],
  );

  // without a scene the result still shows, as soon as there is one
  useEffect(() => {
    if (failed && spinning) onDone();
  }, [failed, spinning, onDone]);

  // a stalled scene must not hold the prize; counted from when the reels really start, not from the request
  const started = useSpinWatchdog(spinning, SPIN_MS, onDone);

  const onEvents = useSceneEvents({
    label: 'Roulette',
    ticks: true,
    started,
    settled: onDone,
    failed: () => setFailed(true),
  });

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
          cue={cue}
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
