import { sql, type Transaction } from 'kysely';
import type { InventoryEntry, SellResponse } from '../../contract/inventory.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../lib/errors.ts';
import { lockPlayer } from '../db/locks.ts';
import { formatTon } from '../../contract/money.ts';

/**
 * What players hold, and turning it back into balance.
 *
 * Lock order (server/db/locks.ts, the same in every money path): the player's users row first, then
 * their idempotency key, inventory rows, the seed pair. Every function here that changes items locks the
 * player up front (lockPlayer), so a player's balance and inventory changes queue one after the other and
 * never wait on each other in a cycle.
 */

type Trx = Transaction<Database>;

const LEDGER_KIND_SELL = 'sell';

/** The player's items with quantity > 0, dearest first (then by name, then id, for a stable order). */
export async function listInventory(
  db: Db,
  userId: bigint,
  options: { giftsOnly?: boolean } = {},
): Promise<InventoryEntry[]> {
  const rows = await db
    .selectFrom('inventory as inv')
    .innerJoin('items as i', 'i.id', 'inv.item_id')
    .leftJoin('item_gifts as g', 'g.item_id', 'inv.item_id')
    .select([
      'inv.item_id',
      'inv.quantity',
      'inv.acquired_at',
      'i.name',
      'i.image_url',
      'i.price_nano',
      'i.rarity',
      'g.item_id as gift_item',
    ])
    .where('inv.user_id', '=', userId)
    .where('inv.quantity', '>', 0)
    .orderBy('i.price_nano', 'desc')
    .orderBy('i.name')
    .orderBy('inv.item_id')
    .execute();
  return rows.map((r) => ({
    id: r.item_id,
    quantity: r.quantity,
    acquiredAt: new Date(r.acquired_at).toISOString(),
    item: {
      id: r.item_id,
      name: r.name,
      imageUrl: r.image_url,
      price: formatTon(r.price_nano),
      rarity: r.rarity,
    },
    // withdrawals the bot delivers need a Telegram gift; ones an operator hands over by hand do not
    withdrawable: !options.giftsOnly || r.gift_item !== null,
  }));
}

const itemNotOwned = (itemId: string) => notFound('ITEM_NOT_OWNED', `You do not have the item "${itemId}"`);

/**
 * Takes `quantity` of an item out of the player's inventory with one conditional update (it never goes
 * below zero, however many requests race): 404 ITEM_NOT_OWNED when the player holds none (or the item
 * does not exist), 409 INSUFFICIENT_QUANTITY when they hold fewer. Call it after lockPlayer.
 */
export async function takeFromInventory(
  trx: Trx,
  userId: bigint,
  itemId: string,
  quantity: number,
): Promise<void> {
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const taken = await trx
    .updateTable('inventory')
    .set((eb) => ({ quantity: eb('quantity', '-', quantity), updated_at: sql<Date>`now()` }))
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .where('quantity', '>=', quantity)
    .returning('quantity')
    .executeTakeFirst();
  if (taken) return;
  throw await refusedTake(trx, userId, itemId, quantity);
}

/** Why a take of `quantity` found too few: 404 ITEM_NOT_OWNED or 409 INSUFFICIENT_QUANTITY (to throw). */
async function refusedTake(trx: Trx, userId: bigint, itemId: string, quantity: number): Promise<Error> {
  const held = await trx
    .selectFrom('inventory')
    .select('quantity')
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  if (!held || held.quantity === 0) return itemNotOwned(itemId);
  return conflict(
    'INSUFFICIENT_QUANTITY',
    `You have ${held.quantity} of "${itemId}", fewer than the ${quantity} asked for`,
  );
}

/**
 * takeFromInventory for a sale: the same conditional update, which also returns the item's catalogue price
 * (one statement instead of a take and a price read). Call it after lockPlayer.
 */
async function takeForSale(trx: Trx, userId: bigint, itemId: string, quantity: number): Promise<bigint> {
  if (!Number.isSafeInteger(quantity) || quantity < 1)
    throw new RangeError('quantity must be a positive integer');
  const taken = await trx
    .updateTable('inventory as inv')
    .from('items as i')
    .set((eb) => ({ quantity: eb('inv.quantity', '-', quantity), updated_at: sql<Date>`now()` }))
    .whereRef('i.id', '=', 'inv.item_id')
    .where('inv.user_id', '=', userId)
    .where('inv.item_id', '=', itemId)
    .where('inv.quantity', '>=', quantity)
    .returning('i.price_nano')
    .executeTakeFirst();
  if (taken) return taken.price_nano;
  throw await refusedTake(trx, userId, itemId, quantity);
}

/** Puts `quantity` of an item (back) into the player's inventory. */
export async function giveToInventory(
  trx: Trx,
  userId: bigint,
  itemId: string,
  quantity: number,
): Promise<void> {
  await trx
    .insertInto('inventory')
    .values({ user_id: userId, item_id: itemId, quantity })
    .onConflict((oc) =>
      oc.columns(['user_id', 'item_id']).doUpdateSet((eb) => ({
        quantity: eb('inventory.quantity', '+', eb.ref('excluded.quantity')),
        updated_at: sql<Date>`now()`,
        acquired_at: sql<Date>`now()`,
      })),
    )
    .execute();
}

interface SaleLine {
  itemId: string;
  quantity: number;
  amountNano: bigint;
}

/**
 * Credits the sale of the given lines in the caller's transaction, in one statement: the balance update and
 * one ledger row per line (kind 'sell', ref the item id) whose balance_after runs up to the new balance. It
 * returns the player as `ledger_user_id` with the balance after and the last ledger row's id, so the ledger
 * watch (db/ledger-watch.ts) pushes the new balance after the commit without reading it again.
 */
async function creditSale(trx: Trx, userId: bigint, lines: readonly SaleLine[]): Promise<SellResponse> {
  const totalNano = lines.reduce((sum, l) => sum + l.amountNano, 0n);
  // the lines as two arrays in one parameter each (text: the drivers pass arrays of bigints differently)
  const items = `{${lines.map((l) => `"${l.itemId.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
  const amounts = `{${lines.map((l) => l.amountNano.toString()).join(',')}}`;
  const { rows } = await sql<{
    balance_nano: bigint;
    ledger_user_id: bigint;
    ledger_balance_nano: bigint;
    ledger_version: bigint;
  }>`
    WITH credited AS (
      UPDATE users
      SET balance_nano = balance_nano + ${totalNano}::bigint, updated_at = now()
      WHERE id = ${userId}::bigint
      RETURNING balance_nano
    ), entries AS (
      INSERT INTO ledger (user_id, delta_nano, balance_after_nano, kind, ref, external_id)
      SELECT ${userId}::bigint, l.amount,
             c.balance_nano - ${totalNano}::bigint + sum(l.amount) OVER (ORDER BY l.n),
             ${LEDGER_KIND_SELL}, l.item_id, NULL
      FROM unnest(${items}::text[], ${amounts}::bigint[]) WITH ORDINALITY AS l(item_id, amount, n)
      CROSS JOIN credited c
      ORDER BY l.n
      RETURNING id
    )
    SELECT c.balance_nano, ${userId}::bigint AS ledger_user_id, c.balance_nano AS ledger_balance_nano,
           (SELECT max(id) FROM entries) AS ledger_version
    FROM credited c`.execute(trx);
  const row = rows[0];
  // the player was locked by this transaction: their row is there
  if (!row) throw new Error(`the sale found no player ${userId}`);
  return {
    sold: lines.map((l) => ({ itemId: l.itemId, quantity: l.quantity, amount: formatTon(l.amountNano) })),
    total: formatTon(totalNano),
    balance: formatTon(BigInt(row.balance_nano)),
  };
}

/**
 * Sells the given quantities of items at their catalogue prices, in the caller's transaction: all of them
 * or none (the first line the player cannot cover refuses the whole sale, 404/409 as takeFromInventory).
 * 400 DUPLICATE_ITEM when a line names an item twice (the player meant one quantity, not two sales).
 */
export async function sellItems(
  trx: Trx,
  userId: bigint,
  lines: readonly { itemId: string; quantity: number }[],
): Promise<SellResponse> {
  const ids = lines.map((l) => l.itemId);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined)
    throw badRequest(
      'DUPLICATE_ITEM',
      `The item "${repeated}" is named more than once; give its quantity once`,
    );
  await lockPlayer(trx, userId);
  const sale: SaleLine[] = [];
  for (const line of lines) {
    const price = await takeForSale(trx, userId, line.itemId, line.quantity);
    sale.push({ itemId: line.itemId, quantity: line.quantity, amountNano: price * BigInt(line.quantity) });
  }
  return creditSale(trx, userId, sale);
}

/** Sells `quantity` of one item at its catalogue price, in the caller's transaction. */
export function sellItem(trx: Trx, userId: bigint, itemId: string, quantity: number): Promise<SellResponse> {
  return sellItems(trx, userId, [{ itemId, quantity }]);
}

/** Sells everything the player holds, in the caller's transaction; 409 INVENTORY_EMPTY when there is nothing. */
export async function sellEverything(trx: Trx, userId: bigint): Promise<SellResponse> {
  await lockPlayer(trx, userId);
  const held = await trx
    .selectFrom('inventory as inv')
    .innerJoin('items as i', 'i.id', 'inv.item_id')
    .select(['inv.item_id', 'inv.quantity', 'i.price_nano'])
    .where('inv.user_id', '=', userId)
    .where('inv.quantity', '>', 0)
    .orderBy('i.price_nano', 'desc')
    .orderBy('inv.item_id')
    .forUpdate('inv')
    .execute();
  if (held.length === 0) throw conflict('INVENTORY_EMPTY', 'There is nothing in your inventory to sell');
  for (const row of held) await takeFromInventory(trx, userId, row.item_id, row.quantity);
  return creditSale(
    trx,
    userId,
    held.map((r) => ({
      itemId: r.item_id,
      quantity: r.quantity,
      amountNano: r.price_nano * BigInt(r.quantity),
    })),
  );
}
