import { mkdirSync } from 'node:fs';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations.ts';

export type Db = Kysely<Database>;

export interface OpenedDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** the Postgres connection string, for LISTEN/NOTIFY connections; null on PGlite */
  databaseUrl: string | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Postgres connection string; when null, PGlite runs embedded. */
  databaseUrl: string | null;
  /** PGlite folder; 'memory://' keeps it in memory (tests). */
  pgliteDir: string;
}

/** Opens the database (PGlite embedded by default, Postgres when a URL is given) and applies migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<OpenedDatabase> {
  let db: Db;
  let kind: OpenedDatabase['kind'];
  if (options.databaseUrl) {
    // BIGINT (oid 20) as bigint, as PGlite does, so both paths hand the same types to the code.
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 20
            ? (v: string) => BigInt(v)
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    kind = 'postgres';
  } else {
    if (!options.pgliteDir.startsWith('memory://')) mkdirSync(options.pgliteDir, { recursive: true });
    const pglite = await PGlite.create(options.pgliteDir, {
      parsers: { [pgliteTypes.INT8]: (v: string) => BigInt(v) },
    });
    db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    kind = 'pglite';
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  return { db, kind, databaseUrl: options.databaseUrl, close: () => db.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

async function migrate(db: Db): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
