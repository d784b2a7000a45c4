import { battleReelScene } from '../battle-reel/scene.ts';
import { bonusWheelScene } from '../bonus-wheel/scene.ts';
import { chanceWheelScene } from '../chance-wheel/scene.ts';
import { rouletteScene } from '../roulette/scene.ts';
import { winRevealScene } from '../win-reveal/scene.ts';
import type { SceneFactory, SceneId } from './contract.ts';

/** Every scene the runtime can host, by id. */
export const sceneFactories: Record<SceneId, SceneFactory> = {
  roulette: rouletteScene,
  'chance-wheel': chanceWheelScene,
  'bonus-wheel': bonusWheelScene,
  'battle-reel': battleReelScene,
  'win-reveal': winRevealScene,
};
