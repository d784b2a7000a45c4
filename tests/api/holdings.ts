import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

export { grantItems } from './harness.ts';

/** Helpers of the inventory and achievement API tests: set up holdings, read a player's whole books. */

/** A case with the given price and items (test setup only), openable like any seeded one. */
export async function addTestCase(
  server: TestServer,
  id: string,
  priceNano: bigint,
  items: Record<string, number>,
): Promise<void> {
  const db = server.built.ctx.db;
  await db
    .insertInto('cases')
    .values({
      id,
      name: id,
      description: '',
      price_nano: priceNano,
      image_url: `/assets/cases/${id}.svg`,
      position: 1000,
    })
    .execute();
  await db
    .insertInto('case_items')
    .values(
      Object.entries(items).map(([itemId, weight], position) => ({
        id: `${id}:${itemId}`,
        case_id: id,
        item_id: itemId,
        weight,
        position,
      })),
    )
    .execute();
}

export interface Books {
  balanceNano: bigint;
  openingsCount: number;
  inventory: { item_id: string; quantity: number }[];
  ledger: { id: bigint; kind: string; ref: string | null; delta_nano: bigint; balance_after_nano: bigint }[];
  withdrawals: { id: bigint; item_id: string; quantity: number; status: string; note: string | null }[];
  openings: number;
  idempotencyKeys: number;
}

/** Everything a money or item request may change for one player, straight from the database. */
export async function books(server: TestServer, userId: number): Promise<Books> {
  const db = server.built.ctx.db;
  const id = BigInt(userId);
  const user = await db
    .selectFrom('users')
    .select(['balance_nano', 'openings_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const count = async (table: 'openings' | 'idempotency_keys') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    balanceNano: user.balance_nano,
    openingsCount: user.openings_count,
    inventory: await db
      .selectFrom('inventory')
      .select(['item_id', 'quantity'])
      .where('user_id', '=', id)
      .orderBy('item_id')
      .execute(),
    ledger: await db
      .selectFrom('ledger')
      .select(['id', 'kind', 'ref', 'delta_nano', 'balance_after_nano'])
      .where('user_id', '=', id)
      .orderBy('id')
      .execute(),
    withdrawals: await db
      .selectFrom('withdrawals')
      .select(['id', 'item_id', 'quantity', 'status', 'note'])
      .where('user_id', '=', id)
      .orderBy('id')
      .execute(),
    openings: await count('openings'),
    idempotencyKeys: await count('idempotency_keys'),
  };
}

/** Every balance change has a ledger row: the rows add up to the balance, and each row's balance_after runs on. */
export function expectLedgerBalances(b: Books): void {
  let running = 0n;
  for (const row of b.ledger) {
    running += row.delta_nano;
    expect(row.balance_after_nano, `ledger row ${row.id} (${row.kind})`).toBe(running);
    expect(row.balance_after_nano >= 0n).toBe(true);
  }
  expect(running).toBe(b.balanceNano);
}

/** How many of an item the player holds (0 when there is no row). */
export function held(b: Books, itemId: string): number {
  return b.inventory.find((r) => r.item_id === itemId)?.quantity ?? 0;
}
