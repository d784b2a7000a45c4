import type { Battle, BattleFormat } from '../../../contract/battles.ts';

/** Formats in the order the create screen offers them. */
export const FORMATS: readonly BattleFormat[] = ['1v1', '1v1v1', '1v1v1v1', '2v2'];
export const MAX_ROUNDS = 10;

/** Item index in the round's case list that the seat rolled in that round; null when not revealed. */
export function landedIndex(battle: Battle, round: number, seat: number): number | null {
  const roll = battle.rolls.find((r) => r.round === round && r.seat === seat);
  const box = battle.cases[round - 1];
  if (!roll || !box) return null;
  const index = box.items.findIndex((i) => i.id === roll.item.id);
  return index < 0 ? null : index;
}

/** The seats of the winning team, once finished. */
export function winningSeats(battle: Battle): Set<number> {
  if (battle.winnerTeam === null) return new Set();
  return new Set(battle.seats.filter((s) => s.team === battle.winnerTeam).map((s) => s.seat));
}

export const mySeat = (battle: Battle) => battle.seats.find((s) => s.isYou) ?? null;
export const freeSeats = (battle: Battle) => battle.seats.filter((s) => s.player === null).length;
