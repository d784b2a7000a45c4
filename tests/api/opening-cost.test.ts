import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenMultipleResponse } from '../../contract/cases.ts';
import { statsSince } from '../../server/db/stats.ts';
import { openCase } from '../../server/games/opening.ts';
import { setBalance, startServer, type TestServer } from './harness.ts';

// What an opening costs the database, counted in the driver (server/db/stats.ts): the statements are the
// opening's round trips, and the server bench's throughput follows them. A change that adds one shows here.

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

describe('the cost of an opening', () => {
  it('an x3 opening is one transaction of 5 statements (begin, lock with the case, debit with nonces, records, commit); its balance push reads nothing', async () => {
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
    expect(cost.roundTrips).toBe(cost.statements);
    const items = await db
      .selectFrom('inventory')
      .select((eb) => eb.fn.sum<string>('quantity').as('n'))
      .where('user_id', '=', BigInt(userId))
      .executeTakeFirstOrThrow();
    expect(Number(items.n)).toBe(4);
  });

  it('over HTTP with an Idempotency-Key: 8 statements, and a replay 5 that change nothing', async () => {
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
    // begin, lock, claim the key, the 3 of the opening, store the answer, commit; after the commit no
    // read for the pushed balance, and (on Postgres) the drops' NOTIFY goes on the bus's own connection
    expect(cost.statements).toBe(8);

    const beforeReplay = { ...database.stats };
    const replay = await open('cost-1');
    const replayCost = statsSince(beforeReplay, database.stats);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    // begin, lock, claim (taken), read the stored answer, commit
    expect(replayCost.statements).toBe(5);
    expect(replayCost.transactions).toBe(1);
  });

  it('over HTTP without a key: 5 statements, the player locked by the statement that reads the case', async () => {
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
    // begin, lock with the case, debit with nonces, records, commit
    expect(cost.statements).toBe(5);
    expect(cost.roundTrips).toBe(5);
  });
});
