import { CompiledQuery, sql, type QueryCreator, type Transaction } from 'kysely';
import type { HistoryEntry, OpenResult } from '../../contract/cases.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { noteLocked } from '../db/locks.ts';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import type { DropRow } from '../realtime/feed.ts';
import { entryOf, toApiItem, type EntryItemColumns, type ItemRow, type RolledItem } from './cases.ts';
import { activeSeedQuery, leaseOf, lockActiveSeed, type TakenSeed } from './fairness.ts';
import { newBetId, weightTable } from './proofs.ts';
import { formatTon } from '../../contract/money.ts';
import { grantRankRewards, rankPrizeCases, rankRewardDue, rankRewardStatements } from '../retention/ranks.ts';
import { prizeCaseOf, prizeCaseQuery, type PrizeCase } from '../retention/free-opening.ts';
import { commitWith, executeTogether, prepared } from '../db/postgres-driver.ts';
import type { KeyClaim } from '../lib/idempotency.ts';

type Trx = Transaction<Database>;

/** The most copies of one case a single request may open (the x1, x2, x3 of the case page). */
const MAX_COPIES = 3;

export const LEDGER_KIND_CASE_OPEN = 'case_open';

const insufficientBalance = () =>
  new HttpError(402, 'INSUFFICIENT_BALANCE', 'Not enough funds: top up your balance to open this case');

export interface OpenOutcome {
  results: OpenResult[];
  balanceNano: bigint;
  /** one per copy, for the live feed to announce once the transaction has committed */
  drops: DropRow[];
}

/**
 * Opens `amount` copies of a case for a player, all in one transaction (DESIGN.md rules 1-4):
 * refuse unknown (404), inactive (409) or locked (403) cases; debit price × amount only if the balance
 * covers it (402 otherwise) with one ledger row; take one nonce per copy from the player's seed pair and
 * draw each item by its integer weight; record the openings, add the items to the inventory and count
 * the openings. Any refusal or failure rolls everything back: nothing changes.
 *
 * Cost: three statements: the player's lock with the case and its entries, and the seed pair (locked second),
 * sent together; then one that debits, writes the ledger row, takes the nonces and records the openings,
 * their weight table and inventory. With BEGIN and COMMIT, two round trips on Postgres
 * (tests/api/opening-cost.test.ts counts them; `npm run bench -- server`). A step that belongs to the
 * opening (a rank reward when the openings count crosses a threshold) runs after the records, on `trx`:
 * the prize case of a case reward is read in the same exchange as the records, and each reward is one
 * statement, the last carrying the COMMIT (three round trips in all).
 * `commits`: the opening is the whole of its transaction, so its last statement may carry the COMMIT
 * (db/postgres-driver.ts, commitWith): nothing runs on the transaction after openCase returns.
 * `claim`: an Idempotency-Key's claim (lib/idempotency.ts, KeyClaim), sent between the player's lock and the
 * seed pair and checked before anything else is: a retry stops there and its stored answer is replayed.
 */
export async function openCase(
  db: Db,
  userId: bigint,
  caseId: string,
  amount: number,
  options: { commits?: boolean; claim?: KeyClaim | null } = {},
): Promise<OpenOutcome> {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_COPIES) {
    throw new RangeError(`amount must be an integer in [1, ${MAX_COPIES}]`);
  }
  // given a transaction (an idempotent request's), open inside it; given the database, in a new one
  const run = async (trx: Trx): Promise<OpenOutcome> => {
    // the lock order of server/db/locks.ts: the player first (with the case), then their seed pair
    const {
      player,
      box,
      seed: found,
    } = await lockPlayerAndLoadCase(trx, userId, caseId, options.claim ?? null);
    if (!box) throw notFound('CASE_NOT_FOUND', `There is no case "${caseId}"`);
    if (!box.is_active) throw conflict('CASE_INACTIVE', 'This case cannot be opened right now');
    if (box.is_locked) throw forbidden('CASE_LOCKED', 'This case is locked!');
    const { entries } = box;
    if (entries.length === 0) throw conflict('CASE_EMPTY', 'This case has no items to drop');
    const weights = entries.map((e) => e.weight);

    // the player's row is locked: the balance read is the balance the debit takes from
    const cost = box.price_nano * BigInt(amount);
    if (player.balance_nano < cost) throw insufficientBalance();
    // a player's first roll creates the seed pair here
    const seed = found ?? (await lockActiveSeed(trx, userId));
    const lease = leaseOf({ ...seed, nonce: seed.nonce + amount }, amount);
    const table = weightTable(entries.map((e) => ({ itemId: e.item.id, weight: e.weight })));
    const draws = lease.nonces.map((nonce) => {
      const { roll, total, index } = lease.rollWeighted(nonce, weights);
      return { nonce, roll, total, item: entries[index]!.item, betId: newBetId() };
    });

    // the records are the last statement unless a rank reward follows: then the COMMIT goes with the reward,
    // and the prize cases of the rewards are read in the same exchange as the records
    const openingsAfter = player.openings_count + amount;
    const rewardDue = rankRewardDue(openingsAfter, amount);
    const commits = options.commits === true || !db.isTransaction;
    const records = debitAndRecordQuery({
      userId,
      caseId,
      priceNano: box.price_nano,
      cost,
      seedId: seed.id,
      nonceBefore: seed.nonce,
      serverSeedHash: lease.serverSeedHash,
      clientSeed: lease.clientSeed,
      table,
      draws,
    });
    let recordedRows: readonly unknown[];
    let prizes = new Map<string, PrizeCase>();
    // spin and TON rewards go in the records' exchange; a case reward's free opening needs its prize case
    const inline = rewardDue ? rankRewardStatements(trx, userId, openingsAfter, amount) : null;
    let inlineBalance: bigint | null = null;
    if (!rewardDue) {
      ({ rows: recordedRows } = commits ? await commitWith(trx, records) : await trx.executeQuery(records));
    } else if (inline) {
      const [written, ...granted] = await executeTogether(trx, [records, ...inline.queries], { commits });
      recordedRows = written!.rows;
      inlineBalance = inline.balanceOf(granted);
    } else {
      const prizeIds = rankPrizeCases(openingsAfter, amount);
      const [written, ...read] = await executeTogether(trx, [records, ...prizeIds.map(prizeCaseQuery)]);
      recordedRows = written!.rows;
      prizes = new Map(prizeIds.map((id, i) => [id, prizeCaseOf(id, read[i]!.rows)]));
    }
    const recorded = recordedOf(recordedRows, draws.length);
    const byNonce = new Map(recorded.openings.map((r) => [r.nonce, r]));

    return {
      // a rank this opening reached pays its reward now
      balanceNano: inline
        ? (inlineBalance ?? recorded.balanceNano)
        : rewardDue
          ? await grantRankRewards(
              trx,
              { userId, balanceNano: recorded.balanceNano, openings: recorded.openingsCount, copies: amount },
              // the pair's next nonce is the one after the draws (the records moved it on)
              { seed, nonce: seed.nonce + amount, prizes },
              commits,
            )
          : recorded.balanceNano,
      drops: draws.map((d) => ({
        id: byNonce.get(d.nonce)!.id,
        created_at: byNonce.get(d.nonce)!.created_at,
        username: player.username,
        first_name: player.first_name,
        photo_url: player.photo_url,
        case_id: box.id,
        case_name: box.name,
        case_image_url: box.image_url,
        item_id: d.item.id,
        item_name: d.item.name,
        item_image_url: d.item.image_url,
        bet_id: d.betId,
      })),
      results: draws.map((d) => ({
        openingId: byNonce.get(d.nonce)!.id.toString(),
        betId: d.betId,
        item: toApiItem(d.item),
        proof: {
          serverSeedHash: lease.serverSeedHash,
          clientSeed: lease.clientSeed,
          nonce: d.nonce,
          roll: d.roll,
          totalWeight: d.total,
          weightTableHash: table.hash,
        },
      })),
    };
  };
  return db.isTransaction ? run(db as Trx) : db.transaction().execute(run);
}

/**
 * The player's row (locked), the case with its entries in roll order, and the player's active seed pair
 * (locked after the player, as the lock order wants). Written out as SQL: the text is the same every time,
 * so nothing is built or compiled per opening.
 */
const LOCK_PLAYER_AND_LOAD_CASE = `SELECT u.balance_nano AS user_balance_nano, u.openings_count, u.username, u.first_name,
  u.photo_url, c.id AS case_id, c.name AS case_name, c.image_url AS case_image_url,
  c.price_nano AS case_price_nano, c.is_active, c.is_locked, ci.id AS entry_id, ci.weight, i.id, i.name,
  i.name_ru, i.price_nano, i.rarity, i.image_url
FROM users u
LEFT JOIN cases c ON c.id = $2::text
LEFT JOIN case_items ci ON ci.case_id = c.id
LEFT JOIN items i ON i.id = ci.item_id
WHERE u.id = $1::bigint
ORDER BY ci.position, ci.id
FOR UPDATE OF u`;

interface PlayerCaseRow extends EntryItemColumns {
  user_balance_nano: bigint;
  openings_count: number;
  username: string | null;
  first_name: string;
  photo_url: string | null;
  case_id: string | null;
  case_name: string | null;
  case_image_url: string | null;
  case_price_nano: bigint | null;
  is_active: boolean | null;
  is_locked: boolean | null;
  entry_id: string | null;
}

type OpenedItem = RolledItem;

/**
 * Locks the player's row (lockPlayer's lock: 401 USER_UNKNOWN when there is no such player) and reads what
 * an opening needs: the player's balance, count and public name, the case (null when there is no such case)
 * with its entries in roll order, and the active seed pair, locked second (null before the first roll). Two
 * statements in one exchange with the database (db/postgres-driver.ts, executeTogether): the seed pair is
 * read after the player's lock is held, so it is the pair as the last transaction of the player left it.
 * An Idempotency-Key's claim goes between them (three statements), in the lock order: player, key, seed pair.
 */
async function lockPlayerAndLoadCase(trx: Trx, userId: bigint, caseId: string, claim: KeyClaim | null) {
  const [main, ...after] = await executeTogether(trx, [
    prepared(CompiledQuery.raw(LOCK_PLAYER_AND_LOAD_CASE, [userId, caseId])),
    ...(claim ? [claim.query] : []),
    activeSeedQuery(userId),
  ]);
  const rows = main!.rows as PlayerCaseRow[];
  const first = rows[0];
  if (!first) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  noteLocked(trx, userId);
  // a key stored already: the request is a retry, whose stored answer stands whatever the case is now
  if (claim) claim.check(after.shift()!);
  const seeds = after[0];
  const player = {
    balance_nano: first.user_balance_nano,
    openings_count: first.openings_count,
    username: first.username,
    first_name: first.first_name,
    photo_url: first.photo_url,
  };
  const seed = (seeds!.rows[0] as TakenSeed | undefined) ?? null;
  if (first.case_id === null) return { player, box: null, seed };
  const entries: { entryId: string; weight: number; item: OpenedItem }[] = [];
  for (const r of rows) {
    // no entries: the one row the left join gives has no item
    const entry = r.entry_id === null ? null : entryOf(r);
    if (entry) entries.push({ entryId: r.entry_id!, ...entry });
  }
  const box = {
    id: first.case_id,
    name: first.case_name!,
    image_url: first.case_image_url!,
    price_nano: first.case_price_nano!,
    is_active: first.is_active!,
    is_locked: first.is_locked!,
    entries,
  };
  return { player, box, seed };
}

interface Recording {
  userId: bigint;
  caseId: string;
  priceNano: bigint;
  cost: bigint;
  seedId: bigint;
  /** the pair's nonce before this opening (the draws used the next ones) */
  nonceBefore: number;
  serverSeedHash: string;
  clientSeed: string;
  table: { hash: string; entries: string };
  draws: readonly { nonce: number; roll: number; total: number; item: OpenedItem; betId: string }[];
}

interface RecordedRow {
  id: bigint;
  nonce: number;
  created_at: Date;
  balance_nano: bigint;
  openings_count: number;
  /** the player again, their balance after and the ledger row's id, for the ledger watch (its push) */
  ledger_user_id: bigint;
  ledger_balance_nano: bigint;
  ledger_version: bigint;
}

/**
 * The whole write of an opening in one statement: the conditional debit with its ledger row and the
 * openings count, the seed pair's nonce moved on past the draws, the weight table (if new), the won items
 * in the inventory and the openings, each citing the ledger row and the pair. The player and the pair are
 * locked (lockPlayerAndLoadCase), so the balance covers the cost and the nonce is the one read; should
 * either not hold, the openings' ledger or seed reference is null and the statement fails as a whole (a
 * NOT NULL violation): the debit never goes without its openings, nor the nonces with another roll. The
 * weight table goes in beside the openings that cite it: their foreign key is checked at the end of the
 * statement, when the table is there. It returns the player as `ledger_user_id` with the balance after and
 * the ledger row's id, which is how the ledger watch (db/ledger-watch.ts) learns whose balance the
 * statement changed and what it is now, so the new balance is pushed after the commit without a read.
 * The caller runs it (with the COMMIT when it is the transaction's last statement: db/postgres-driver.ts,
 * commitWith) and reads its rows with recordedOf.
 */
function debitAndRecordQuery(r: Recording): CompiledQuery {
  const values: unknown[] = [];
  const p = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const user = p(r.userId, 'bigint');
  const cost = p(r.cost, 'bigint');
  const copies = p(r.draws.length, 'integer');
  const caseId = p(r.caseId, 'text');
  const hash = p(r.table.hash, 'text');
  const counts = new Map<string, number>();
  for (const d of r.draws) counts.set(d.item.id, (counts.get(d.item.id) ?? 0) + 1);
  const stocked = [...counts].map(([itemId, n]) => `(${user}, ${p(itemId, 'text')}, ${p(n, 'integer')})`);
  const price = p(r.priceNano, 'bigint');
  const serverSeedHash = p(r.serverSeedHash, 'text');
  const clientSeed = p(r.clientSeed, 'text');
  const opened = r.draws.map(
    (d) =>
      `(${user}, ${caseId}, ${p(d.item.id, 'text')}, ${price}, (SELECT id FROM entry), (SELECT id FROM seed), ` +
      `${serverSeedHash}, ${clientSeed}, ${p(d.nonce, 'integer')}, ${p(d.roll, 'bigint')}, ${p(d.total, 'bigint')}, ` +
      `${hash}, ${p(d.betId, 'text')})`,
  );
  const text = `WITH debited AS (
  UPDATE users SET balance_nano = balance_nano - ${cost}, openings_count = openings_count + ${copies}, updated_at = now()
  WHERE id = ${user} AND balance_nano >= ${cost}
  RETURNING balance_nano, openings_count
), entry AS (
  INSERT INTO ledger (user_id, delta_nano, balance_after_nano, kind, ref, external_id)
  SELECT ${user}, ${p(-r.cost, 'bigint')}, balance_nano, ${p(LEDGER_KIND_CASE_OPEN, 'text')}, ${caseId}, NULL FROM debited
  RETURNING id
), seed AS (
  UPDATE fairness_seeds SET nonce = nonce + ${copies}
  WHERE id = ${p(r.seedId, 'bigint')} AND active AND nonce = ${p(r.nonceBefore, 'integer')}
  RETURNING id
), stored_table AS (
  INSERT INTO weight_tables (hash, entries) VALUES (${hash}, ${p(r.table.entries, 'text')})
  ON CONFLICT (hash) DO NOTHING
), stocked AS (
  INSERT INTO inventory (user_id, item_id, quantity) VALUES ${stocked.join(', ')}
  ON CONFLICT (user_id, item_id) DO UPDATE SET quantity = inventory.quantity + excluded.quantity, updated_at = now()
), opened AS (
  INSERT INTO openings (user_id, case_id, item_id, price_nano, ledger_id, seed_id, server_seed_hash, client_seed,
    nonce, roll, total_weight, weight_table_hash, public_id)
  VALUES ${opened.join(', ')}
  RETURNING id, nonce, created_at
)
SELECT o.id, o.nonce, o.created_at, d.balance_nano, d.openings_count, ${user} AS ledger_user_id,
  d.balance_nano AS ledger_balance_nano, e.id AS ledger_version
FROM opened o CROSS JOIN debited d CROSS JOIN entry e`;
  // one text per shape (copies, distinct items): prepared once per connection
  return prepared(CompiledQuery.raw(text, values));
}

/** What the records statement (debitAndRecordQuery) answered: the balance and count after, and each opening. */
function recordedOf(rows: readonly unknown[], copies: number) {
  const recorded = rows as RecordedRow[];
  const first = recorded[0];
  // the checks above make this unreachable: a debit refused here would have failed the statement
  if (!first || recorded.length !== copies) throw new Error('the opening was not recorded');
  return {
    balanceNano: first.balance_nano,
    openingsCount: first.openings_count,
    openings: recorded.map((row) => ({ id: row.id, nonce: row.nonce, created_at: row.created_at })),
  };
}

/** The insert that adds one of each given item (repeats count) to the player's inventory. */
function inventoryInsert(qc: QueryCreator<Database>, userId: bigint, items: readonly ItemRow[]) {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
  return qc
    .insertInto('inventory')
    .values([...counts].map(([itemId, quantity]) => ({ user_id: userId, item_id: itemId, quantity })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'item_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory.quantity', '+', eb.ref('excluded.quantity')),
        updated_at: sql<Date>`now()`,
      })),
    );
}

/** Adds one of each given item (repeats count) to the player's inventory. */
export async function addToInventory(trx: Trx, userId: bigint, items: readonly ItemRow[]): Promise<void> {
  if (items.length === 0) return;
  await inventoryInsert(trx, userId, items).execute();
}

export interface HistoryPage {
  total: number;
  openings: HistoryEntry[];
}

/** A player's openings, newest first, with each proof and the server seed once it has been revealed. */
export async function openingHistory(
  db: Db,
  userId: bigint,
  page: number,
  limit: number,
): Promise<HistoryPage> {
  const countRow = await db
    .selectFrom('openings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('openings as o')
    .innerJoin('cases as c', 'c.id', 'o.case_id')
    .innerJoin('items as i', 'i.id', 'o.item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'o.seed_id')
    .select([
      'o.id',
      'o.created_at',
      'o.price_nano as paid_nano',
      'o.server_seed_hash',
      'o.client_seed',
      'o.nonce',
      'o.roll',
      'o.total_weight',
      'o.weight_table_hash',
      'o.public_id',
      'c.id as case_id',
      'c.name as case_name',
      'i.id as item_id',
      'i.name as item_name',
      'i.price_nano as item_price_nano',
      'i.rarity as item_rarity',
      'i.image_url as item_image_url',
      's.server_seed',
      's.revealed_at',
    ])
    .where('o.user_id', '=', userId)
    .orderBy('o.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return {
    total: Number(countRow.n),
    openings: rows.map((r) => ({
      id: r.id.toString(),
      betId: r.public_id,
      createdAt: r.created_at.toISOString(),
      case: { id: r.case_id, name: r.case_name, price: formatTon(r.paid_nano) },
      item: {
        id: r.item_id,
        name: r.item_name,
        price: formatTon(r.item_price_nano),
        imageUrl: r.item_image_url,
        imageBase64: null,
        rarity: r.item_rarity,
      },
      proof: {
        serverSeedHash: r.server_seed_hash,
        clientSeed: r.client_seed,
        nonce: r.nonce,
        roll: Number(r.roll),
        totalWeight: Number(r.total_weight),
        weightTableHash: r.weight_table_hash,
      },
      serverSeed: r.revealed_at ? r.server_seed : null,
    })),
  };
}
