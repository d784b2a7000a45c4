import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import type { OpenedDatabase } from '../db/index.ts';

/**
 * One runner per background job, whatever the number of instances on one database.
 *
 *     const job = startLeasedJob(ctx, {
 *       name: 'ton-watcher',
 *       log: app.log,
 *       start: (signal) => watcher.start(),   // this instance now holds the lease: begin the work
 *       stop: () => watcher.stop(),           // lease lost or instance closing: stop, wait for work under way
 *     });
 *     ...
 *     await job.stop();                       // on close: stops the job here and hands the lease back
 *
 * On Postgres each job has a row in job_leases naming its holder and an expiry in database time. Every
 * instance runs a small loop per job: the holder renews the row every third of JOB_LEASE_TTL_MS; the others
 * try to take it, which succeeds only once it has expired (or was handed back). So when the holder dies
 * (SIGKILL, a lost machine) another instance runs the job within about JOB_LEASE_TTL_MS; on a graceful
 * close the lease is handed back and taken within a third of it.
 *
 * A holder that cannot renew in time (the database unreachable, the process stalled) treats the lease as
 * lost before it expires: the signal given to start() aborts and stop() is called, so a job should check
 * the signal (or its own stop flag) between units of work. The lease makes double work rare, not
 * impossible (a unit already under way when the lease is lost still finishes): every job keeps its unique
 * keys as the safety net.
 *
 * The leases of an instance share one connection of their own, outside the request pool: a pool saturated
 * by traffic does not delay a renewal into a lost lease.
 *
 * On PGlite (one process by construction) this instance holds every lease at once and no row is written.
 */

export interface LeasedJob {
  /** The job's name, unique across the product: the lease's key (e.g. 'ton-watcher', 'games-sweep'). */
  name: string;
  /**
   * Begins the job's work on this instance, which now holds the lease. `signal` aborts when the lease is
   * lost or the handle stops. A throw (or rejection) hands the lease back; it is tried again later.
   */
  start(signal: AbortSignal): void | Promise<void>;
  /** Stops the job's work here and waits for the work under way. Called once per successful start(). */
  stop(): void | Promise<void>;
  /** where takeovers, losses and failures are reported (the app's logger) */
  log?: LeaseLog;
}

export interface LeasedJobHandle {
  readonly name: string;
  /** true while this instance holds the lease and the job runs here */
  readonly running: boolean;
  /**
   * Settles once the first try for the lease is over: when this instance took it, after start() finished.
   * (A start that must happen before the server serves, like paying what a stopped server left, awaits it.)
   */
  readonly ready: Promise<void>;
  /** Stops the job here (waiting for it) and hands the lease back so another instance takes it at once. */
  stop(): Promise<void>;
}

/** What a lease needs from the app's context (an AppContext fits). */
export interface LeaseContext {
  database: Pick<OpenedDatabase, 'kind' | 'databaseUrl'>;
  config: { jobLeaseTtlMs: number };
}

interface LeaseLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

const silent: LeaseLog = { info() {}, warn() {}, error() {} };

/** Starts competing for the job's lease; the job runs here whenever this instance holds it. */
export function startLeasedJob(ctx: LeaseContext, job: LeasedJob): LeasedJobHandle {
  return ctx.database.kind === 'pglite' ? new LocalLease(job) : new DatabaseLease(ctx, job);
}

/** One connection per database for the leases of this process, opened with the first and ended with the last. */
const connections = new Map<string, { pool: pg.Pool; users: number }>();

function leaseConnection(url: string, timeoutMs: number, log: LeaseLog): pg.Pool {
  let entry = connections.get(url);
  if (!entry) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      // a claim that cannot be made in time is as good as failed: the next one is due
      connectionTimeoutMillis: Math.max(1000, timeoutMs),
      statement_timeout: Math.max(1000, timeoutMs),
      application_name: 'giftcases-job-leases',
    });
    pool.on('error', (err) => log.warn({ err }, 'job leases: the connection was lost; reconnecting'));
    entry = { pool, users: 0 };
    connections.set(url, entry);
  }
  entry.users += 1;
  return entry.pool;
}

async function releaseConnection(url: string): Promise<void> {
  const entry = connections.get(url);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  connections.delete(url);
  await entry.pool.end();
}

/** The instance's name in job_leases: host, process and a random part (two apps in one process differ). */
function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** Runs start() and stop() once each, whatever the order of the calls around them. */
class JobRun {
  private readonly abort = new AbortController();
  private starting: Promise<boolean> | null = null;
  private stopping: Promise<void> | null = null;

  constructor(
    private readonly job: LeasedJob,
    private readonly log: LeaseLog,
  ) {}

  /** Starts the job; false when start() threw (the job is then stopped again). */
  start(): Promise<boolean> {
    this.starting ??= this.begin();
    return this.starting;
  }

  private async begin(): Promise<boolean> {
    try {
      await this.job.start(this.abort.signal);
      return true;
    } catch (err) {
      this.log.error({ err, job: this.job.name }, 'job failed to start');
      this.abort.abort();
      try {
        await this.job.stop();
      } catch (stopErr) {
        this.log.error({ err: stopErr, job: this.job.name }, 'job failed to stop cleanly');
      }
      return false;
    }
  }

  /** Aborts the signal, lets a start() under way finish, then stops the job (once). */
  stop(): Promise<void> {
    this.abort.abort();
    this.stopping ??= (async () => {
      if (this.starting && !(await this.starting)) return; // a failed start already stopped it
      try {
        await this.job.stop();
      } catch (err) {
        this.log.error({ err, job: this.job.name }, 'job failed to stop cleanly');
      }
    })();
    return this.stopping;
  }
}

/** PGlite: the only process, so the lease is always held here. */
class LocalLease implements LeasedJobHandle {
  readonly name: string;
  private readonly run: JobRun;
  private readonly started: Promise<boolean>;
  readonly ready: Promise<void>;
  private stopped = false;

  constructor(job: LeasedJob) {
    this.name = job.name;
    this.run = new JobRun(job, job.log ?? silent);
    this.started = this.run.start();
    this.ready = this.started.then(() => {});
  }

  get running(): boolean {
    return !this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.started;
    await this.run.stop();
  }
}

/** Postgres: a row in job_leases, renewed by the holder, taken over by another instance when it expires. */
class DatabaseLease implements LeasedJobHandle {
  readonly name: string;
  private readonly holder = newHolderId();
  private readonly ttlMs: number;
  private readonly everyMs: number;
  private readonly log: LeaseLog;
  private run: JobRun | null = null;
  private loop: Promise<void>;
  readonly ready: Promise<void>;
  private firstTry: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private deadlineTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private stopping: Promise<void> | null = null;
  private failing = false;
  private readonly url: string;
  private readonly connection: pg.Pool;

  constructor(
    ctx: LeaseContext,
    private readonly job: LeasedJob,
  ) {
    this.name = job.name;
    this.ttlMs = ctx.config.jobLeaseTtlMs;
    this.everyMs = Math.max(50, Math.floor(this.ttlMs / 3));
    this.log = job.log ?? silent;
    if (!ctx.database.databaseUrl) throw new Error('a job lease on Postgres needs the database URL');
    this.url = ctx.database.databaseUrl;
    this.connection = leaseConnection(this.url, this.everyMs, this.log);
    this.ready = new Promise<void>((resolve) => (this.firstTry = resolve));
    this.loop = this.cycle().finally(() => this.firstTry?.());
  }

  get running(): boolean {
    return this.run !== null;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.closed = true;
      if (this.tickTimer) clearTimeout(this.tickTimer);
      this.wake?.();
      await this.loop;
      await this.lose(null);
      await this.release();
      await releaseConnection(this.url);
    })();
    return this.stopping;
  }

  /** Try to take (or renew) the lease, then sleep a third of its length; until stop(). */
  private async cycle(): Promise<void> {
    while (!this.closed) {
      const sentAt = performance.now();
      const held = await this.claim();
      if (this.closed) break;
      if (held === true) {
        // valid in database time until (at least) sentAt + ttl: stop before that unless renewed again
        this.armDeadline(sentAt);
        if (!this.run) await this.begin();
      } else if (held === false && this.run) {
        await this.lose('another instance holds the lease');
      }
      // held === null: the database did not answer; the deadline decides when the lease is lost
      this.firstTry?.();
      this.firstTry = null;
      if (this.closed) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.tickTimer = setTimeout(resolve, this.everyMs);
        this.tickTimer.unref();
      });
      this.wake = null;
    }
  }

  /**
   * One statement takes a free or expired lease, or renews ours: true when we hold it now, false when
   * another instance does, null when the database could not be asked.
   */
  private async claim(): Promise<boolean | null> {
    try {
      const { rows } = await this.connection.query<{ holder: string }>(
        `INSERT INTO job_leases (name, holder, expires_at, acquired_at, renewed_at)
         VALUES ($1, $2, now() + $3::int * interval '1 millisecond', now(), now())
         ON CONFLICT (name) DO UPDATE SET
           holder = EXCLUDED.holder,
           expires_at = EXCLUDED.expires_at,
           renewed_at = EXCLUDED.renewed_at,
           acquired_at = CASE WHEN job_leases.holder = EXCLUDED.holder
                              THEN job_leases.acquired_at ELSE EXCLUDED.acquired_at END
         WHERE job_leases.holder = EXCLUDED.holder OR job_leases.expires_at <= now()
         RETURNING holder`,
        [this.name, this.holder, this.ttlMs],
      );
      if (this.failing) {
        this.failing = false;
        this.log.info({ job: this.name }, 'job lease: the database answers again');
      }
      return rows.length === 1;
    } catch (err) {
      if (!this.failing && !this.closed) {
        this.failing = true;
        this.log.warn({ err, job: this.name }, 'job lease: could not reach the database; retrying');
      }
      return null;
    }
  }

  private armDeadline(sentAt: number): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    // the lease runs from when the claim was sent; give the job a third of it to wind down before expiry
    const leftMs = sentAt + this.ttlMs - this.everyMs - performance.now();
    this.deadlineTimer = setTimeout(
      () => void this.lose('the lease could not be renewed in time'),
      Math.max(0, leftMs),
    );
    this.deadlineTimer.unref();
  }

  private async begin(): Promise<void> {
    const run = new JobRun(this.job, this.log);
    this.run = run;
    this.log.info({ job: this.name, holder: this.holder }, 'job lease taken: the job runs on this instance');
    if (!(await run.start()) && this.run === run) {
      this.run = null;
      this.clearDeadline();
      await this.release();
    }
  }

  /** Stops the job here (the lease is lost, or the handle stops: reason null). */
  private async lose(reason: string | null): Promise<void> {
    const run = this.run;
    this.clearDeadline();
    if (!run) return;
    this.run = null;
    if (reason) this.log.warn({ job: this.name, reason }, 'job lease lost: the job stops on this instance');
    await run.stop();
  }

  private clearDeadline(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
  }

  /** Hands the lease back (expired now) so another instance takes it at its next try. */
  private async release(): Promise<void> {
    try {
      await this.connection.query(
        'UPDATE job_leases SET expires_at = now() WHERE name = $1 AND holder = $2',
        [this.name, this.holder],
      );
    } catch (err) {
      this.log.warn({ err, job: this.name }, 'job lease: could not hand the lease back; it will expire');
    }
  }
}
