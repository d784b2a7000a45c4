import { Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BattleReel, battleReelHeight, type BattleReelConfig } from '../../../scenes/battle-reel';
import {
  BonusWheel,
  type BonusSegment,
  type BonusSpin,
  type BonusWheelConfig,
} from '../../../scenes/bonus-wheel';
import { ChanceWheel, type ChanceWheelConfig } from '../../../scenes/chance-wheel';
import type { SceneClock } from '../../../scenes/debug';
import {
  Roulette,
  rouletteHeight,
  type RendererChoice,
  type RouletteConfig,
  type RouletteItem,
  type RouletteReel,
} from '../../../scenes/roulette';
import { sceneResolution } from '../../lib/scene-hooks';
import { SceneBoundary } from '../../lib/ui/SceneBoundary';
import { BATTLE_CASES } from '../battle/cases';
import type { ConfigObject } from './config-io';
import type { SceneId } from './registry';
import { SAMPLE_CHANCE } from './sample-data';

/** One play of a scene: its config and random choices, fixed when Replay was pressed. */
export interface Play {
  id: number;
  scene: SceneId;
  config: ConfigObject;
  /** Roulette: the cards and each reel's winner. */
  items: readonly RouletteItem[];
  winners: number[];
  /** Chance wheel: the roll. */
  rolled: number;
  /** Bonus wheel: the spin. */
  spin: BonusSpin;
  /** Battle reel: the winning case. */
  battleWinner: number;
}

interface ScenePreviewProps {
  scene: SceneId;
  reels: number;
  renderer: RendererChoice;
  width: number;
  /** The play under way or last played; null before the first. */
  play: Play | null;
  /** The config shown while nothing has played yet. */
  config: ConfigObject;
  segments: readonly BonusSegment[];
  clock: SceneClock;
  onSettled: () => void;
}

/** Largest wheel, px. */
const MAX_WHEEL = 360;
/** Space above and below the battle reel's tiles, px. */
const BATTLE_PADDING = 12;

/** Height the preview needs for a scene, px. */
export function previewHeight(scene: SceneId, reels: number, width: number, config: ConfigObject): number {
  if (scene === 'roulette') return rouletteHeight(reels, config as unknown as Partial<RouletteConfig>);
  if (scene === 'battle-reel')
    return battleReelHeight(BATTLE_PADDING, config as unknown as Partial<BattleReelConfig>);
  return Math.min(width, MAX_WHEEL);
}

/**
 * The chosen scene, through its public component, with sample data and the switcher's clock. A new play
 * (a new Play object) starts a new spin; the renderer is read when the canvas is made, so changing it makes
 * a new canvas.
 */
export function ScenePreview({
  scene,
  reels,
  renderer,
  width,
  play,
  config,
  segments,
  clock,
  onSettled,
}: ScenePreviewProps) {
  const { t } = useTranslation();
  const current = play?.scene === scene ? play : null;
  const shown = current?.config ?? config;
  const height = previewHeight(scene, reels, width, shown);
  const resolution = sceneResolution();

  const rouletteReels = useMemo<RouletteReel[]>(
    () =>
      current
        ? current.winners.slice(0, reels).map((winner, i) => ({
            items: current.items,
            winnerIndex: winner % current.items.length,
            seed: `debug:${current.id}:${i}`,
            config: current.config as unknown as Partial<RouletteConfig>,
          }))
        : [],
    [current, reels],
  );

  let view;
  if (width <= 0) view = null;
  else if (scene === 'roulette') {
    view = (
      <Roulette
        width={width}
        height={height}
        reels={rouletteReels}
        renderer={renderer}
        resolution={resolution}
        clock={clock}
        className="debug-preview__canvas"
        onAllSettled={onSettled}
      />
    );
  } else if (scene === 'chance-wheel') {
    view = (
      <ChanceWheel
        size={height}
        chance={SAMPLE_CHANCE}
        rolled={current?.rolled ?? null}
        spinId={current?.id ?? 0}
        config={shown as unknown as Partial<ChanceWheelConfig>}
        renderer={renderer}
        resolution={resolution}
        clock={clock}
        className="debug-preview__canvas"
        onResult={onSettled}
      />
    );
  } else if (scene === 'bonus-wheel') {
    view = (
      <BonusWheel
        size={height}
        segments={segments}
        spin={current?.spin ?? null}
        spinId={current?.id ?? 0}
        config={shown as unknown as Partial<BonusWheelConfig>}
        renderer={renderer}
        resolution={resolution}
        clock={clock}
        className="debug-preview__canvas"
        onSettled={onSettled}
      />
    );
  } else {
    view = (
      <BattleReel
        width={width}
        height={height}
        images={BATTLE_CASES}
        winnerIndex={current?.battleWinner ?? null}
        spinId={current?.id ?? 0}
        config={shown as unknown as Partial<BattleReelConfig>}
        renderer={renderer}
        resolution={resolution}
        clock={clock}
        className="debug-preview__canvas"
        onSettled={onSettled}
      />
    );
  }

  return (
    <div
      className="debug-preview"
      style={{ minHeight: height }}
      data-testid="debug-preview"
      data-scene={scene}
    >
      <SceneBoundary
        key={`${scene}:${renderer}`}
        fallback={<p className="debug-preview__note">{t('debug.failed')}</p>}
      >
        <Suspense fallback={<p className="debug-preview__note">{t('debug.loading')}</p>}>
          <div key={`${scene}:${renderer}`} className="debug-preview__scene">
            {view}
          </div>
        </Suspense>
      </SceneBoundary>
      {!current && scene === 'roulette' && (
        <p className="debug-preview__note debug-preview__note--over">{t('debug.idle')}</p>
      )}
    </div>
  );
}
