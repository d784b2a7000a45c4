import { sql, type Insertable, type QueryCreator, type Transaction } from 'kysely';
import type { HistoryEntry, OpenResult } from '../../contract/cases.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { noteLocked } from '../db/locks.ts';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import type { DropRow } from '../realtime/feed.ts';
import { ENTRY_COLUMNS, toApiItem, type CaseEntry, type ItemRow } from './cases.ts';
import { leaseOf, takeNonces, takeNoncesStatement, type TakenSeed } from './fairness.ts';
import { newBetId, weightTable } from './proofs.ts';
import { formatTon } from '../../contract/money.ts';
import { grantRankRewards } from '../retention/ranks.ts';

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
 * Cost: three statements, each one round trip: the player's lock with the case and its entries; the debit
 * with its ledger row and the nonces; the openings with their weight table and inventory (tests/api/opening-cost.test.ts counts them; `npm run bench -- server`).
 * A step that belongs to the opening (a reward when the openings count crosses a threshold: the debit
 * returns the count after) goes between the debit and the records, on the same `trx`.
 */
export async function openCase(db: Db, userId: bigint, caseId: string, amount: number): Promise<OpenOutcome> {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_COPIES) {
    throw new RangeError(`amount must be an integer in [1, ${MAX_COPIES}]`);
  }
  // given a transaction (an idempotent request's), open inside it; given the database, in a new one
  const run = async (trx: Trx): Promise<OpenOutcome> => {
    // the lock order of server/db/locks.ts: the player first (here, with the case in the same statement)
    const box = await lockPlayerAndLoadCase(trx, userId, caseId);
    if (!box) throw notFound('CASE_NOT_FOUND', `There is no case "${caseId}"`);
    if (!box.is_active) throw conflict('CASE_INACTIVE', 'This case cannot be opened right now');
    if (box.is_locked) throw forbidden('CASE_LOCKED', 'This case is locked!');
    const { entries } = box;
    if (entries.length === 0) throw conflict('CASE_EMPTY', 'This case has no items to drop');
    const weights = entries.map((e) => e.weight);

    const cost = box.price_nano * BigInt(amount);
    const { player, seed } = await debitForOpening(trx, userId, caseId, cost, amount);
    // the nonces came with the debit; a player's first roll creates the seed pair here
    const lease = seed ? leaseOf(seed, amount) : await takeNonces(trx, userId, amount);
    const table = weightTable(entries.map((e) => ({ itemId: e.item.id, weight: e.weight })));
    const draws = lease.nonces.map((nonce) => {
      const { roll, total, index } = lease.rollWeighted(nonce, weights);
      return { nonce, roll, total, item: entries[index]!.item, betId: newBetId() };
    });

    const inserted = await recordOpenings(
      trx,
      userId,
      table,
      draws.map((d) => ({
        user_id: userId,
        case_id: caseId,
        item_id: d.item.id,
        price_nano: box.price_nano,
        ledger_id: player.ledger_id,
        seed_id: lease.seedId,
        server_seed_hash: lease.serverSeedHash,
        client_seed: lease.clientSeed,
        nonce: d.nonce,
        roll: d.roll,
        total_weight: d.total,
        weight_table_hash: table.hash,
        public_id: d.betId,
      })),
      draws.map((d) => d.item),
    );
    const byNonce = new Map(inserted.map((r) => [r.nonce, r]));
    const balanceNano = player.balance_nano;

    return {
      // a rank this opening reached pays its reward now
      balanceNano: await grantRankRewards(trx, userId, balanceNano, player.openings_count, amount),
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
 * Locks the player's row (lockPlayer's lock: 401 USER_UNKNOWN when there is no such player) and reads the
 * case as an opening needs it, its row and its entries in roll order, in one statement; null when there is
 * no such case. Only the player's row is locked (FOR UPDATE OF u); a transaction that has locked the
 * player already locks nothing new. One round trip fewer than locking and reading one after the other.
 */
async function lockPlayerAndLoadCase(trx: Trx, userId: bigint, caseId: string) {
  const rows = await trx
    .selectFrom('users as u')
    .leftJoin('cases as c', (join) => join.on('c.id', '=', caseId))
    .leftJoin('case_items as ci', 'ci.case_id', 'c.id')
    .leftJoin('items as i', 'i.id', 'ci.item_id')
    .select([
      'c.id as case_id',
      'c.name as case_name',
      'c.image_url as case_image_url',
      'c.price_nano as case_price_nano',
      'c.is_active',
      'c.is_locked',
      'ci.id as entry_id',
      ...ENTRY_COLUMNS,
    ])
    .where('u.id', '=', userId)
    .orderBy('ci.position')
    .orderBy('ci.id')
    .forUpdate('u')
    .execute();
  const first = rows[0];
  if (!first) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  noteLocked(trx, userId);
  if (first.case_id === null) return null;
  const entries: CaseEntry[] = [];
  for (const r of rows) {
    // no entries: the one row the left join gives has no item
    if (r.entry_id === null || r.weight === null || r.id === null) continue;
    entries.push({
      entryId: r.entry_id,
      weight: r.weight,
      item: {
        id: r.id,
        name: r.name!,
        name_ru: r.name_ru!,
        price_nano: r.price_nano!,
        rarity: r.rarity!,
        image_url: r.image_url!,
        created_at: r.created_at!,
        updated_at: r.updated_at!,
      },
    });
  }
  return {
    id: first.case_id,
    name: first.case_name!,
    image_url: first.case_image_url!,
    price_nano: first.case_price_nano!,
    is_active: first.is_active!,
    is_locked: first.is_locked!,
    entries,
  };
}

interface Debited {
  balance_nano: bigint;
  /** the player's openings, this one's copies included */
  openings_count: number;
  username: string | null;
  first_name: string;
  photo_url: string | null;
  ledger_id: bigint;
}

/** Debited, and the seed pair the nonces were taken from: all null when the player has none yet. */
interface DebitRow extends Debited {
  /** the player again, their balance after and the ledger row's id, for the ledger watch (its push) */
  ledger_user_id: bigint;
  ledger_balance_nano: bigint;
  ledger_version: bigint;
  seed_id: bigint | null;
  seed_server_seed: string | null;
  seed_server_seed_hash: string | null;
  seed_client_seed: string | null;
  seed_nonce: number | null;
}

/**
 * The conditional debit, its ledger row and the opening's nonces, in one statement: takes `cost` only if
 * the balance covers it and counts the openings. Returns the balance after, the ledger row's id and the
 * player's public name and photo for the live feed, and the seed pair the nonces were taken from (null
 * when the player has none yet). Concurrent debits queue on the user row, locked before this statement,
 * so the balance can never go below zero however many requests race; the seed pair comes after it, as
 * the lock order wants. A refused debit throws, and the transaction rolls the nonces back with it. It
 * returns the player as `ledger_user_id` with the balance after and the ledger row's id, which is how the
 * ledger watch (db/ledger-watch.ts) learns whose balance a raw statement changed and what it is now, so the
 * new balance is pushed to their sockets after the commit without reading it again.
 */
async function debitForOpening(
  trx: Trx,
  userId: bigint,
  caseId: string,
  cost: bigint,
  copies: number,
): Promise<{ player: Debited; seed: TakenSeed | null }> {
  const { rows } = await sql<DebitRow>`
    WITH debited AS (
      UPDATE users
      SET balance_nano = balance_nano - ${cost}::bigint,
          openings_count = openings_count + ${copies}::integer,
          updated_at = now()
      WHERE id = ${userId}::bigint AND balance_nano >= ${cost}::bigint
      RETURNING balance_nano, openings_count, username, first_name, photo_url
    ), entry AS (
      INSERT INTO ledger (user_id, delta_nano, balance_after_nano, kind, ref, external_id)
      SELECT ${userId}::bigint, ${-cost}::bigint, balance_nano, ${LEDGER_KIND_CASE_OPEN}, ${caseId}, NULL
      FROM debited
      RETURNING id
    ), seed AS (${takeNoncesStatement(trx, userId, copies)})
    SELECT d.balance_nano, d.openings_count, d.username, d.first_name, d.photo_url, e.id AS ledger_id,
           ${userId}::bigint AS ledger_user_id, d.balance_nano AS ledger_balance_nano, e.id AS ledger_version,
           s.id AS seed_id, s.server_seed AS seed_server_seed, s.server_seed_hash AS seed_server_seed_hash,
           s.client_seed AS seed_client_seed, s.nonce AS seed_nonce
    FROM debited d CROSS JOIN entry e LEFT JOIN seed s ON true`.execute(trx);
  const row = rows[0];
  if (row) {
    const {
      seed_id,
      seed_server_seed,
      seed_server_seed_hash,
      seed_client_seed,
      seed_nonce,
      ledger_user_id: _ledgerUser,
      ledger_balance_nano: _ledgerBalance,
      ledger_version: _ledgerVersion,
      ...player
    } = row;
    const seed =
      seed_id === null
        ? null
        : {
            id: seed_id,
            server_seed: seed_server_seed!,
            server_seed_hash: seed_server_seed_hash!,
            client_seed: seed_client_seed!,
            nonce: seed_nonce!,
          };
    return { player, seed };
  }
  const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  throw insufficientBalance();
}

/**
 * Records the openings, their weight table (if new) and the won items in the inventory, in one statement.
 * The weight table goes in beside the openings that cite it: their foreign key is checked at the end of
 * the statement, when the table is there.
 */
async function recordOpenings(
  trx: Trx,
  userId: bigint,
  table: { hash: string; entries: string },
  openings: Insertable<Database['openings']>[],
  items: readonly ItemRow[],
) {
  return trx
    .with('stored_table', (qc) =>
      qc
        .insertInto('weight_tables')
        .values(table)
        .onConflict((oc) => oc.column('hash').doNothing())
        .returning('hash'),
    )
    .with('stocked', (qc) => inventoryInsert(qc, userId, items).returning('item_id'))
    .with('opened', (qc) =>
      qc.insertInto('openings').values(openings).returning(['id', 'nonce', 'created_at']),
    )
    .selectFrom('opened')
    .select(['id', 'nonce', 'created_at'])
    .execute();
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
