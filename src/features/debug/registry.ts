import {
  battleMotion,
  battleReelConfig,
  motion as battlePose,
  type BattleReelConfig,
} from '../../../scenes/battle-reel';
import {
  bonusMotion,
  bonusWheelConfig,
  motion as bonusPose,
  pickSpin,
  type BonusWheelConfig,
} from '../../../scenes/bonus-wheel';
import {
  chanceMotion,
  chanceWheelConfig,
  motion as chancePose,
  type ChanceWheelConfig,
} from '../../../scenes/chance-wheel';
import { configSources, type SceneId } from '../../../scenes/debug';
import {
  reelMotion,
  rouletteConfig,
  motion as roulettePose,
  type RouletteConfig,
} from '../../../scenes/roulette';
import { revealMotion, revealPose, winRevealConfig, type WinRevealConfig } from '../../../scenes/win-reveal';
import { BATTLE_CASES } from '../battle/cases';
import type { ConfigDeclaration, ConfigObject, FieldRule } from './config-io';

export type { SceneId };

/** Motion of one fixed plan under a config: poses at evenly spaced times, for comparing two configs. */
export interface MotionSamples {
  durationMs: number;
  /** The scroll (reels, px) or cumulative turns (wheels) at t = 0, d/(n-1), ..., d. */
  values: number[];
}

/** What the switcher knows about a scene. */
export interface SceneEntry {
  id: SceneId;
  /** The constant and type in config.ts. */
  declaration: ConfigDeclaration;
  /** config.ts as it is, to export a whole file. */
  source: string;
  /** The scene's default config. */
  defaults: ConfigObject;
  /** Extra checks of imported fields. */
  rules: Record<string, FieldRule>;
  /** Length of one play, ms: the motion (and, for the chance wheel, the wait for its result). */
  playLength(config: ConfigObject): number;
  /** Poses of a fixed plan under `config`. */
  sample(config: ConfigObject, count?: number): MotionSamples;
}

const DIRECTIONS = ['clockwise', 'counterclockwise'] as const;
/** Width of the reel the samples are taken on, px. */
const SAMPLE_WIDTH = 360;

function times(durationMs: number, count: number): number[] {
  const n = Math.max(count, 2);
  return Array.from({ length: n }, (_, i) => (durationMs * i) / (n - 1));
}

/** A fixed stream of "random" numbers, so pickSpin() is repeatable. */
function fixedStream(values: readonly number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length]!;
}

const asConfig = (config: object) => config as unknown as ConfigObject;

export const SCENES: Record<SceneId, SceneEntry> = {
  roulette: {
    id: 'roulette',
    declaration: { constName: 'rouletteConfig', typeName: 'RouletteConfig' },
    source: configSources.roulette,
    defaults: asConfig(rouletteConfig),
    rules: {},
    playLength: (config) => (config as unknown as RouletteConfig).durationMs,
    sample(config, count = 25) {
      const reel = reelMotion({
        seed: 'sample',
        widthPx: SAMPLE_WIDTH,
        config: config as unknown as Partial<RouletteConfig>,
      });
      return {
        durationMs: reel.durationMs,
        values: times(reel.durationMs, count).map((t) => roulettePose(reel, t).x),
      };
    },
  },
  'chance-wheel': {
    id: 'chance-wheel',
    declaration: { constName: 'chanceWheelConfig', typeName: 'ChanceWheelConfig' },
    source: configSources['chance-wheel'],
    defaults: asConfig(chanceWheelConfig),
    rules: { direction: { choices: DIRECTIONS } },
    playLength: (config) => {
      const c = config as unknown as ChanceWheelConfig;
      return c.durationMs + c.resultDelayMs;
    },
    sample(config, count = 25) {
      const wheel = chanceMotion({
        chance: 0.195,
        rolled: 0.37,
        config: config as unknown as Partial<ChanceWheelConfig>,
      });
      return {
        durationMs: wheel.durationMs,
        values: times(wheel.durationMs, count).map((t) => chancePose(wheel, t).turns),
      };
    },
  },
  'bonus-wheel': {
    id: 'bonus-wheel',
    declaration: { constName: 'bonusWheelConfig', typeName: 'BonusWheelConfig' },
    source: configSources['bonus-wheel'],
    defaults: asConfig(bonusWheelConfig),
    rules: { direction: { choices: DIRECTIONS } },
    playLength: (config) => (config as unknown as BonusWheelConfig).durationMs,
    sample(config, count = 25) {
      const overrides = config as unknown as Partial<BonusWheelConfig>;
      const spin = pickSpin(fixedStream([0.5, 0.35, 0.6]), overrides);
      const wheel = bonusMotion({ ...spin, config: overrides });
      return {
        durationMs: wheel.durationMs,
        values: times(wheel.durationMs, count).map((t) => bonusPose(wheel, t).turns),
      };
    },
  },
  'battle-reel': {
    id: 'battle-reel',
    declaration: { constName: 'battleReelConfig', typeName: 'BattleReelConfig' },
    source: configSources['battle-reel'],
    defaults: asConfig(battleReelConfig),
    rules: {},
    playLength: (config) => (config as unknown as BattleReelConfig).durationMs,
    sample(config, count = 25) {
      const reel = battleMotion({
        images: BATTLE_CASES,
        winnerIndex: 3,
        widthPx: SAMPLE_WIDTH,
        config: config as unknown as Partial<BattleReelConfig>,
      });
      return {
        durationMs: reel.durationMs,
        values: times(reel.durationMs, count).map((t) => battlePose(reel, t).x),
      };
    },
  },
  'win-reveal': {
    id: 'win-reveal',
    declaration: { constName: 'winRevealConfig', typeName: 'WinRevealConfig' },
    source: configSources['win-reveal'],
    defaults: asConfig(winRevealConfig),
    rules: {},
    playLength: (config) => {
      const c = config as unknown as WinRevealConfig;
      return c.durationMs + 4 * c.tierDurationMs;
    },
    sample(config, count = 25) {
      // the top tier's glow: how fast it opens and how long it stays
      const reveal = revealMotion({
        tier: 4,
        seed: 'sample',
        config: config as unknown as Partial<WinRevealConfig>,
      });
      return {
        durationMs: reveal.durationMs,
        values: times(reveal.durationMs, count).map((t) => revealPose(reveal, t).glowRadius),
      };
    },
  },
};

export const SCENE_IDS = Object.keys(SCENES) as SceneId[];

export function isSceneId(value: unknown): value is SceneId {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(SCENES, value);
}
