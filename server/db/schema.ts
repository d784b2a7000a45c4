import type { ColumnType, Generated } from 'kysely';

/** BIGINT columns come back as bigint from both PGlite and pg (see openDatabase). */
export type BigIntColumn = ColumnType<bigint, bigint | number | string, bigint | number | string>;
/** a BIGINT with a database default: optional on insert */
export type BigIntDefault = ColumnType<
  bigint,
  bigint | number | string | undefined,
  bigint | number | string
>;
/** a BIGSERIAL key */
export type BigSerial = ColumnType<bigint, never, never>;
/** a TIMESTAMPTZ with a default of now() */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface UsersTable {
  id: ColumnType<bigint, bigint | string, never>;
  first_name: string;
  last_name: string | null;
  username: string | null;
  photo_url: string | null;
  language_code: string | null;
  is_premium: Generated<boolean>;
  balance_nano: BigIntDefault;
  openings_count: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Every balance change leaves one row here, in the same transaction as the change. */
export interface LedgerTable {
  id: BigSerial;
  user_id: BigIntColumn;
  delta_nano: BigIntColumn;
  balance_after_nano: BigIntColumn;
  /** what moved the money: demo_grant, case_open, sell, deposit_ton, deposit_cryptobot, ... */
  kind: string;
  /** free reference, e.g. the opening id or case id */
  ref: string | null;
  /** unique id from outside (TON transaction hash, invoice id): a replayed credit inserts nothing */
  external_id: string | null;
  created_at: Timestamp;
}

/** Secrets generated on first start and shared by every instance on the same database. */
export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  ledger: LedgerTable;
  app_secrets: AppSecretsTable;
}
