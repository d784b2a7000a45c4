import type { Transaction } from 'kysely';
import type { WheelSegment, WheelSpinResponse, WheelStateResponse } from '../../contract/retention.ts';
import { formatTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { lockPlayer } from '../db/locks.ts';
import { takeNonces } from '../games/fairness.ts';
import { newBetId, recordWeightTable } from '../games/proofs.ts';
import { toApiItem } from '../games/cases.ts';
import { HttpError } from '../lib/errors.ts';
import type { RetentionConfig } from './config.ts';
import { openForFree } from './free-opening.ts';
import { creditInTransaction, credited } from './ledger.ts';

/**
 * The daily bonus wheel (README, "Daily wheel"). Each player gets one spin per rolling WHEEL_COOLDOWN_SECONDS
 * (24 h) and one more for each rank reward of kind `spin`. A spin, in one transaction with the player's row
 * locked first (so 50 requests at once make one spin and 49 refusals or replays):
 *
 *   1. picks the spin: the daily one if its time has come, else the oldest unspent rank spin, else 409;
 *   2. takes the next nonce of the player's seed pair and rolls the segment against the prize table, as a
 *      case opening rolls an item: the table's canonical text is [["ton:0.05",300],["none",150],...]
 *      (segment order), roll = rollInt(total weight), the segment is the first whose running sum exceeds it;
 *   3. pays the prize: TON with a `wheel_prize` ledger row whose external id is the spin's key
 *      (`wheel:daily:<player>:<n>` for the player's n-th daily spin, `wheel:rank:<player>:<level>`), or a
 *      free opening of the named case (its own nonce and bet id; the item goes to the inventory);
 *   4. records the spin with its public bet id (GET /api/fairness/bets/<betId>).
 */

type Trx = Transaction<Database>;

const LEDGER_KIND_WHEEL_PRIZE = 'wheel_prize';

/** The prize table's entries as rolled (their canonical text is what the proof's tableHash covers). */
function tableEntries(config: RetentionConfig) {
  return config.wheelPrizes.map((p) => ({ itemId: p.label, weight: p.weight }));
}

async function prizeCases(db: Db, config: RetentionConfig) {
  const ids = config.wheelPrizes.map((p) => p.caseId).filter((id): id is string => id !== null);
  if (ids.length === 0) return new Map<string, { id: string; name: string; imageUrl: string }>();
  const rows = await db
    .selectFrom('cases')
    .select(['id', 'name', 'image_url'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { id: r.id, name: r.name, imageUrl: r.image_url }]));
}

async function wheelSegments(db: Db, config: RetentionConfig): Promise<WheelSegment[]> {
  const cases = await prizeCases(db, config);
  const total = config.wheelPrizes.reduce((sum, p) => sum + p.weight, 0);
  return config.wheelPrizes.map((p, segment) => ({
    segment,
    kind: p.kind,
    amount: p.kind === 'ton' ? formatTon(p.amountNano) : null,
    case: p.caseId ? (cases.get(p.caseId) ?? null) : null,
    chance: p.weight / total,
  }));
}

interface Availability {
  available: boolean;
  nextSpinAt: string | null;
  extraSpins: number;
  now: string;
  /** the daily spin can be made now */
  daily: boolean;
  /** how many daily spins the player has made */
  dailyCount: number;
}

async function availability(
  db: Db,
  config: RetentionConfig,
  userId: bigint,
  now: Date,
): Promise<Availability> {
  // one after another: inside a transaction the statements share one connection
  const last = await db
    .selectFrom('wheel_spins')
    .select('created_at')
    .where('user_id', '=', userId)
    .where('source', '=', 'daily')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const count = await db
    .selectFrom('wheel_spins')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('source', '=', 'daily')
    .executeTakeFirstOrThrow();
  const extra = await db
    .selectFrom('rank_rewards')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('reward_kind', '=', 'spin')
    .where('spin_id', 'is', null)
    .executeTakeFirstOrThrow();
  const next = last ? new Date(last.created_at.getTime() + config.wheelCooldownMs) : null;
  const daily = next === null || next.getTime() <= now.getTime();
  const extraSpins = Number(extra.n);
  return {
    available: daily || extraSpins > 0,
    nextSpinAt: daily ? null : next!.toISOString(),
    extraSpins,
    now: now.toISOString(),
    daily,
    dailyCount: Number(count.n),
  };
}

/** GET /wheel: the prize table and whether the player can spin (with the countdown's end). */
export async function wheelState(
  db: Db,
  config: RetentionConfig,
  userId: bigint,
  now = new Date(),
): Promise<WheelStateResponse> {
  const [segments, a] = await Promise.all([wheelSegments(db, config), availability(db, config, userId, now)]);
  return { segments, available: a.available, nextSpinAt: a.nextSpinAt, extraSpins: a.extraSpins, now: a.now };
}

/** POST /wheel/spin, inside the request's transaction (withIdempotency). */
export async function spinWheel(
  trx: Trx,
  config: RetentionConfig,
  userId: bigint,
  now = new Date(),
): Promise<WheelSpinResponse> {
  await lockPlayer(trx, userId); // the player first (server/db/locks.ts): one spin of a player at a time
  const before = await availability(trx, config, userId, now);
  let source: 'daily' | 'rank';
  let spinKey: string;
  let rankLevel: number | null = null;
  if (before.daily) {
    source = 'daily';
    spinKey = `daily:${userId}:${before.dailyCount + 1}`;
  } else {
    const reward = await trx
      .selectFrom('rank_rewards')
      .select('level')
      .where('user_id', '=', userId)
      .where('reward_kind', '=', 'spin')
      .where('spin_id', 'is', null)
      .orderBy('level')
      .limit(1)
      .executeTakeFirst();
    if (!reward) {
      throw new HttpError(
        409,
        'WHEEL_COOLDOWN',
        `The next free spin comes at ${before.nextSpinAt}: come back then`,
      );
    }
    source = 'rank';
    rankLevel = reward.level;
    spinKey = `rank:${userId}:${reward.level}`;
  }

  const lease = await takeNonces(trx, userId, 1);
  const nonce = lease.nonces[0]!;
  const tableHash = await recordWeightTable(trx, tableEntries(config));
  const { roll, total, index } = lease.rollWeighted(
    nonce,
    config.wheelPrizes.map((p) => p.weight),
  );
  const prize = config.wheelPrizes[index]!;
  const betId = newBetId();

  let ledgerId: bigint | null = null;
  const externalId = `wheel:${spinKey}`;
  if (prize.kind === 'ton') {
    if (await credited(trx, externalId)) throw new HttpError(409, 'WHEEL_SPUN', 'This spin is already paid');
    ({ ledgerId } = await creditInTransaction(
      trx,
      userId,
      prize.amountNano,
      LEDGER_KIND_WHEEL_PRIZE,
      externalId,
      betId,
    ));
  }
  const opening = prize.kind === 'case' ? await openForFree(trx, userId, prize.caseId!, 'wheel') : null;

  const spin = await trx
    .insertInto('wheel_spins')
    .values({
      user_id: userId,
      public_id: betId,
      source,
      spin_key: spinKey,
      seed_id: lease.seedId,
      server_seed_hash: lease.serverSeedHash,
      client_seed: lease.clientSeed,
      nonce,
      roll,
      total_weight: total,
      table_hash: tableHash,
      segment: index,
      prize_kind: prize.kind,
      prize_nano: prize.amountNano,
      case_id: prize.caseId,
      free_opening_id: opening?.id ?? null,
      ledger_id: ledgerId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (rankLevel !== null) {
    await trx
      .updateTable('rank_rewards')
      .set({ spin_id: spin.id })
      .where('user_id', '=', userId)
      .where('level', '=', rankLevel)
      .execute();
  }

  const after = await availability(trx, config, userId, now);
  const player = await trx
    .selectFrom('users')
    .select('balance_nano')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    betId,
    source,
    segment: index,
    prize: {
      kind: prize.kind,
      amount: prize.kind === 'ton' ? formatTon(prize.amountNano) : null,
      case: opening ? { id: opening.caseId, name: opening.caseName, imageUrl: opening.caseImageUrl } : null,
      item: opening ? toApiItem(opening.item) : null,
      openingBetId: opening?.betId ?? null,
    },
    balance: formatTon(player.balance_nano),
    proof: {
      serverSeedHash: lease.serverSeedHash,
      clientSeed: lease.clientSeed,
      nonce,
      roll,
      totalWeight: total,
      tableHash,
    },
    available: after.available,
    nextSpinAt: after.nextSpinAt,
    extraSpins: after.extraSpins,
    now: after.now,
  };
}
