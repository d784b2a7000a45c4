import { performance } from 'node:perf_hooks';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';

/**
 * What the database layer has done since the process opened the database: every statement the driver sent
 * (BEGIN and COMMIT included, one round trip each: a statement with CTEs is one statement), the
 * transactions, and the time spent waiting for a pooled connection and holding one. The counters cost an
 * addition per statement; the benchmarks read them before and after a run to report the cost of one request
 * (bench/server.bench.ts), and they tell an operator where a slow request spends its time.
 */
export interface DatabaseStats {
  /** statements sent to the database */
  statements: number;
  /**
   * exchanges with the database: on Postgres, statements sent together count once (a BEGIN with the first
   * statement, a COMMIT with the last, db/postgres-driver.ts); on PGlite one per statement
   */
  roundTrips: number;
  /** transactions begun */
  transactions: number;
  /** connections handed out (one per transaction or per statement outside one) */
  acquisitions: number;
  /** total time spent waiting for a connection, ms */
  acquireWaitMs: number;
  /** total time connections were held, from hand-out to release, ms */
  heldMs: number;
}

export function emptyStats(): DatabaseStats {
  return { statements: 0, roundTrips: 0, transactions: 0, acquisitions: 0, acquireWaitMs: 0, heldMs: 0 };
}

/** The difference between two readings of the same counters (after minus before). */
export function statsSince(before: DatabaseStats, after: DatabaseStats): DatabaseStats {
  const out = emptyStats();
  for (const key of Object.keys(out) as (keyof DatabaseStats)[]) out[key] = after[key] - before[key];
  return out;
}

/** Counts a connection's statements into the shared figures. */
class CountingConnection implements DatabaseConnection {
  readonly acquiredAt = performance.now();

  constructor(
    readonly inner: DatabaseConnection,
    private readonly stats: DatabaseStats,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.stats.statements++;
    this.stats.roundTrips++;
    return this.inner.executeQuery<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.stats.statements++;
    this.stats.roundTrips++;
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * The driver of a dialect with the statements counted. Transactions go through the counting connection,
 * so BEGIN, COMMIT and ROLLBACK count as the statements (and round trips) they are.
 */
class CountingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly stats: DatabaseStats,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const t0 = performance.now();
    const connection = await this.inner.acquireConnection();
    this.stats.acquisitions++;
    this.stats.acquireWaitMs += performance.now() - t0;
    return new CountingConnection(connection, this.stats);
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    this.stats.transactions++;
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const counted = connection as CountingConnection;
    this.stats.heldMs += performance.now() - counted.acquiredAt;
    await this.inner.releaseConnection(counted.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with every statement, transaction and connection wait counted into `stats` (PGlite's; the
 * Postgres driver, db/postgres-driver.ts, counts its own). */
export function countingDialect(inner: Dialect, stats: DatabaseStats): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new CountingDriver(inner.createDriver(), stats),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
}
