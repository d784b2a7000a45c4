import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  OperationNode,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { groupedAfter } from './postgres-driver.ts';

/**
 * Tells, after each commit, which players' balances it changed: every balance change writes a ledger row
 * (DESIGN.md rule 3), so the one place that sees them all is the database driver, where every insert into
 * `ledger` passes, whatever module wrote it. The driver is wrapped: an insert into `ledger` notes the rows'
 * `user_id`s on its connection; when that connection's transaction commits they are handed to the listener
 * (a rolled-back transaction hands over nothing); an insert outside a transaction is handed over at once.
 *
 * Each player comes with their balance after the commit when the transaction's last ledger write told it:
 * a raw statement that changes the balance and writes the ledger row together (the opening's debit) returns
 * `ledger_balance_nano` and `ledger_version` (the new row's id) beside `ledger_user_id`, and the row lock
 * it holds until commit means no one else changed that balance since. Any other ledger write (a query
 * builder insert, whose statement returns no balance) after it, or a savepoint rolled back, leaves the
 * balance unknown (null): the listener reads it after the commit. A hint too many costs a read, nothing else.
 */
type LedgerCommitListener = (users: ReadonlyMap<bigint, CommittedBalance | null>) => void;

/** A player's balance as a committed transaction left it, and the id of its last ledger row (the version). */
export interface CommittedBalance {
  balanceNano: bigint;
  version: bigint;
}

/** The table whose inserts are watched. */
const LEDGER = 'ledger';

interface ConnectionState {
  inTransaction: boolean;
  /** the players this transaction wrote ledger rows for, each with the balance its last write told */
  users: Map<bigint, CommittedBalance | null>;
}

/** The user ids an insert into `ledger` writes, or null when the statement is not one. */
function ledgerInsertUsers(node: OperationNode): bigint[] | null {
  if (node.kind !== 'InsertQueryNode') return null;
  const insert = node as unknown as {
    into?: { table?: { identifier?: { name?: string } } };
    columns?: ReadonlyArray<{ column?: { name?: string } }>;
    values?: { kind: string; values?: ReadonlyArray<{ kind: string; values?: ReadonlyArray<unknown> }> };
  };
  if (insert.into?.table?.identifier?.name !== LEDGER) return null;
  const column = insert.columns?.findIndex((c) => c.column?.name === 'user_id') ?? -1;
  const users: bigint[] = [];
  if (column < 0 || insert.values?.kind !== 'ValuesNode') return users;
  for (const row of insert.values.values ?? []) {
    const cell = row.values?.[column];
    // a PrimitiveValueListNode holds the values; a ValueListNode holds ValueNodes
    const value =
      row.kind === 'PrimitiveValueListNode' ? cell : (cell as { kind?: string; value?: unknown })?.value;
    if (typeof value === 'bigint') users.push(value);
    else if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)))
      users.push(BigInt(value));
  }
  return users;
}

/**
 * The players a raw statement (sql``, e.g. the opening's one-statement debit) wrote ledger rows for: such a
 * statement returns each as `ledger_user_id`, since its text cannot be read for them, and may return the
 * balance after it as `ledger_balance_nano` with the new ledger row's id as `ledger_version` (both or
 * neither). Null for any other statement.
 */
function rawLedgerUsers(
  query: CompiledQuery,
  rows: readonly unknown[],
): [bigint, CommittedBalance | null][] | null {
  if (query.query.kind !== 'RawNode' || !RAW_LEDGER_INSERT.test(query.sql)) return null;
  const users: [bigint, CommittedBalance | null][] = [];
  for (const row of rows) {
    const r = row as { ledger_user_id?: unknown; ledger_balance_nano?: unknown; ledger_version?: unknown };
    const id = asBigint(r.ledger_user_id);
    if (id === null) continue;
    const balanceNano = asBigint(r.ledger_balance_nano);
    const version = asBigint(r.ledger_version);
    users.push([id, balanceNano !== null && version !== null ? { balanceNano, version } : null]);
  }
  if (users.length === 0 && rows.length > 0)
    console.error('ledger watch: a raw statement wrote ledger rows without returning ledger_user_id');
  return users;
}

function asBigint(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  return null;
}

const RAW_LEDGER_INSERT = /\binsert\s+into\s+"?ledger"?\s*\(/i;

/** Hands the hint over; a failing listener never turns a commit into an error. */
function report(
  listener: LedgerCommitListener | null,
  users: ReadonlyMap<bigint, CommittedBalance | null>,
): void {
  try {
    listener?.(users);
  } catch (err) {
    console.error('ledger watch: the listener failed', err);
  }
}

class WatchedConnection implements DatabaseConnection {
  readonly state: ConnectionState = { inTransaction: false, users: new Map() };

  constructor(
    readonly inner: DatabaseConnection,
    private readonly listener: () => LedgerCommitListener | null,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.inner.executeQuery<R>(compiledQuery);
    // the statements sent in the same exchange after it (executeTogether) ran after it, in order
    const ran: [CompiledQuery, QueryResult<unknown>][] = [
      [compiledQuery, result],
      ...groupedAfter(compiledQuery),
    ];
    const users: [bigint, CommittedBalance | null][] = [];
    for (const [query, { rows }] of ran) {
      users.push(
        ...(ledgerInsertUsers(query.query)?.map((u): [bigint, null] => [u, null]) ??
          rawLedgerUsers(query, rows) ??
          []),
      );
    }
    if (users.length > 0) {
      // statements of one connection run in order: the last write of a player tells their balance
      if (this.state.inTransaction) for (const [u, known] of users) this.state.users.set(u, known);
      else report(this.listener(), new Map(users));
    }
    return result;
  }

  streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiledQuery, chunkSize);
  }
}

class WatchedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly listener: () => LedgerCommitListener | null,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WatchedConnection(await this.inner.acquireConnection(), this.listener);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as WatchedConnection;
    await this.inner.beginTransaction(c.inner, settings);
    c.state.inTransaction = true;
    c.state.users.clear();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection;
    try {
      await this.inner.commitTransaction(c.inner);
    } catch (err) {
      c.state.inTransaction = false;
      c.state.users.clear();
      throw err;
    }
    const users = c.state.users;
    c.state.inTransaction = false;
    c.state.users = new Map();
    if (users.size > 0) report(this.listener(), users);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection;
    c.state.inTransaction = false;
    c.state.users.clear();
    await this.inner.rollbackTransaction(c.inner);
  }

  async savepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    if (!this.inner.savepoint) throw new Error('savepoints are not supported by this driver');
    await this.inner.savepoint((connection as WatchedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('savepoints are not supported by this driver');
    // the rows written since the savepoint are gone; their hints stay (a needless read, never a missed push)
    // but no balance a statement told is sure any more: read them all after the commit
    const c = connection as WatchedConnection;
    for (const u of c.state.users.keys()) c.state.users.set(u, null);
    await this.inner.rollbackToSavepoint(c.inner, name, compile);
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('savepoints are not supported by this driver');
    await this.inner.releaseSavepoint((connection as WatchedConnection).inner, name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as WatchedConnection;
    c.state.inTransaction = false;
    c.state.users.clear();
    return this.inner.releaseConnection(c.inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** A dialect like `inner` whose committed ledger inserts are reported to the listeners added to `watch`. */
export function watchLedger(inner: Dialect): { dialect: Dialect; watch: LedgerWatch } {
  const listeners = new Set<LedgerCommitListener>();
  const all: LedgerCommitListener = (users) => {
    for (const l of listeners) l(users);
  };
  const watch: LedgerWatch = {
    add(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const dialect: Dialect = {
    createAdapter: () => inner.createAdapter(),
    createDriver: () => new WatchedDriver(inner.createDriver(), () => (listeners.size > 0 ? all : null)),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
  };
  return { dialect, watch };
}

/** Where the app learns of committed balance changes (the balance pushes listen here). */
export interface LedgerWatch {
  /** Calls listener after each commit that wrote ledger rows; returns the removal. */
  add(listener: LedgerCommitListener): () => void;
}
