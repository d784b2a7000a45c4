import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { DatabaseStats } from './stats.ts';

/**
 * Kysely's Postgres driver, with a transaction's BEGIN and (when asked) its COMMIT sent in the same network
 * write as a statement of it: every exchange with Postgres costs a write and a read on each side (on this
 * kind of machine, the largest part of the server's CPU per opening), so an opening of three statements
 * costs three exchanges, not five.
 *
 * - BEGIN waits for the transaction's first statement and goes before it, in one extended-protocol message
 *   group with one Sync. Postgres takes a transaction's snapshot at its first statement, not at BEGIN, so
 *   this changes nothing a transaction sees; a transaction that sends no statement sends nothing at all.
 * - COMMIT goes after a statement run with `commitWith` (see there): if the statement fails, Postgres skips
 *   the COMMIT (it discards everything up to the Sync) and the transaction is rolled back as usual.
 *
 * The counters of server/db/stats.ts are kept here: BEGIN and COMMIT count as the statements they are, and
 * a message group as one round trip.
 */

/** Compiled queries whose transaction commits in the same exchange (commitWith). */
const committing = new WeakSet<CompiledQuery>();
/** The statements sent in the same exchange right after a compiled query (executeTogether), ... */
const followers = new WeakMap<CompiledQuery, readonly CompiledQuery[]>();
/** ... and their results, once the driver has run them with it. */
const followerResults = new WeakMap<CompiledQuery, QueryResult<unknown>[]>();

interface Executor {
  executeQuery(query: CompiledQuery): Promise<QueryResult<unknown>>;
}

/**
 * Runs `query` as the last statement of the transaction `trx`, with the COMMIT sent in the same exchange
 * (Postgres; elsewhere it runs as any statement and the transaction commits when its callback returns).
 * Nothing may run on `trx` after it, and nothing after it may throw: the transaction is committed when
 * this returns, and a later error could no longer roll it back (a statement after it is refused).
 */
export async function commitWith<R>(
  trx: { executeQuery<T>(query: CompiledQuery<T>): Promise<QueryResult<T>> },
  query: CompiledQuery<R> | { compile(): CompiledQuery<R> },
): Promise<QueryResult<R>> {
  const compiled = 'compile' in query ? query.compile() : query;
  committing.add(compiled);
  return (trx as unknown as Executor).executeQuery(compiled) as Promise<QueryResult<R>>;
}

/**
 * Runs statements of one transaction one after the other in a single exchange with Postgres (each runs
 * when the one before it has finished, as if sent one by one; the first failure fails the group and the
 * transaction rolls back). Elsewhere (PGlite) they simply run one by one. Any of them may write ledger rows
 * (the ledger watch, db/ledger-watch.ts, reads the others' results through groupedAfter).
 * `commits`: the transaction's COMMIT goes after the last of them, in the same exchange, as with commitWith
 * (and with its rule: nothing may run on the transaction after them, nor throw).
 */
export async function executeTogether(
  trx: { executeQuery<T>(query: CompiledQuery<T>): Promise<QueryResult<T>> },
  queries: readonly CompiledQuery[],
  options: { commits?: boolean } = {},
): Promise<QueryResult<unknown>[]> {
  const [first, ...rest] = queries;
  if (!first) return [];
  const executor = trx as unknown as Executor;
  followers.set(first, rest);
  if (options.commits) committing.add(first);
  const head = await executor.executeQuery(first);
  const grouped = followerResults.get(first);
  if (grouped) return [head, ...grouped];
  const all = [head];
  for (const query of rest) all.push(await executor.executeQuery(query));
  return all;
}

/**
 * The statements that ran in the same exchange right after `query` (executeTogether on Postgres), each with
 * its result; none when they ran one by one (elsewhere: each was then executed on its own).
 */
export function groupedAfter(query: CompiledQuery): [CompiledQuery, QueryResult<unknown>][] {
  const more = followers.get(query);
  const results = followerResults.get(query);
  if (!more || !results) return [];
  return more.map((q, i) => [q, results[i]!]);
}

/** Compiled queries to run as named prepared statements (prepared), and the names given to their texts. */
const preparing = new WeakSet<CompiledQuery>();
const statementNames = new Map<string, string>();

/**
 * Marks a compiled query to run as a named prepared statement on Postgres: each pooled connection parses and
 * plans its text once, then only binds and executes it. For the hot statements whose texts are few (one per
 * shape): every distinct text stays prepared on every connection for the connection's life.
 */
export function prepared<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  preparing.add(query);
  return query;
}

function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `giftcases_${statementNames.size + 1}`;
    statementNames.set(sql, name);
  }
  return name;
}

/** The parts of pg's Query this file builds on (its message sequence; not in pg's type declarations). */
interface PgQueryInternals {
  queryMode?: string;
  portal: string;
  prepare(connection: PgWire): void;
  _getRows(connection: PgWire, rows?: number): void;
}

interface PgWire {
  parse(config: { text: string; name?: string }): void;
  bind(config: Record<string, never>): void;
  execute(config: { portal?: string; rows?: number }): void;
  describe(config: { type: 'P'; name: string }): void;
  sync(): void;
}

type PgResult = pg.QueryResult<Record<string, unknown>>;
type Callback = (err: Error | null, results?: PgResult | PgResult[]) => void;

const PgQuery = pg.Query as unknown as new (config: {
  text: string;
  values: unknown[];
  name?: string;
  callback: Callback;
}) => PgQueryInternals & pg.Submittable;

/** pg's own mapping of a parameter to its text form (what pg's Query binds with). */
const prepareValue = (
  createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): unknown }
).prepareValue;

/**
 * A statement with a command before it, statements after it and a command after those, in one message group
 * (one Sync, one write): pg's Query sends the statement; the others go around it.
 */
class GroupedQuery extends PgQuery {
  constructor(
    text: string,
    values: unknown[],
    name: string | undefined,
    private readonly before: string | null,
    private readonly more: readonly CompiledQuery[],
    private readonly after: string | null,
    callback: Callback,
  ) {
    super({ text, values, name, callback });
    // a parameterless statement would go as a simple query, which cannot share a message group
    this.queryMode = 'extended';
  }

  override prepare(connection: PgWire): void {
    if (this.before) {
      connection.parse({ text: this.before });
      connection.bind({});
      connection.execute({});
    }
    super.prepare(connection);
  }

  override _getRows(connection: PgWire, rows?: number): void {
    connection.execute({ portal: this.portal, rows });
    for (const query of this.more) {
      connection.parse({ text: query.sql });
      connection.bind({ values: [...query.parameters], valueMapper: prepareValue } as never);
      connection.describe({ type: 'P', name: '' });
      connection.execute({});
    }
    if (this.after) {
      connection.parse({ text: this.after });
      connection.bind({});
      connection.execute({});
    }
    connection.sync();
  }
}

const MODIFYING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

function toQueryResult<R>(result: PgResult): QueryResult<R> {
  return {
    numAffectedRows: MODIFYING.has(result.command) ? BigInt(result.rowCount ?? 0) : undefined,
    rows: (result.rows ?? []) as R[],
  };
}

class PostgresConnection implements DatabaseConnection {
  readonly acquiredAt = performance.now();
  /** the BEGIN (or START TRANSACTION ...) that goes with the next statement */
  pendingBegin: string | null = null;
  inTransaction = false;
  /** the open transaction was committed by a statement run with commitWith */
  committed = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly stats: DatabaseStats,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.committed) {
      return Promise.reject(new Error('the transaction was committed with its last statement (commitWith)'));
    }
    const before = this.pendingBegin;
    const after = this.inTransaction && committing.has(query) ? 'commit' : null;
    const more = followers.get(query) ?? [];
    this.pendingBegin = null;
    this.stats.statements += 1 + more.length + (before ? 1 : 0) + (after ? 1 : 0);
    this.stats.roundTrips++;
    return new Promise<QueryResult<R>>((resolve, reject) => {
      const done: Callback = (err, results) => {
        if (err) return reject(err);
        const all = Array.isArray(results) ? results : [results!];
        const first = before ? 1 : 0;
        if (after) this.committed = true;
        if (more.length > 0) {
          followerResults.set(
            query,
            more.map((_, i) => toQueryResult(all[first + 1 + i]!)),
          );
        }
        resolve(toQueryResult<R>(all[first]!));
      };
      const values = [...query.parameters];
      const name = preparing.has(query) ? statementName(query.sql) : undefined;
      if (before || after || more.length > 0) {
        this.client.query(new GroupedQuery(query.sql, values, name, before, more, after, done));
      } else {
        this.client.query({ text: query.sql, values, name }, done as (err: Error, result: PgResult) => void);
      }
    });
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported by this driver');
  }
}

class PostgresDriver implements Driver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly stats: DatabaseStats,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const t0 = performance.now();
    const client = await this.pool.connect();
    this.stats.acquisitions++;
    this.stats.acquireWaitMs += performance.now() - t0;
    return new PostgresConnection(client, this.stats);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as PostgresConnection;
    let begin = 'begin';
    if (settings.isolationLevel || settings.accessMode) {
      begin = 'start transaction';
      if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
      if (settings.accessMode) begin += ` ${settings.accessMode}`;
    }
    this.stats.transactions++;
    c.pendingBegin = begin;
    c.inTransaction = true;
    c.committed = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PostgresConnection;
    const sent = c.pendingBegin === null && !c.committed;
    c.pendingBegin = null;
    c.inTransaction = false;
    c.committed = false;
    // nothing to commit when the transaction sent no statement or committed with its last one
    if (sent) await c.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as PostgresConnection;
    const open = c.pendingBegin === null && !c.committed;
    if (c.committed) {
      console.error(
        'database: a transaction committed with commitWith failed after its commit; nothing rolled back',
      );
    }
    c.pendingBegin = null;
    c.inTransaction = false;
    c.committed = false;
    if (open) await c.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteIdentifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteIdentifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteIdentifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as PostgresConnection;
    this.stats.heldMs += performance.now() - c.acquiredAt;
    c.client.release();
  }

  async destroy(): Promise<void> {
    await this.pool.end();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The Postgres dialect on `pool`, with its statements, round trips and connection waits counted in `stats`. */
export function postgresDialect(pool: pg.Pool, stats: DatabaseStats): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PostgresDriver(pool, stats),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
