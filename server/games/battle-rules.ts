/**
 * The rules of a case battle as pure functions, so that the server, the tests and anyone checking a battle
 * compute the same things from the same public data (contract/battles.ts has the summary).
 *
 *   publicSeed       = hex SHA-256 of the seats' client seeds joined by ':' in join order
 *   roll(round, seat) = rollWeighted(serverSeed, `${publicSeed}:${round}`, seat, weights of the round's case)
 *                      i.e. HMAC-SHA256(serverSeed, `${publicSeed}:${round}:${seat}`) read as in fair.ts
 *   team totals      = sum of the item prices (nanoTON) of the team's seats over all rounds
 *   winner           = the team with the highest total (normal) or the lowest (crazy); when several teams
 *                      tie, tieRoll = rollInt(serverSeed, `${publicSeed}:tie`, 0, number of tied teams)
 *                      picks one of them (tied teams in ascending order)
 *   awards           = every item of every seat goes to the winning team; with two seats on the team the
 *                      items are shared: taken by price, highest first (then by round, then seat), each
 *                      to the teammate holding less so far (the lower seat on equal holdings)
 */
import { createHash } from 'node:crypto';
import { BATTLE_SEATS, type BattleFormat, type BattleMode } from '../../contract/battles.ts';
import { rollInt, rollWeighted } from './fair.ts';

export function seatCount(format: BattleFormat): number {
  return BATTLE_SEATS[format];
}

/** The team of a seat: in 2v2 seats 0-1 are team 0 and seats 2-3 team 1; otherwise each seat alone. */
export function teamOf(format: BattleFormat, seat: number): number {
  return format === '2v2' ? Math.floor(seat / 2) : seat;
}

function teamCount(format: BattleFormat): number {
  return format === '2v2' ? 2 : seatCount(format);
}

export function publicSeedOf(clientSeedsInJoinOrder: readonly string[]): string {
  return createHash('sha256').update(clientSeedsInJoinOrder.join(':'), 'utf8').digest('hex');
}

/** A house bot's client seed: fixed by the battle's public id and the seat, so no one chooses it. */
export function botClientSeed(publicId: string, seat: number): string {
  return `bot-${publicId}-${seat}`;
}

export interface RoundCase<T> {
  /** integer drop weights in roll order */
  weights: readonly number[];
  /** the entries the weights belong to */
  entries: readonly T[];
}

export interface SeatRoll<T> {
  /** from 1 */
  round: number;
  /** from 0 */
  seat: number;
  roll: number;
  totalWeight: number;
  entry: T;
}

/** Draws every round for every seat. */
export function rollAll<T>(
  serverSeed: string,
  publicSeed: string,
  rounds: readonly RoundCase<T>[],
  seats: number,
): SeatRoll<T>[] {
  const out: SeatRoll<T>[] = [];
  rounds.forEach((box, i) => {
    const round = i + 1;
    for (let seat = 0; seat < seats; seat++) {
      const { roll, total, index } = rollWeighted(serverSeed, `${publicSeed}:${round}`, seat, box.weights);
      out.push({ round, seat, roll, totalWeight: total, entry: box.entries[index]! });
    }
  });
  return out;
}

export interface Outcome {
  winnerTeam: number;
  /** the tie-break roll, or null when no teams tied */
  tieRoll: number | null;
  teamTotals: bigint[];
}

/** The winning team from each seat's total value (nanoTON). */
export function decideWinner(
  format: BattleFormat,
  mode: BattleMode,
  seatTotals: readonly bigint[],
  serverSeed: string,
  publicSeed: string,
): Outcome {
  const teamTotals = Array.from({ length: teamCount(format) }, () => 0n);
  seatTotals.forEach((total, seat) => {
    teamTotals[teamOf(format, seat)]! += total;
  });
  let best = teamTotals[0]!;
  for (const t of teamTotals) if (mode === 'normal' ? t > best : t < best) best = t;
  const tied = teamTotals.flatMap((t, team) => (t === best ? [team] : []));
  if (tied.length === 1) return { winnerTeam: tied[0]!, tieRoll: null, teamTotals };
  const tieRoll = rollInt(serverSeed, `${publicSeed}:tie`, 0, tied.length);
  return { winnerTeam: tied[tieRoll]!, tieRoll, teamTotals };
}

/** Which seat gets each item: a map from `${round}:${seat}` of the roll to the receiving seat. */
export function awardItems(
  format: BattleFormat,
  winnerTeam: number,
  rolls: readonly { round: number; seat: number; price: bigint }[],
): Map<string, number> {
  const seats = Array.from({ length: seatCount(format) }, (_, s) => s).filter(
    (s) => teamOf(format, s) === winnerTeam,
  );
  const held = new Map(seats.map((s) => [s, 0n]));
  const order = [...rolls].sort((a, b) =>
    a.price !== b.price ? (a.price > b.price ? -1 : 1) : a.round - b.round || a.seat - b.seat,
  );
  const awards = new Map<string, number>();
  for (const r of order) {
    let to = seats[0]!;
    for (const s of seats) if (held.get(s)! < held.get(to)!) to = s;
    held.set(to, held.get(to)! + r.price);
    awards.set(`${r.round}:${r.seat}`, to);
  }
  return awards;
}
