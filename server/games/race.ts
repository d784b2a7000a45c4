import { sql } from 'kysely';
import type { RaceResponse } from '../../contract/race.ts';
import type { Db } from '../db/index.ts';
import { formatTon as nanoToTon } from '../../contract/money.ts';
import { enqueueNotification } from '../telegram/outbox.ts';
import { creditOnce } from '../users.ts';
import { LEDGER_KIND_BATTLE_REFUND, LEDGER_KIND_BATTLE_SEAT } from './battles.ts';
import { LEDGER_KIND_CASE_OPEN } from './opening.ts';

/**
 * The wager race. Races are consecutive periods of `periodSeconds` counted from the Unix epoch: race k runs
 * from k × period to (k + 1) × period, so every instance (and a restarted one) agrees on the current race
 * without storing it. Points are TON wagered in the period, from the books: the ledger's case openings and
 * battle seats (minus battle refunds) and the stakes of upgrade rolls (an upgrade stakes an item, which
 * its own table records at its price). When a race has ended, its prizes are credited to the top places
 * once each: the ledger's unique external id `race:<period>:<k>:<place>` makes a second payment
 * (another instance, a restart) credit nothing. A cursor remembers the last race paid.
 */

const LEDGER_KIND_RACE_PRIZE = 'race_prize';
/** Places shown on the leaderboard. */
const RACE_LEADERBOARD = 10;
/** Ended races looked back on when paying (a server that was down for days pays the last week). */
const MAX_CATCH_UP = 7;

const WAGER_KINDS = [LEDGER_KIND_CASE_OPEN, LEDGER_KIND_BATTLE_SEAT, LEDGER_KIND_BATTLE_REFUND];

interface RaceWindow {
  index: number;
  start: Date;
  end: Date;
  id: string;
}

function raceWindow(periodSeconds: number, index: number): RaceWindow {
  const ms = periodSeconds * 1000;
  return {
    index,
    start: new Date(index * ms),
    end: new Date((index + 1) * ms),
    id: `${periodSeconds}:${index}`,
  };
}

function currentRaceIndex(periodSeconds: number, nowMs: number): number {
  return Math.floor(nowMs / (periodSeconds * 1000));
}

interface Standing {
  userId: bigint;
  place: number;
  pointsNano: bigint;
  firstName: string;
  photoUrl: string | null;
}

/** The top `limit` players of a period by TON wagered, and `you` wherever they stand. */
async function standings(
  db: Db,
  window: RaceWindow,
  limit: number,
  you: bigint | null = null,
): Promise<Standing[]> {
  const { rows } = await sql<{
    user_id: bigint;
    points: bigint;
    place: bigint;
    first_name: string;
    photo_url: string | null;
  }>`
    WITH wagers AS (
      SELECT user_id, -delta_nano AS points FROM ledger
      WHERE kind IN (${sql.join(WAGER_KINDS)})
        AND created_at >= ${window.start} AND created_at < ${window.end}
      UNION ALL
      SELECT user_id, stake_price_nano AS points FROM upgrades
      WHERE created_at >= ${window.start} AND created_at < ${window.end}
    ), totals AS (
      SELECT user_id, SUM(points)::BIGINT AS points FROM wagers GROUP BY user_id HAVING SUM(points) > 0
    ), placed AS (
      SELECT user_id, points, ROW_NUMBER() OVER (ORDER BY points DESC, user_id ASC) AS place FROM totals
    )
    SELECT p.user_id, p.points, p.place, u.first_name, u.photo_url
    FROM placed p JOIN users u ON u.id = p.user_id
    WHERE p.place <= ${limit} OR p.user_id = ${you ?? -1}
    ORDER BY p.place`.execute(db);
  return rows.map((r) => ({
    userId: BigInt(r.user_id),
    place: Number(r.place),
    pointsNano: BigInt(r.points),
    firstName: r.first_name,
    photoUrl: r.photo_url,
  }));
}

export async function raceView(
  db: Db,
  periodSeconds: number,
  prizesNano: readonly bigint[],
  viewer: bigint | null,
  now = new Date(),
): Promise<RaceResponse> {
  const window = raceWindow(periodSeconds, currentRaceIndex(periodSeconds, now.getTime()));
  const rows = await standings(db, window, RACE_LEADERBOARD, viewer);
  const mine = viewer === null ? null : rows.find((r) => r.userId === viewer);
  return {
    id: window.id,
    startsAt: window.start.toISOString(),
    endsAt: window.end.toISOString(),
    now: now.toISOString(),
    prizes: prizesNano.map(nanoToTon),
    leaderboard: rows
      .filter((r) => r.place <= RACE_LEADERBOARD)
      .map((r) => ({
        place: r.place,
        name: r.firstName,
        avatar: r.photoUrl && /^https?:\/\//i.test(r.photoUrl) ? r.photoUrl : null,
        points: nanoToTon(r.pointsNano),
        prize: nanoToTon(prizesNano[r.place - 1] ?? 0n),
      })),
    you: viewer === null ? null : { place: mine?.place ?? null, points: nanoToTon(mine?.pointsNano ?? 0n) },
  };
}

function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}

/**
 * Pays every ended race not paid yet (up to a week back): each prize once per race and place. Returns
 * the number of prizes this call credited.
 */
export async function payEndedRaces(
  db: Db,
  periodSeconds: number,
  prizesNano: readonly bigint[],
  now = new Date(),
): Promise<number> {
  const cursorName = `race:${periodSeconds}`;
  const current = currentRaceIndex(periodSeconds, now.getTime());
  const cursor = await db
    .selectFrom('payment_cursors')
    .select('position')
    .where('name', '=', cursorName)
    .executeTakeFirst();
  const from = Math.max(cursor ? Number(cursor.position) + 1 : current - 1, current - MAX_CATCH_UP);
  let credited = 0;
  for (let index = from; index < current; index++) {
    const window = raceWindow(periodSeconds, index);
    const winners = await standings(db, window, prizesNano.length);
    for (const w of winners) {
      const prize = prizesNano[w.place - 1] ?? 0n;
      if (prize <= 0n) continue;
      try {
        const paid = await creditOnce(
          db,
          w.userId,
          prize,
          LEDGER_KIND_RACE_PRIZE,
          `race:${window.id}:${w.place}`,
          window.id,
          (trx) =>
            enqueueNotification(
              trx,
              w.userId,
              'race_prize',
              { amount: nanoToTon(prize), place: String(w.place) },
              `race:${window.id}:${w.place}`,
            ),
        );
        if (paid) credited++;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err; // another instance paid it at the same moment
      }
    }
    await db
      .insertInto('payment_cursors')
      .values({ name: cursorName, position: index })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          position: sql<bigint>`GREATEST(payment_cursors.position, excluded.position)`,
          updated_at: sql<Date>`now()`,
        }),
      )
      .execute();
  }
  return credited;
}
