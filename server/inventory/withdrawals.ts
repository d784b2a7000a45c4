import { sql, type Selectable, type Transaction } from 'kysely';
import type { AdminWithdrawal, Withdrawal, WithdrawalStatus } from '../../contract/inventory.ts';
import type { Db } from '../db/index.ts';
import type { Database, WithdrawalsTable } from '../db/schema.ts';
import { conflict, notFound } from '../lib/errors.ts';
import { giveToInventory, takeFromInventory } from './inventory.ts';
import { lockPlayer } from '../db/locks.ts';
import { formatTon } from '../../contract/money.ts';

/**
 * Withdrawals: a player moves items out of their inventory into a request (pending, in one transaction);
 * an operator then completes it (the items have been handed over) or fails it (the items go back to the
 * inventory, in the same transaction as the status change). Only a pending request can be resolved.
 */

type Trx = Transaction<Database>;
type WithdrawalRow = Selectable<WithdrawalsTable>;

/** How many of a player's requests the list shows (newest first). */
const WITHDRAWALS_LIST_LIMIT = 100;

interface ItemFields {
  item_name: string;
  item_image_url: string;
  item_price_nano: bigint;
}

function toApiWithdrawal(row: WithdrawalRow & ItemFields): Withdrawal {
  return {
    id: row.id.toString(),
    item: {
      id: row.item_id,
      name: row.item_name,
      imageUrl: row.item_image_url,
      price: formatTon(row.item_price_nano),
    },
    quantity: row.quantity,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
    note: row.note,
    sendingAt: row.sending_at ? row.sending_at.toISOString() : null,
    failureReason: row.failure_reason,
  };
}

function toAdminWithdrawal(row: WithdrawalRow & ItemFields): AdminWithdrawal {
  return { ...toApiWithdrawal(row), userId: row.user_id.toString() };
}

function selectWithItems(db: Db) {
  return db
    .selectFrom('withdrawals as w')
    .innerJoin('items as i', 'i.id', 'w.item_id')
    .selectAll('w')
    .select(['i.name as item_name', 'i.image_url as item_image_url', 'i.price_nano as item_price_nano']);
}

/** Moves `quantity` of an item out of the inventory into a pending request, in the caller's transaction. */
export async function requestWithdrawal(
  trx: Trx,
  userId: bigint,
  itemId: string,
  quantity: number,
  options: { giftsOnly?: boolean } = {},
): Promise<Withdrawal> {
  await lockPlayer(trx, userId);
  if (options.giftsOnly) {
    // delivered by the bot: only an item with a Telegram gift can leave (the others can be sold)
    const item = await trx.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst();
    const gift = await trx
      .selectFrom('item_gifts')
      .select('item_id')
      .where('item_id', '=', itemId)
      .executeTakeFirst();
    if (item && !gift) {
      throw conflict(
        'ITEM_NOT_WITHDRAWABLE',
        `"${itemId}" cannot be sent as a Telegram gift; sell it instead`,
      );
    }
  }
  await takeFromInventory(trx, userId, itemId, quantity);
  const { id } = await trx
    .insertInto('withdrawals')
    .values({ user_id: userId, item_id: itemId, quantity })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await selectWithItems(trx).where('w.id', '=', id).executeTakeFirstOrThrow();
  return toApiWithdrawal(row);
}

/** A player's requests, newest first. */
export async function listWithdrawals(db: Db, userId: bigint): Promise<Withdrawal[]> {
  const rows = await selectWithItems(db)
    .where('w.user_id', '=', userId)
    .orderBy('w.id', 'desc')
    .limit(WITHDRAWALS_LIST_LIMIT)
    .execute();
  return rows.map(toApiWithdrawal);
}

/** Every player's requests for the operator, oldest first (the queue order), optionally of one status. */
export async function listAllWithdrawals(
  db: Db,
  options: { status?: WithdrawalStatus; limit?: number } = {},
): Promise<AdminWithdrawal[]> {
  let query = selectWithItems(db)
    .orderBy('w.id', 'asc')
    .limit(options.limit ?? 500);
  if (options.status) query = query.where('w.status', '=', options.status);
  return (await query.execute()).map(toAdminWithdrawal);
}

export type WithdrawalOutcome = 'completed' | 'failed';

/**
 * Completes or fails a pending request: 404 WITHDRAWAL_NOT_FOUND for an unknown id, 409
 * WITHDRAWAL_NOT_PENDING once it has been resolved. Failing one returns its items to the inventory in the
 * same transaction. Used by the operator API and the admin command line.
 */
export async function resolveWithdrawal(
  db: Db,
  id: bigint,
  outcome: WithdrawalOutcome,
  note: string | null = null,
): Promise<AdminWithdrawal> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('withdrawals')
      .select('user_id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw notFound('WITHDRAWAL_NOT_FOUND', `There is no withdrawal ${id}`);
    await lockPlayer(trx, found.user_id);
    const updated = await trx
      .updateTable('withdrawals')
      .set((eb) => ({
        status: outcome,
        resolved_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
        note: note ?? eb.ref('note'),
      }))
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning(['user_id', 'item_id', 'quantity'])
      .executeTakeFirst();
    if (!updated) {
      const current = await trx
        .selectFrom('withdrawals')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      throw conflict('WITHDRAWAL_NOT_PENDING', `Withdrawal ${id} is already ${current.status}`);
    }
    if (outcome === 'failed') await giveToInventory(trx, updated.user_id, updated.item_id, updated.quantity);
    const row = await selectWithItems(trx).where('w.id', '=', id).executeTakeFirstOrThrow();
    return toAdminWithdrawal(row);
  });
}
