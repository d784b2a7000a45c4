import battleReelSource from '../battle-reel/config.ts?raw';
import bonusWheelSource from '../bonus-wheel/config.ts?raw';
import chanceWheelSource from '../chance-wheel/config.ts?raw';
import rouletteSource from '../roulette/config.ts?raw';
import winRevealSource from '../win-reveal/config.ts?raw';

/**
 * What the debug scene switcher needs from the scenes besides their public entries: the text of every
 * scene's config.ts, so that a tuned config is exported as a whole file (comments and all) that replaces
 * the scene's config.ts as it is. Only the switcher imports this entry, so the text ships in its chunk.
 */
export const configSources = {
  roulette: rouletteSource,
  'chance-wheel': chanceWheelSource,
  'bonus-wheel': bonusWheelSource,
  'battle-reel': battleReelSource,
  'win-reveal': winRevealSource,
} as const;

export type SceneId = keyof typeof configSources;

export { parseEase } from '../shared/easing.ts';
