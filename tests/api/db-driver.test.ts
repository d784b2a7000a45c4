import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWith, executeTogether, prepared } from '../../server/db/postgres-driver.ts';
import { statsSince } from '../../server/db/stats.ts';
import { createTestDatabase, type TestDatabase } from './harness.ts';

// The database layer's ways to save round trips (server/db/postgres-driver.ts): a transaction's BEGIN sent
// with its first statement, its COMMIT with the statement run by commitWith, statements sent together by
// executeTogether, named prepared statements. They must change nothing a transaction does: what commits,
// what rolls back, what a failure leaves behind. On PGlite they are plain statements; the same behaviour
// holds there.

let test: TestDatabase;
const db = () => test.database.db;
const postgres = () => test.database.kind === 'postgres';

beforeAll(async () => {
  test = await createTestDatabase();
  await sql`CREATE TABLE driver_probe (id integer PRIMARY KEY, note text NOT NULL)`.execute(db());
});
afterAll(async () => {
  await test.drop();
});

const insert = (id: number, note: string | null) =>
  CompiledQuery.raw('INSERT INTO driver_probe (id, note) VALUES ($1, $2) RETURNING id', [id, note]);
const notes = async () =>
  (await sql<{ id: number }>`SELECT id FROM driver_probe ORDER BY id`.execute(db())).rows.map((r) => r.id);

describe('statements sent together with BEGIN and COMMIT', () => {
  it('commits with the last statement: the rows are there, one round trip for begin, statement and commit', async () => {
    const before = { ...test.database.stats };
    const ids = await db()
      .transaction()
      .execute(async (trx) => (await commitWith(trx, insert(1, 'one'))).rows);
    const cost = statsSince(before, test.database.stats);
    expect(ids).toEqual([{ id: 1 }]);
    expect(await notes()).toEqual([1]);
    expect(cost.statements).toBe(3);
    expect(cost.roundTrips).toBe(postgres() ? 1 : 3);
  });

  it('a failing statement run with commitWith commits nothing of its transaction, and the connection serves on', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.executeQuery(insert(2, 'two'));
          await commitWith(trx, insert(3, null)); // NOT NULL violation
        }),
    ).rejects.toThrow(/null/i);
    expect(await notes()).toEqual([1]);
    // every pooled connection is usable afterwards (none left in a failed transaction)
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db()
          .transaction()
          .execute(async (trx) => (await trx.executeQuery(insert(100 + i, 'n'))).rows),
      ),
    );
    expect((await notes()).length).toBe(13);
  });

  it('refuses a statement after commitWith on Postgres (the transaction is over)', async () => {
    const attempt = db()
      .transaction()
      .execute(async (trx) => {
        await commitWith(trx, insert(4, 'four'));
        await trx.executeQuery(insert(5, 'five'));
      });
    if (postgres()) {
      await expect(attempt).rejects.toThrow(/committed/);
      expect(await notes()).toContain(4);
      expect(await notes()).not.toContain(5);
    } else {
      await attempt;
      expect(await notes()).toEqual(expect.arrayContaining([4, 5]));
    }
  });

  it('a first statement that fails rolls its transaction back (the BEGIN went with it)', async () => {
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.executeQuery(insert(1, 'duplicate'));
        }),
    ).rejects.toThrow(/duplicate|unique/i);
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.executeQuery(insert(6, 'six'));
      });
    expect(await notes()).toContain(6);
  });

  it('executeTogether answers each statement in order; a failure of a later one rolls back the earlier', async () => {
    const before = { ...test.database.stats };
    const [a, b] = await db()
      .transaction()
      .execute((trx) =>
        executeTogether(trx, [
          prepared(insert(7, 'seven')),
          CompiledQuery.raw('SELECT count(*)::int AS n FROM driver_probe WHERE id = $1', [7]),
        ]),
      );
    const cost = statsSince(before, test.database.stats);
    expect(a!.rows).toEqual([{ id: 7 }]);
    expect(b!.rows).toEqual([{ n: 1 }]);
    expect(cost.statements).toBe(4);
    expect(cost.roundTrips).toBe(postgres() ? 2 : 4);

    await expect(
      db()
        .transaction()
        .execute((trx) => executeTogether(trx, [insert(8, 'eight'), insert(9, null)])),
    ).rejects.toThrow(/null/i);
    expect(await notes()).not.toContain(8);
  });

  it('a prepared statement runs again and again on the same connections with other values', async () => {
    for (let i = 0; i < 30; i++) {
      const { rows } = await db().executeQuery(prepared(insert(200 + i, `p${i}`)));
      expect(rows).toEqual([{ id: 200 + i }]);
    }
    expect((await notes()).filter((id) => id >= 200)).toHaveLength(30);
  });
});
