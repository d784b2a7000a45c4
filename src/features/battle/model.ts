import type { BattleCase, BattleReelScenePlan } from '../../../scenes/battle-reel';
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

/** A case's items as a reel's tiles. */
function reelCases(box: Battle['cases'][number] | undefined): BattleCase[] {
  return (box?.items ?? []).map((i) => ({ id: i.id, name: i.name, imageUrl: i.imageUrl }));
}

/** What one seat's reel shows of a battle: its plan, the play that turns it, and the round it plays. */
export interface SeatReel {
  plan: BattleReelScenePlan;
  /** a new value plays the plan (a round revealed); null: the reel rests */
  play: string | null;
  /** the battle's revealed round this reel shows (0 before the first) */
  round: number;
  /** what the plan is made of: two reels with the same key show the same thing */
  key: string;
}

/**
 * A seat's reel for the battle as the server last told it: the revealed round's case, landing on the seat's
 * roll in it (the server's), with the later rounds' cases to bake while it waits. Pure, so the room can
 * compute it the moment an answer lands, before React renders it.
 */
export function seatReel(battle: Battle, seat: number, reducedMotion: boolean): SeatReel {
  const round = battle.revealedRounds;
  const box = battle.cases[Math.max(0, round - 1)];
  const later = battle.cases.slice(Math.max(round, 1));
  const landed = round > 0 ? landedIndex(battle, round, seat) : null;
  return {
    plan: { images: reelCases(box), winnerIndex: landed, reducedMotion, upcoming: later.map(reelCases) },
    play: landed === null ? null : `${battle.id}:${round}`,
    round,
    key: [
      battle.id,
      round,
      box?.id ?? '',
      landed ?? '',
      reducedMotion,
      later.map((c) => c.id).join(','),
    ].join('|'),
  };
}

/**
 * The reel to show next: the previous one when the battle's new state shows the same (a refetch, a seat
 * taken, a total changed), so the scene is neither prepared again nor replayed; the new one otherwise.
 */
export function nextSeatReel(previous: SeatReel | null, next: SeatReel): SeatReel {
  return previous !== null && previous.key === next.key ? previous : next;
}
