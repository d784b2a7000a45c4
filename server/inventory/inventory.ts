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
  const held = await trx
    .selectFrom('inventory')
    .select('quantity')
    .where('user_id', '=', userId)
    .where('item_id', '=', itemId)
    .executeTakeFirst();
  if (!held || held.quantity === 0) throw itemNotOwned(itemId);
  throw conflict(
    'INSUFFICIENT_QUANTITY',
    `You have ${held.quantity} of "${itemId}", fewer than the ${quantity} asked for`,
  );
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
 * Credits the sale of the given lines in the caller's transaction: one balance update, and one ledger
 * row per line (kind 'sell', ref the item id) whose balance_after runs up to the new balance.
 */
async function creditSale(trx: Trx, userId: bigint, lines: readonly SaleLine[]): Promise<SellResponse> {
  const totalNano = lines.reduce((sum, l) => sum + l.amountNano, 0n);
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({ balance_nano: eb('balance_nano', '+', totalNano), updated_at: sql<Date>`now()` }))
    .where('id', '=', userId)
    .returning('balance_nano')
    .executeTakeFirstOrThrow();
  let running = updated.balance_nano - totalNano;
  await trx
    .insertInto('ledger')
    .values(
      lines.map((l) => {
        running += l.amountNano;
        return {
          user_id: userId,
          delta_nano: l.amountNano,
          balance_after_nano: running,
          kind: LEDGER_KIND_SELL,
          ref: l.itemId,
          external_id: null,
        };
      }),
    )
    .execute();
  return {
    sold: lines.map((l) => ({ itemId: l.itemId, quantity: l.quantity, amount: formatTon(l.amountNano) })),
    total: formatTon(totalNano),
    balance: formatTon(updated.balance_nano),
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
  for (const line of lines) await takeFromInventory(trx, userId, line.itemId, line.quantity);
  const prices = await trx.selectFrom('items').select(['id', 'price_nano']).where('id', 'in', ids).execute();
  const priceOf = new Map(prices.map((p) => [p.id, p.price_nano]));
  return creditSale(
    trx,
    userId,
    lines.map((l) => {
      const price = priceOf.get(l.itemId);
      // an inventory row always names an item (foreign key), so this only guards against the impossible
      if (price === undefined) throw itemNotOwned(l.itemId);
      return { itemId: l.itemId, quantity: l.quantity, amountNano: price * BigInt(l.quantity) };
    }),
  );
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
