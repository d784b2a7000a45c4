import { mkdirSync } from 'node:fs';
import { Kysely, Migrator, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations.ts';
import { lockDirectory, type DirectoryLock } from './lock.ts';
import { countingDialect, emptyStats, type DatabaseStats } from './stats.ts';
import { postgresDialect } from './postgres-driver.ts';
import { watchLedger, type LedgerWatch } from './ledger-watch.ts';

export { DatabaseLockedError, readLock } from './lock.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the Postgres connection string, for LISTEN/NOTIFY connections; null on PGlite */
  databaseUrl: string | null;
  /** statements, round trips, transactions and connection waits so far (server/db/stats.ts) */
  stats: DatabaseStats;
  /** Players whose balance a committed transaction changed (every insert into `ledger`, after commit) */
  ledger: LedgerWatch;
  /** Records where this process serves (in the PGlite directory's lock; nothing on Postgres or in memory). */
  announce(url: string): void;
  close(): Promise<void>;
}

/** Postgres pool settings. */
export interface PoolOptions {
  /** connections in the pool */
  max: number;
  /** longest wait for a connection (a new one, or a free one from a busy pool), ms */
  connectionTimeoutMs: number;
  /** longest a statement may run before Postgres cancels it, ms */
  statementTimeoutMs: number;
}

/** The client gives up on a call after 10 s: waiting longer than that for a connection helps no one. */
const DEFAULT_POOL: PoolOptions = { max: 10, connectionTimeoutMs: 10_000, statementTimeoutMs: 15_000 };

/** Where database troubles that no request sees (a pooled connection dropped while idle) are reported. */
interface DatabaseLog {
  warn(details: { err: unknown }, message: string): void;
}

const stderrLog: DatabaseLog = {
  warn: ({ err }, message) => console.warn(message, err instanceof Error ? err.message : err),
};

export interface DatabaseOptions {
  /** Postgres connection string; when null, PGlite runs embedded. */
  databaseUrl: string | null;
  /** PGlite folder; 'memory://' keeps it in memory (tests). A folder is locked for this process. */
  pgliteDir: string;
  /** Postgres pool settings (DEFAULT_POOL when left out) */
  pool?: Partial<PoolOptions>;
  log?: DatabaseLog;
}

/** Opens the database (PGlite embedded by default, Postgres when a URL is given) and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  let db: Db;
  let kind: OpenedDatabase['kind'];
  let lock: DirectoryLock | null = null;
  let ledger: LedgerWatch;
  const log = options.log ?? stderrLog;
  const stats = emptyStats();
  if (options.databaseUrl) {
    const settings = { ...DEFAULT_POOL, ...options.pool };
    // BIGINT (oid 20) as bigint, as PGlite does, so both paths hand the same types to the code.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: settings.max,
      connectionTimeoutMillis: settings.connectionTimeoutMs,
      statement_timeout: settings.statementTimeoutMs,
      // a transaction left open by a stuck request must not hold its row locks for ever
      idle_in_transaction_session_timeout: settings.statementTimeoutMs * 2,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 20
            ? (v: string) => BigInt(v)
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle pooled connection that breaks (the server restarts, an administrator terminates it) is
    // reported here and replaced on demand; without a listener the error would end the process.
    pool.on('error', (err) => log.warn({ err }, 'database: an idle connection was lost'));
    const watched = watchLedger(postgresDialect(pool, stats));
    ledger = watched.watch;
    db = new Kysely<Database>({ dialect: watched.dialect });
    kind = 'postgres';
  } else {
    if (!options.pgliteDir.startsWith('memory://')) {
      mkdirSync(options.pgliteDir, { recursive: true });
      lock = lockDirectory(options.pgliteDir);
    }
    try {
      const pglite = await PGlite.create(options.pgliteDir, {
        parsers: { [pgliteTypes.INT8]: (v: string) => BigInt(v) },
      });
      const watched = watchLedger(countingDialect(new PGliteDialect(pglite), stats));
      ledger = watched.watch;
      db = new Kysely<Database>({ dialect: watched.dialect });
    } catch (err) {
      lock?.release();
      throw err;
    }
    kind = 'pglite';
  }
  const close = async () => {
    try {
      await db.destroy();
    } finally {
      lock?.release();
    }
  };
  try {
    await migrate(db);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    db,
    kind,
    databaseUrl: options.databaseUrl,
    stats,
    ledger,
    announce: (url) => lock?.announce(url),
    close,
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
