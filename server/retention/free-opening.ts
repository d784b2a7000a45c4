import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { commitWith, prepared } from '../db/postgres-driver.ts';
import { entryOf, type EntryItemColumns, type RolledItem } from '../games/cases.ts';
import { leaseOf, takeNonces, type SeedLease } from '../games/fairness.ts';
import { newBetId, weightTable } from '../games/proofs.ts';
import { conflict } from '../lib/errors.ts';

type Trx = Transaction<Database>;

type PrizeItem = RolledItem;

/** A prize case as a free opening reads it: the case and its entries in roll order. */
export interface PrizeCase {
  id: string;
  name: string;
  image_url: string;
  price_nano: bigint;
  entries: { weight: number; item: PrizeItem }[];
}

export interface FreeOpening {
  id: bigint;
  betId: string;
  caseId: string;
  caseName: string;
  caseImageUrl: string;
  item: PrizeItem;
}

const PRIZE_CASE = `SELECT c.id AS case_id, c.name AS case_name, c.image_url AS case_image_url,
  c.price_nano AS case_price_nano, ci.weight, i.id, i.name, i.name_ru, i.price_nano, i.rarity, i.image_url
FROM cases c
LEFT JOIN case_items ci ON ci.case_id = c.id
LEFT JOIN items i ON i.id = ci.item_id
WHERE c.id = $1::text
ORDER BY ci.position, ci.id`;

interface PrizeCaseRow extends EntryItemColumns {
  case_id: string;
  case_name: string;
  case_image_url: string;
  case_price_nano: bigint;
}

/**
 * The read of a prize case with its entries in roll order (the order a bought opening rolls in), one
 * statement; a caller may send it together with others (db/postgres-driver.ts, executeTogether) and read
 * its rows with prizeCaseOf.
 */
export function prizeCaseQuery(caseId: string): CompiledQuery {
  return prepared(CompiledQuery.raw(PRIZE_CASE, [caseId]));
}

/** The prize case from prizeCaseQuery's rows; 409 PRIZE_CASE_MISSING when it is gone or has no items. */
export function prizeCaseOf(caseId: string, rows: readonly unknown[]): PrizeCase {
  const read = rows as PrizeCaseRow[];
  const first = read[0];
  const entries: PrizeCase['entries'] = [];
  for (const r of read) {
    const entry = entryOf(r); // a case without entries: one row, no item
    if (entry) entries.push(entry);
  }
  if (!first || entries.length === 0)
    throw conflict('PRIZE_CASE_MISSING', `The prize case "${caseId}" is gone`);
  return {
    id: first.case_id,
    name: first.case_name,
    image_url: first.case_image_url,
    price_nano: first.case_price_nano,
    entries,
  };
}

/** Where a free opening's nonce comes from: a lease taken already, or the pair's next nonce, taken by the write. */
type FreeNonce =
  | { taken: SeedLease }
  | {
      /** The player's seed pair (locked by the caller) and its next nonce: the write moves it on by one. */
      seed: { id: bigint; server_seed: string; server_seed_hash: string; client_seed: string };
      nonce: number;
    };

export interface FreeOpeningWrite {
  userId: bigint;
  source: 'wheel' | 'rank';
  prize: PrizeCase;
  nonce: FreeNonce;
  /**
   * A rank's case reward: the write also records the reward (rank_rewards, citing the opening), and does
   * nothing at all when the rank's reward is granted already (the primary key's once, checked first).
   */
  rank?: { level: number };
}

/**
 * A case opened for free as a prize (a wheel segment, a rank reward), inside the caller's transaction (the
 * player's row is locked already): the next nonce of the player's seed pair draws the item against the
 * case's weight table exactly like a bought opening (README, "The algorithm"), and one statement records
 * it with its own public bet id, stores the weight table, puts the item in the inventory and, for a rank,
 * records the reward. Nothing is debited; it does not count as an opening for the ranks (those count the
 * openings paid for). Returns null when a rank's reward was granted already (nothing written).
 * `commits`: the COMMIT goes with the statement (db/postgres-driver.ts, commitWith).
 */
export async function recordFreeOpening(
  trx: Trx,
  write: FreeOpeningWrite,
  commits = false,
): Promise<FreeOpening | null> {
  const { userId, prize } = write;
  const lease =
    'taken' in write.nonce
      ? write.nonce.taken
      : // the lease of the one nonce the statement takes (leaseOf counts from the nonce after it)
        leaseOf({ ...write.nonce.seed, nonce: write.nonce.nonce + 1 }, 1);
  const nonce = lease.nonces[0]!;
  const table = weightTable(prize.entries.map((e) => ({ itemId: e.item.id, weight: e.weight })));
  const { roll, total, index } = lease.rollWeighted(
    nonce,
    prize.entries.map((e) => e.weight),
  );
  const item = prize.entries[index]!.item;
  const betId = newBetId();

  const values: unknown[] = [];
  const p = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const user = p(userId, 'bigint');
  const level = write.rank ? p(write.rank.level, 'integer') : null;
  const ctes: string[] = [];
  // a rank's reward is written once: the player's row is locked, so the check cannot race
  ctes.push(
    level
      ? `due AS (SELECT 1 AS due WHERE NOT EXISTS (SELECT 1 FROM rank_rewards WHERE user_id = ${user} AND level = ${level}))`
      : `due AS (SELECT 1 AS due)`,
  );
  let seedId: string;
  if ('taken' in write.nonce) {
    seedId = p(lease.seedId, 'bigint');
  } else {
    // the pair moves on past the nonce drawn, only if it is still where the draw read it (else the opening's
    // seed reference is null and the statement fails as a whole)
    ctes.push(`seed AS (
  UPDATE fairness_seeds SET nonce = nonce + 1
  WHERE id = ${p(write.nonce.seed.id, 'bigint')} AND active AND nonce = ${p(nonce, 'integer')}
    AND EXISTS (SELECT 1 FROM due)
  RETURNING id
)`);
    seedId = '(SELECT id FROM seed)';
  }
  const hash = p(table.hash, 'text');
  const itemId = p(item.id, 'text');
  const caseId = p(prize.id, 'text');
  ctes.push(`stored_table AS (
  INSERT INTO weight_tables (hash, entries) SELECT ${hash}, ${p(table.entries, 'text')} FROM due
  ON CONFLICT (hash) DO NOTHING
)`);
  ctes.push(`opened AS (
  INSERT INTO free_openings (user_id, public_id, source, case_id, case_price_nano, item_id, seed_id,
    server_seed_hash, client_seed, nonce, roll, total_weight, weight_table_hash)
  SELECT ${user}, ${p(betId, 'text')}, ${p(write.source, 'text')}, ${caseId}, ${p(prize.price_nano, 'bigint')},
    ${itemId}, ${seedId}, ${p(lease.serverSeedHash, 'text')}, ${p(lease.clientSeed, 'text')},
    ${p(nonce, 'integer')}, ${p(roll, 'bigint')}, ${p(total, 'bigint')}, ${hash}
  FROM due
  RETURNING id
)`);
  ctes.push(`stocked AS (
  INSERT INTO inventory (user_id, item_id, quantity) SELECT ${user}, ${itemId}, 1 FROM opened
  ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = inventory.quantity + excluded.quantity, updated_at = now()
)`);
  if (level) {
    ctes.push(`granted AS (
  INSERT INTO rank_rewards (user_id, level, reward_kind, amount_nano, case_id, free_opening_id)
  SELECT ${user}, ${level}, 'case', 0, ${caseId}, id FROM opened
)`);
  }
  const text = `WITH ${ctes.join(', ')}\nSELECT id FROM opened`;
  // one text per kind (wheel, rank): prepared once per connection
  const query = prepared(CompiledQuery.raw(text, values));
  const { rows } = commits ? await commitWith(trx, query) : await trx.executeQuery(query);
  const row = rows[0] as { id: bigint } | undefined;
  if (!row) return null;
  return {
    id: row.id,
    betId,
    caseId: prize.id,
    caseName: prize.name,
    caseImageUrl: prize.image_url,
    item,
  };
}

/**
 * A case opened for free outside an opening (a wheel segment), inside the caller's transaction (the
 * player's row is locked already): reads the case, takes the pair's next nonce and records it (three
 * statements). A rank's case reward is written by the opening that reaches it (retention/ranks.ts).
 */
export async function openForFree(
  trx: Trx,
  userId: bigint,
  caseId: string,
  source: 'wheel' | 'rank',
): Promise<FreeOpening> {
  const { rows } = await trx.executeQuery(prizeCaseQuery(caseId));
  const prize = prizeCaseOf(caseId, rows);
  const taken = await takeNonces(trx, userId, 1);
  const opening = await recordFreeOpening(trx, { userId, source, prize, nonce: { taken } });
  // without a rank there is no once to hold it back: the statement always writes
  if (!opening) throw new Error('the free opening was not recorded');
  return opening;
}
