import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUrl, type TestDatabase } from './harness.ts';
import { startLeasedJob, type LeasedJobHandle } from '../../server/jobs/lease.ts';

/**
 * The lease module on its own: several contenders for one job on one database (as several instances would
 * be). The three-process test with real work killed mid-job is tests/api/instances.test.ts.
 */

// long enough that a renewal (every third of it) delayed by a busy machine does not lose the lease: at 600 ms a
// renewal late by 400 ms once lost it mid-test and the job started three times
const TTL_MS = 2000;

interface Contender {
  handle: LeasedJobHandle;
  starts: number;
  stops: number;
  signals: AbortSignal[];
}

function contend(database: TestDatabase, name: string): Contender {
  const c: Contender = { handle: null as unknown as LeasedJobHandle, starts: 0, stops: 0, signals: [] };
  c.handle = startLeasedJob(
    { database: database.database, config: { jobLeaseTtlMs: TTL_MS } },
    {
      name,
      start(signal) {
        c.starts += 1;
        c.signals.push(signal);
      },
      stop() {
        c.stops += 1;
      },
    },
  );
  return c;
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let db: TestDatabase | null = null;
const handles: LeasedJobHandle[] = [];
afterEach(async () => {
  for (const h of handles.splice(0)) await h.stop();
  await db?.drop();
  db = null;
});

describe('job lease on PGlite', () => {
  it('runs the job at once: the one process holds every lease', async () => {
    db = await createTestDatabase(null);
    const c = contend(db, 'sweep');
    handles.push(c.handle);
    await until(() => c.starts === 1, 'the start');
    expect(c.handle.running).toBe(true);
    await c.handle.stop();
    expect(c.stops).toBe(1);
    expect(c.signals[0]!.aborted).toBe(true);
    expect(c.handle.running).toBe(false);
  }, 120_000);
});

describe.skipIf(!postgresUrl)('job lease on Postgres', () => {
  it('runs each job on exactly one contender, and another takes over when the holder stops', async () => {
    db = await createTestDatabase();
    const a = [contend(db, 'job-1'), contend(db, 'job-1'), contend(db, 'job-1')];
    const b = [contend(db, 'job-2'), contend(db, 'job-2')];
    handles.push(...[...a, ...b].map((c) => c.handle));
    await until(() => a.some((c) => c.handle.running) && b.some((c) => c.handle.running), 'holders');
    // a few renewal rounds: still exactly one runner per job, never started twice
    await new Promise((resolve) => setTimeout(resolve, TTL_MS * 2));
    expect(a.filter((c) => c.handle.running)).toHaveLength(1);
    expect(b.filter((c) => c.handle.running)).toHaveLength(1);
    expect(a.reduce((n, c) => n + c.starts, 0)).toBe(1);

    // the holder closes gracefully: the lease is handed back, another contender runs the job
    const holder = a.find((c) => c.handle.running)!;
    await holder.handle.stop();
    expect(holder.stops).toBe(1);
    expect(holder.signals[0]!.aborted).toBe(true);
    const rest = a.filter((c) => c !== holder);
    await until(() => rest.some((c) => c.handle.running), 'the takeover');
    expect(rest.filter((c) => c.handle.running)).toHaveLength(1);

    const rows = await db.database.db.selectFrom('job_leases').select('name').orderBy('name').execute();
    expect(rows.map((r) => r.name)).toEqual(['job-1', 'job-2']);
  }, 60_000);

  it('a holder whose lease is taken (it stalled past expiry) stops its job', async () => {
    db = await createTestDatabase();
    const a = contend(db, 'job');
    handles.push(a.handle);
    await until(() => a.handle.running, 'the first holder');
    // another instance takes the row as if a's lease had expired unseen
    await db.database.db
      .updateTable('job_leases')
      .set({ holder: 'elsewhere:1:00000000', expires_at: new Date(Date.now() + 60_000) })
      .where('name', '=', 'job')
      .execute();
    await until(() => !a.handle.running, 'the loss');
    expect(a.stops).toBe(1);
    expect(a.signals[0]!.aborted).toBe(true);
    // and it does not take the job back while the other holder's lease lasts
    await new Promise((resolve) => setTimeout(resolve, TTL_MS));
    expect(a.handle.running).toBe(false);
    expect(a.starts).toBe(1);
  }, 60_000);

  it('a start that fails hands the lease back and is tried again', async () => {
    db = await createTestDatabase();
    let attempts = 0;
    let stops = 0;
    const handle = startLeasedJob(
      { database: db.database, config: { jobLeaseTtlMs: TTL_MS } },
      {
        name: 'flaky',
        start() {
          attempts += 1;
          if (attempts === 1) throw new Error('not yet');
        },
        stop() {
          stops += 1;
        },
      },
    );
    handles.push(handle);
    await until(() => handle.running && attempts === 2, 'the second start');
    expect(stops).toBe(1); // the failed start was stopped again
  }, 60_000);
});
