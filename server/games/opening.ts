import { sql, type Transaction } from 'kysely';
import type { HistoryEntry, OpenResult } from '../../contract/cases.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { lockPlayer } from '../db/locks.ts';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../lib/errors.ts';
import type { DropRow } from '../realtime/feed.ts';
import { loadEntries, toApiItem, type ItemRow } from './cases.ts';
import { takeNonces } from './fairness.ts';
import { newBetId, recordWeightTable } from './proofs.ts';
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
 */
export async function openCase(db: Db, userId: bigint, caseId: string, amount: number): Promise<OpenOutcome> {
  if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_COPIES) {
    throw new RangeError(`amount must be an integer in [1, ${MAX_COPIES}]`);
  }
  // given a transaction (an idempotent request's), open inside it; given the database, in a new one
  const run = async (trx: Trx): Promise<OpenOutcome> => {
    await lockPlayer(trx, userId); // the lock order of server/db/locks.ts: the player first
    const box = await trx
      .selectFrom('cases')
      .select(['id', 'name', 'image_url', 'price_nano', 'is_active', 'is_locked'])
      .where('id', '=', caseId)
      .executeTakeFirst();
    if (!box) throw notFound('CASE_NOT_FOUND', `There is no case "${caseId}"`);
    if (!box.is_active) throw conflict('CASE_INACTIVE', 'This case cannot be opened right now');
    if (box.is_locked) throw forbidden('CASE_LOCKED', 'This case is locked!');
    const entries = (await loadEntries(trx, [caseId])).get(caseId) ?? [];
    if (entries.length === 0) throw conflict('CASE_EMPTY', 'This case has no items to drop');
    const weights = entries.map((e) => e.weight);

    const cost = box.price_nano * BigInt(amount);
    const player = await debitForOpening(trx, userId, cost, amount);
    const balanceNano = player.balance_nano;
    const ledger = await trx
      .insertInto('ledger')
      .values({
        user_id: userId,
        delta_nano: -cost,
        balance_after_nano: balanceNano,
        kind: LEDGER_KIND_CASE_OPEN,
        ref: caseId,
        external_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const lease = await takeNonces(trx, userId, amount);
    const tableHash = await recordWeightTable(
      trx,
      entries.map((e) => ({ itemId: e.item.id, weight: e.weight })),
    );
    const draws = lease.nonces.map((nonce) => {
      const { roll, total, index } = lease.rollWeighted(nonce, weights);
      return { nonce, roll, total, item: entries[index]!.item, betId: newBetId() };
    });

    const inserted = await trx
      .insertInto('openings')
      .values(
        draws.map((d) => ({
          user_id: userId,
          case_id: caseId,
          item_id: d.item.id,
          price_nano: box.price_nano,
          ledger_id: ledger.id,
          seed_id: lease.seedId,
          server_seed_hash: lease.serverSeedHash,
          client_seed: lease.clientSeed,
          nonce: d.nonce,
          roll: d.roll,
          total_weight: d.total,
          weight_table_hash: tableHash,
          public_id: d.betId,
        })),
      )
      .returning(['id', 'nonce', 'created_at'])
      .execute();
    const byNonce = new Map(inserted.map((r) => [r.nonce, r]));

    await addToInventory(
      trx,
      userId,
      draws.map((d) => d.item),
    );

    return {
      balanceNano: await grantRankRewards(trx, userId, balanceNano), // a rank reached pays its reward now
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
          weightTableHash: tableHash,
        },
      })),
    };
  };
  return db.isTransaction ? run(db as Trx) : db.transaction().execute(run);
}

/**
 * The conditional debit: takes `cost` only if the balance covers it, and counts the openings, in one
 * statement. Returns the balance after, and the player's public name and photo for the live feed.
 * Concurrent debits queue on the user row, so the balance can never go below zero however many requests race.
 */
async function debitForOpening(trx: Trx, userId: bigint, cost: bigint, copies: number) {
  const row = await trx
    .updateTable('users')
    .set((eb) => ({
      balance_nano: eb('balance_nano', '-', cost),
      openings_count: eb('openings_count', '+', copies),
      updated_at: sql<Date>`now()`,
    }))
    .where('id', '=', userId)
    .where('balance_nano', '>=', cost)
    .returning(['balance_nano', 'username', 'first_name', 'photo_url'])
    .executeTakeFirst();
  if (row) return row;
  const user = await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  throw insufficientBalance();
}

/** Adds one of each given item (repeats count) to the player's inventory. */
export async function addToInventory(trx: Trx, userId: bigint, items: readonly ItemRow[]): Promise<void> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
  if (counts.size === 0) return;
  await trx
    .insertInto('inventory')
    .values([...counts].map(([itemId, quantity]) => ({ user_id: userId, item_id: itemId, quantity })))
    .onConflict((oc) =>
      oc.columns(['user_id', 'item_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory.quantity', '+', eb.ref('excluded.quantity')),
        updated_at: sql<Date>`now()`,
      })),
    )
    .execute();
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
