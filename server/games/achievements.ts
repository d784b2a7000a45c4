import { sql } from 'kysely';
import type { Achievement } from '../../contract/users.ts';
import type { Db } from '../db/index.ts';
import { NANO_PER_TON } from '../../contract/money.ts';

/**
 * Achievements, computed from the player's real history (the openings table), never stored:
 *
 *   First Case      at least 1 opening                                        (progress: openings / 1)
 *   Lucky Strike    an opening whose item is worth at least 5× the case price paid for it
 *   Case Collector  at least 100 openings                                     (progress: openings / 100)
 *   High Roller     an opening of a case priced more than 50 TON
 *
 * The item's worth is its current catalogue price; the case price is the one paid (kept per opening).
 */

const FIRST_CASE_OPENINGS = 1;
const CASE_COLLECTOR_OPENINGS = 100;
/** Lucky Strike: item price >= this × case price */
const LUCKY_STRIKE_MULTIPLIER = 5;
/** High Roller: a case priced strictly more than this */
const HIGH_ROLLER_CASE_PRICE_NANO = 50n * NANO_PER_TON;

interface OpeningFacts {
  openings: number;
  luckyStrike: boolean;
  highRoller: boolean;
}

/** What the achievements are computed from, in one query over the player's openings. */
async function openingFacts(db: Db, userId: bigint): Promise<OpeningFacts> {
  const row = await db
    .selectFrom('openings as o')
    .innerJoin('items as i', 'i.id', 'o.item_id')
    .select([
      (eb) => eb.fn.countAll<string>().as('openings'),
      sql<boolean>`coalesce(bool_or(i.price_nano >= o.price_nano * ${sql.lit(LUCKY_STRIKE_MULTIPLIER)}), false)`.as(
        'lucky',
      ),
      sql<boolean>`coalesce(bool_or(o.price_nano > ${sql.lit(Number(HIGH_ROLLER_CASE_PRICE_NANO))}), false)`.as(
        'high',
      ),
    ])
    .where('o.user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return { openings: Number(row.openings), luckyStrike: row.lucky, highRoller: row.high };
}

const fraction = (count: number, target: number) => Math.min(count / target, 1);

/** The achievements grid, in display order. */
function achievementsFrom(facts: OpeningFacts): Achievement[] {
  return [
    {
      id: 'first_case',
      unlocked: facts.openings >= FIRST_CASE_OPENINGS,
      progress: fraction(facts.openings, FIRST_CASE_OPENINGS),
    },
    { id: 'lucky_strike', unlocked: facts.luckyStrike },
    {
      id: 'case_collector',
      unlocked: facts.openings >= CASE_COLLECTOR_OPENINGS,
      progress: fraction(facts.openings, CASE_COLLECTOR_OPENINGS),
    },
    { id: 'high_roller', unlocked: facts.highRoller },
  ];
}

/** The player's achievements from their openings. */
export async function playerAchievements(db: Db, userId: bigint): Promise<Achievement[]> {
  return achievementsFrom(await openingFacts(db, userId));
}
