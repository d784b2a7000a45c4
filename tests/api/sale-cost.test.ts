import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SellResponse } from '../../contract/inventory.ts';
import { formatTon } from '../../contract/money.ts';
import { statsSince } from '../../server/db/stats.ts';
import { grantItems, setBalance, startServer, type TestServer } from './harness.ts';

// What a sale costs the database, counted in the driver (server/db/stats.ts), and that the one statement
// crediting it leaves the same ledger as before: a row per line whose balance_after runs up to the new
// balance, in order, and a balance push that reads nothing.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { GAMES_SWEEP_MS: '3600000' } });
});
afterAll(async () => {
  await server.close();
});

const TON = 1_000_000_000n;
const afterCommit = () => new Promise((resolve) => setTimeout(resolve, 100));

async function ledgerOf(userId: number) {
  return server.built.ctx.db
    .selectFrom('ledger')
    .select(['id', 'delta_nano', 'balance_after_nano', 'kind', 'ref'])
    .where('user_id', '=', BigInt(userId))
    .orderBy('id')
    .execute();
}

async function priceOf(itemId: string): Promise<bigint> {
  const row = await server.built.ctx.db
    .selectFrom('items')
    .select('price_nano')
    .where('id', '=', itemId)
    .executeTakeFirstOrThrow();
  return row.price_nano;
}

describe('the cost of a sale', () => {
  it('one kind: 5 statements (begin, lock, take with the price, credit with its ledger row, commit); with a key 7', async () => {
    const userId = 880001;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 2n * TON);
    await grantItems(server, userId, { cake: 3 });
    const { database } = server.built.ctx;
    await afterCommit();

    const before = { ...database.stats };
    const sold = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 2 },
    });
    await afterCommit();
    const cost = statsSince(before, database.stats);
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    expect(cost.transactions).toBe(1);
    expect(cost.statements).toBe(5);

    const price = await priceOf('cake');
    expect(sold.body.total).toBe(formatTon(2n * price));
    expect(sold.body.balance).toBe(formatTon(2n * TON + 2n * price));

    const beforeKeyed = { ...database.stats };
    const keyed = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: { itemId: 'cake', quantity: 1 },
      headers: { 'idempotency-key': 'sale-cost-1' },
    });
    await afterCommit();
    expect(keyed.status, JSON.stringify(keyed.body)).toBe(200);
    // begin, lock, claim the key, take, credit, store the answer, commit (the sale's own lock is the one
    // already held: lockPlayer sends none twice in a transaction)
    expect(statsSince(beforeKeyed, database.stats).statements).toBe(7);
  });

  it('several kinds: one ledger row per line, balance_after running up to the new balance', async () => {
    const userId = 880002;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 1n * TON);
    await grantItems(server, userId, { cake: 2, flower_pink: 3 });
    const before = (await ledgerOf(userId)).length;
    const sold = await server.call<SellResponse>('POST', '/inventory/sell', {
      token,
      body: {
        items: [
          { itemId: 'flower_pink', quantity: 3 },
          { itemId: 'cake', quantity: 1 },
        ],
      },
    });
    expect(sold.status, JSON.stringify(sold.body)).toBe(200);
    const [flower, cake] = [await priceOf('flower_pink'), await priceOf('cake')];
    const rows = (await ledgerOf(userId)).slice(before);
    expect(rows.map((r) => [r.kind, r.ref, r.delta_nano])).toEqual([
      ['sell', 'flower_pink', 3n * flower],
      ['sell', 'cake', cake],
    ]);
    expect(rows.map((r) => r.balance_after_nano)).toEqual([
      1n * TON + 3n * flower,
      1n * TON + 3n * flower + cake,
    ]);
    expect(sold.body.balance).toBe(formatTon(1n * TON + 3n * flower + cake));

    // a line the player cannot cover refuses the whole sale: nothing taken, nothing credited
    const refused = await server.call('POST', '/inventory/sell', {
      token,
      body: {
        items: [
          { itemId: 'cake', quantity: 1 },
          { itemId: 'flower_pink', quantity: 1 },
        ],
      },
    });
    expect(refused.status).toBe(404);
    expect(await ledgerOf(userId)).toHaveLength(before + 2);
  });
});
