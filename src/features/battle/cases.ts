import type { BattleCase } from '../../../scenes/battle-reel';

/** The seven cases on the battle reel (spec §9: 7 images). */
export const BATTLE_CASES: readonly BattleCase[] = [
  'starter',
  'flowers',
  'sweet',
  'gems',
  'royal',
  'premium',
  'legendary',
].map((id) => ({ id, name: id, imageUrl: `/assets/cases/${id}.svg` }));

/** The two players' bets (spec §2: 19 and 23). */
export const BETS = [19, 23] as const;

/** Slots in each player's inventory grid (spec §9: 9). */
export const INVENTORY_SLOTS = 9;

/** The round shown (spec §2: a round counter of 1). */
export const ROUND = 1;
