import { useMemo } from 'react';
import { battleReelHeight, type BattleReelConfig } from '../../../scenes/battle-reel';
import type { BonusSegment, BonusSpin } from '../../../scenes/bonus-wheel';
import {
  rouletteHeight,
  type RendererChoice,
  type RouletteConfig,
  type RouletteItem,
} from '../../../scenes/roulette';
import type { SceneEvent } from '../../../scenes/runtime';
import type { RevealTier } from '../../../scenes/win-reveal';
import type { SceneSurface } from '../../lib/scene/runtime';
import { SceneView, useSceneCue } from '../../lib/scene/SceneView';
import { sceneResolution } from '../../lib/scene-hooks';
import { BATTLE_CASES } from '../battle/cases';
import type { ConfigObject } from './config-io';
import type { SceneId } from './registry';
import { SAMPLE_CHANCE } from './sample-data';

/** One play of a scene: its random choices, fixed when Replay was pressed (the config stays live). */
export interface Play {
  id: number;
  scene: SceneId;
  /** Roulette: the cards and each reel's winner. */
  items: readonly RouletteItem[];
  winners: number[];
  /** Chance wheel: the roll. */
  rolled: number;
  /** Bonus wheel: the spin. */
  spin: BonusSpin;
  /** Battle reel: the winning case. */
  battleWinner: number;
  /** Win reveal: the tier shown. */
  revealTier: RevealTier;
}

interface ScenePreviewProps {
  scene: SceneId;
  reels: number;
  renderer: RendererChoice | 'auto';
  width: number;
  /** The play under way or last played; null before the first. */
  play: Play | null;
  /** The cards shown before the first play (baked ahead). */
  items: readonly RouletteItem[];
  /** The config as edited: sent to the running scene live. */
  config: ConfigObject;
  segments: readonly BonusSegment[];
  onSurface: (surface: SceneSurface | null) => void;
  onEvents: (events: SceneEvent[]) => void;
}

/** Largest wheel, px. */
const MAX_WHEEL = 360;
/** Space above and below the battle reel's tiles, px. */
const BATTLE_PADDING = 12;

/** Height the preview needs for a scene, px. */
function previewHeight(scene: SceneId, reels: number, width: number, config: ConfigObject): number {
  if (scene === 'roulette') return rouletteHeight(reels, config as unknown as Partial<RouletteConfig>);
  if (scene === 'battle-reel')
    return battleReelHeight(BATTLE_PADDING, config as unknown as Partial<BattleReelConfig>);
  return Math.min(width, MAX_WHEEL);
}

/**
 * The chosen scene on the scene runtime (the same worker as the app's screens), with sample data. A new
 * play (a new Play object) starts a new spin; config edits reach the running scene without a restart; the
 * renderer is read when the canvas is made, so changing it makes a new canvas.
 */
export function ScenePreview(props: ScenePreviewProps) {
  const { scene, reels, renderer, width, play, items, config, segments, onSurface, onEvents } = props;
  const current = play?.scene === scene ? play : null;
  const height = previewHeight(scene, reels, width, config);
  const dpr = sceneResolution();
  const common = {
    width,
    height,
    dpr,
    renderer: renderer === 'auto' ? undefined : renderer,
    onSurface,
    onEvents,
    className: 'debug-preview__canvas',
  };
  const playKey = current?.id ?? null;

  // during a play its own cards (a catalogue arriving meanwhile must not prepare the reels again)
  const cards = current?.items ?? items;
  const roulettePlan = useMemo(
    () => ({
      items: cards,
      reels: current
        ? current.winners.slice(0, reels).map((winner, i) => ({
            items: current.items,
            winnerIndex: winner % current.items.length,
            seed: `debug:${current.id}:${i}`,
          }))
        : [],
    }),
    [current, cards, reels],
  );
  const chancePlan = useMemo(() => ({ chance: SAMPLE_CHANCE, rolled: current?.rolled ?? null }), [current]);
  const bonusPlan = useMemo(() => ({ segments, spin: current?.spin ?? null }), [current, segments]);
  const battlePlan = useMemo(
    () => ({ images: BATTLE_CASES, winnerIndex: current?.battleWinner ?? null }),
    [current],
  );

  const revealPlan = useMemo(
    // a legendary gold, seeded by the play so a replay of the same tier throws a new burst
    () => ({ tier: current?.revealTier ?? 4, color: 0xf5a524, seed: `debug:${current?.id ?? 0}` }),
    [current],
  );

  const rouletteCue = useSceneCue(roulettePlan, playKey);
  const chanceCue = useSceneCue(chancePlan, playKey);
  const bonusCue = useSceneCue(bonusPlan, playKey);
  const battleCue = useSceneCue(battlePlan, playKey);
  const revealCue = useSceneCue(revealPlan, playKey);

  let view = null;
  if (width > 0) {
    if (scene === 'roulette')
      view = (
        <SceneView
          scene="roulette"
          cue={rouletteCue}
          config={config as unknown as Partial<RouletteConfig>}
          {...common}
        />
      );
    else if (scene === 'chance-wheel')
      view = <SceneView scene="chance-wheel" cue={chanceCue} config={config} {...common} />;
    else if (scene === 'bonus-wheel')
      view = <SceneView scene="bonus-wheel" cue={bonusCue} config={config} {...common} />;
    else if (scene === 'battle-reel')
      view = <SceneView scene="battle-reel" cue={battleCue} config={config} {...common} />;
    else view = <SceneView scene="win-reveal" cue={revealCue} config={config} {...common} />;
  }

  return (
    <div
      className="debug-preview"
      style={{ minHeight: height }}
      data-testid="debug-preview"
      data-scene={scene}
      data-reveal-tier={scene === 'win-reveal' ? revealPlan.tier : undefined}
    >
      <div key={`${scene}:${renderer}`} className="debug-preview__scene">
        {view}
      </div>
    </div>
  );
}
