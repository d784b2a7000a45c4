import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenMultipleResponse } from '../../contract/cases.ts';
import type { SellResponse } from '../../contract/inventory.ts';
import { formatTon } from '../../contract/money.ts';
import { statsSince } from '../../server/db/stats.ts';
import { openCase } from '../../server/games/opening.ts';
import { grantItems, setBalance, startServer, type TestServer } from './harness.ts';
import { verifyCase } from '../support/independent-verifier.ts';
import type { BetProof } from '../../contract/fairness.ts';

// What an opening (and a sale) costs the database, counted in the driver (server/db/stats.ts, server/db/postgres-driver.ts):
// its statements, and its round trips, which the server bench's throughput follows. On Postgres a
// transaction's BEGIN goes with its first statement, its COMMIT with its last when the code says so, and
// the opening's two first statements go together; on PGlite (in the process, nothing to save) each statement
// is a round trip of its own. A change that adds one shows here.

let server: TestServer;
beforeAll(async () => {
  // no background sweep may send a statement while an opening is counted
  server = await startServer({ env: { GAMES_SWEEP_MS: '3600000' } });
});
afterAll(async () => {
  await server.close();
});

const TON = 1_000_000_000n;

/** Lets the work after a commit run (the balance push, the drops' NOTIFY): their statements count too. */
const afterCommit = () => new Promise((resolve) => setTimeout(resolve, 100));

/** Round trips: `grouped` on Postgres, one per statement on PGlite. */
const roundTrips = (grouped: number, statements: number) =>
  server.built.ctx.database.kind === 'postgres' ? grouped : statements;

describe('the cost of an opening', () => {
  it('an x3 opening is one transaction of 5 statements in 2 round trips (begin, lock with the case, seed pair | debit, nonces and records, commit); its balance push reads nothing', async () => {
    const userId = 870001;
    await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const { db, database } = server.built.ctx;
    await openCase(db, BigInt(userId), 'starter', 1); // the first roll creates the player's seed pair
    await afterCommit();

    const before = { ...database.stats };
    const outcome = await openCase(db, BigInt(userId), 'starter', 3);
    await afterCommit();
    const cost = statsSince(before, database.stats);

    expect(outcome.results).toHaveLength(3);
    expect(cost.transactions).toBe(1);
    // the debit statement told the balance after it: the push after the commit sends it without a read
    expect(cost.statements).toBe(5);
    // begin + the player and case + the seed pair | the writes + commit
    expect(cost.roundTrips).toBe(roundTrips(2, 5));
    const items = await db
      .selectFrom('inventory')
      .select((eb) => eb.fn.sum<string>('quantity').as('n'))
      .where('user_id', '=', BigInt(userId))
      .executeTakeFirstOrThrow();
    expect(Number(items.n)).toBe(4);
  });

  it('over HTTP with an Idempotency-Key: 7 statements in 3 round trips, and a replay 6 in 3 that change nothing', async () => {
    const userId = 870002;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const open = (key: string) =>
      server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 3 },
        headers: { 'idempotency-key': key },
      });
    expect((await open('first-roll')).status).toBe(200);
    const { database } = server.built.ctx;
    await afterCommit();

    const before = { ...database.stats };
    const first = await open('cost-1');
    await afterCommit();
    const cost = statsSince(before, database.stats);
    expect(first.status).toBe(200);
    expect(cost.transactions).toBe(1);
    // begin, the player locked with the case, the key claimed, the seed pair, the writes, store the
    // answer, commit; after the commit no read for the pushed balance, and (on Postgres) the drops' NOTIFY
    // goes on the bus's own connection
    expect(cost.statements).toBe(7);
    // begin + the player and case + claim + the seed pair | the writes | store + commit
    expect(cost.roundTrips).toBe(roundTrips(3, 7));

    const beforeReplay = { ...database.stats };
    const replay = await open('cost-1');
    const replayCost = statsSince(beforeReplay, database.stats);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    // begin, the player and case, claim (taken), the seed pair, read the stored answer, commit (the first
    // four in one round trip)
    expect(replayCost.statements).toBe(6);
    expect(replayCost.roundTrips).toBe(roundTrips(3, 6));
    expect(replayCost.transactions).toBe(1);
  });

  it('over HTTP without a key: 5 statements in 2 round trips, the player locked by the statement that reads the case', async () => {
    const userId = 870003;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const open = () =>
      server.call<OpenMultipleResponse>('POST', '/cases/open-multiple', {
        token,
        body: { caseId: 'starter', amount: 3 },
      });
    expect((await open()).status).toBe(200);
    const { database } = server.built.ctx;
    await afterCommit();

    const before = { ...database.stats };
    const answer = await open();
    await afterCommit();
    const cost = statsSince(before, database.stats);
    expect(answer.status).toBe(200);
    expect(answer.body.results).toHaveLength(3);
    expect(cost.transactions).toBe(1);
    // begin, lock with the case, the seed pair, debit with nonces and records, commit
    expect(cost.statements).toBe(5);
    expect(cost.roundTrips).toBe(roundTrips(2, 5));
  });
});

// A sale: the one statement crediting it leaves the same ledger as before (a row per line whose
// balance_after runs up to the new balance, in order) and a balance push that reads nothing.

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
    expect(cost.roundTrips).toBe(roundTrips(4, 5)); // on Postgres the BEGIN goes with the lock
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

// An opening that reaches a rank pays the rank's reward in its own transaction: the prize case of a case
// reward is read in the same exchange as the records, the reward is one statement and carries the COMMIT.

async function openingsTo(server: TestServer, userId: number, openings: number) {
  await server.built.ctx.db
    .updateTable('users')
    .set({ openings_count: openings })
    .where('id', '=', BigInt(userId))
    .execute();
}

describe('the cost of an opening that reaches a rank', () => {
  // the rank table is the process's (the other tests here run with none): the server with rewards comes last
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      env: {
        GAMES_SWEEP_MS: '3600000',
        RANK_TABLE: '1:spin,5:ton:0.25,15:case:starter,40:ton:1,100:case:surfboard,250:ton:5',
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const roundTrips = (grouped: number, statements: number) =>
    server.built.ctx.database.kind === 'postgres' ? grouped : statements;

  it('a case reward (rank 4 at 15 openings): 7 statements in 3 round trips, its free opening verifies independently', async () => {
    const userId = 890001;
    const token = await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const { db, database } = server.built.ctx;
    await openCase(db, BigInt(userId), 'starter', 1); // the seed pair
    await openingsTo(server, userId, 14);
    await afterCommit();

    const before = { ...database.stats };
    const outcome = await openCase(db, BigInt(userId), 'starter', 1);
    await afterCommit();
    const cost = statsSince(before, database.stats);
    expect(outcome.results).toHaveLength(1);
    expect(cost.transactions).toBe(1);
    // begin + lock with the case + seed pair | records + the prize case | the reward's opening + commit
    expect(cost.statements).toBe(7);
    expect(cost.roundTrips).toBe(roundTrips(3, 7));

    const reward = await db
      .selectFrom('rank_rewards as r')
      .innerJoin('free_openings as f', 'f.id', 'r.free_opening_id')
      .select(['r.level', 'r.reward_kind', 'f.public_id', 'f.item_id', 'f.nonce', 'f.source'])
      .where('r.user_id', '=', BigInt(userId))
      .execute();
    expect(reward).toHaveLength(1);
    expect(reward[0]).toMatchObject({ level: 4, reward_kind: 'case', source: 'rank' });
    // the free opening drew the nonce right after the paid one's
    expect(reward[0]!.nonce).toBe(outcome.results[0]!.proof.nonce + 1);
    const held = await db
      .selectFrom('inventory')
      .select(['item_id', 'quantity'])
      .where('user_id', '=', BigInt(userId))
      .execute();
    expect(held.reduce((n, r) => n + r.quantity, 0)).toBe(3); // two paid openings and the reward's

    // the next opening past the threshold grants nothing more, and its nonce follows the reward's
    const next = await openCase(db, BigInt(userId), 'starter', 1);
    expect(next.results[0]!.proof.nonce).toBe(reward[0]!.nonce + 1);
    const rewards = await db
      .selectFrom('rank_rewards')
      .select('level')
      .where('user_id', '=', BigInt(userId))
      .execute();
    // the first opening reached rank 2 (a spin), this one rank 4; nothing more
    expect(rewards.map((r) => r.level).sort()).toEqual([2, 4]);
    expect((await server.call('POST', '/fairness/rotate', { token })).status).toBe(200);
    const proof = await server.call<BetProof>('GET', `/fairness/bets/${reward[0]!.public_id}`);
    expect(proof.status).toBe(200);
    const bet = proof.body;
    if (bet.kind !== 'case') throw new Error('expected a case proof');
    const drawn = verifyCase(bet.serverSeed!, bet.clientSeed, bet.nonce, bet.weightTable!.text);
    expect(drawn.itemId).toBe(reward[0]!.item_id);
  });

  it('a TON reward (rank 3 at 5 openings): 6 statements in 2 round trips, credited once with its ledger row, the balance after it pushed without a read', async () => {
    const userId = 890002;
    await server.login({ id: userId });
    await setBalance(server, userId, 100n * TON);
    const { db, database, bus } = server.built.ctx;
    await openCase(db, BigInt(userId), 'starter', 1);
    await openingsTo(server, userId, 4);
    await afterCommit();

    const pushed: string[] = [];
    const off = bus.subscribe('balances', (payload) => {
      for (const e of (payload as { list: { u: string; b: string }[] }).list) {
        if (e.u === String(userId)) pushed.push(e.b);
      }
    });
    const before = { ...database.stats };
    const outcome = await openCase(db, BigInt(userId), 'starter', 1);
    await afterCommit();
    off();
    const cost = statsSince(before, database.stats);
    expect(cost.transactions).toBe(1);
    // begin + lock with the case + seed pair | records + the reward + commit; no read for the push
    expect(cost.statements).toBe(6);
    expect(cost.roundTrips).toBe(roundTrips(2, 6));
    expect(pushed).toEqual([String(outcome.balanceNano)]);
    const rows = await db
      .selectFrom('ledger')
      .select(['kind', 'delta_nano', 'balance_after_nano'])
      .where('user_id', '=', BigInt(userId))
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(rows[0]).toMatchObject({ kind: 'rank_reward', delta_nano: TON / 4n });
    expect(outcome.balanceNano).toBe(rows[0]!.balance_after_nano);
  });
});
