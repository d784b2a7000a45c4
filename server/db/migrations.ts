import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migrations, applied in name order at start (Kysely's Migrator keeps the record and a lock, so several
 * instances starting at once on one Postgres apply each migration once). Never edit a landed migration:
 * add a new one. Plain SQL so PGlite and Postgres run the very same schema.
 */
export const migrations: Record<string, Migration> = {
  '0001_users_ledger': {
    async up(db: Kysely<unknown>) {
      await sql`
        CREATE TABLE users (
          id BIGINT PRIMARY KEY,
          first_name TEXT NOT NULL,
          last_name TEXT,
          username TEXT,
          photo_url TEXT,
          language_code TEXT,
          is_premium BOOLEAN NOT NULL DEFAULT FALSE,
          balance_nano BIGINT NOT NULL DEFAULT 0 CHECK (balance_nano >= 0),
          openings_count INTEGER NOT NULL DEFAULT 0 CHECK (openings_count >= 0),
          created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
          updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`
        CREATE TABLE ledger (
          id BIGSERIAL PRIMARY KEY,
          user_id BIGINT NOT NULL REFERENCES users(id),
          delta_nano BIGINT NOT NULL,
          balance_after_nano BIGINT NOT NULL CHECK (balance_after_nano >= 0),
          kind TEXT NOT NULL,
          ref TEXT,
          external_id TEXT UNIQUE,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX ledger_user_idx ON ledger (user_id, id)`.execute(db);
      await sql`
        CREATE TABLE app_secrets (
          name TEXT PRIMARY KEY,
          value TEXT NOT NULL,
          created_at TIMESTAMPTZ NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
};
