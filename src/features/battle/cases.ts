import type { BattleCase } from '../../../scenes/battle-reel';

/** Seven case images for the battle reel in the debug scene switcher (spec §9: 7 images). */
export const BATTLE_CASES: readonly BattleCase[] = [
  'starter',
  'flowers',
  'sweet',
  'gems',
  'royal',
  'premium',
  'legendary',
].map((id) => ({ id, name: id, imageUrl: `/assets/cases/${id}.svg` }));
