import { CompiledQuery, type Transaction } from 'kysely';
import { prepared } from './postgres-driver.ts';
import type { Database } from './schema.ts';
import { unauthorized } from '../lib/errors.ts';

/**
 * The one lock order of every money path (server/README.md, "Lock order"):
 *
 *   1. the player's `users` row (SELECT ... FOR UPDATE), several players in ascending id order;
 *   2. then anything that references the player: the idempotency key row, inventory rows, the seed pair,
 *      battles and their seats, withdrawals, ledger rows.
 *
 * Inserting or updating a row that references `users` takes a share lock on the player's row (the
 * foreign-key check); taking that first and the row lock second is how two requests of one player used to
 * deadlock (each held the share lock and waited for the other to let go of it). Locking the player first
 * makes every transaction of one player queue on a single row: they wait, they never cycle.
 *
 * Call lockPlayer as the transaction's first statement that touches the player. Locking again in the same
 * transaction is free: the transaction remembers whom it has locked (a row lock lasts until the
 * transaction ends), so a route that locks the player and the game it runs, which locks the player too,
 * send one statement, not two.
 */

type Trx = Transaction<Database>;

/** The players each open transaction has locked (a transaction object lives as long as its transaction). */
const lockedBy = new WeakMap<Trx, Set<bigint>>();

/** The statement of lockPlayer, for a caller that sends it together with others (then noteLocked). */
export function lockPlayerQuery(userId: bigint): CompiledQuery {
  return prepared(CompiledQuery.raw('SELECT id FROM users WHERE id = $1::bigint FOR UPDATE', [userId]));
}

/** Locks the player's users row until the transaction ends; 401 USER_UNKNOWN when there is no such player. */
export async function lockPlayer(trx: Trx, userId: bigint): Promise<void> {
  const locked = lockedBy.get(trx);
  if (locked?.has(userId)) return;
  const { rows } = await trx.executeQuery(lockPlayerQuery(userId));
  if (rows.length === 0) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  if (locked) locked.add(userId);
  else lockedBy.set(trx, new Set([userId]));
}

/**
 * Notes that the transaction has locked the player's row with a statement of its own (one that locks the
 * player and reads something else at once, FOR UPDATE OF the users row): a later lockPlayer is then free.
 */
export function noteLocked(trx: Trx, userId: bigint): void {
  const locked = lockedBy.get(trx);
  if (locked) locked.add(userId);
  else lockedBy.set(trx, new Set([userId]));
}

/** Locks several players' rows in ascending id order (the order every path uses); returns the ids found. */
export async function lockPlayers(trx: Trx, userIds: readonly bigint[]): Promise<bigint[]> {
  const ids = [...new Set(userIds)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('users')
    .select('id')
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
  const found = rows.map((r) => r.id);
  const locked = lockedBy.get(trx) ?? new Set<bigint>();
  for (const id of found) locked.add(id);
  lockedBy.set(trx, locked);
  return found;
}

/**
 * One money transaction per player at a time in this process. The database's row lock is what makes
 * concurrent requests of a player safe (also across instances); this queue only keeps the waiting out of
 * the connection pool: without it, a burst of one player's requests would each take a pooled connection
 * just to wait on the player's row, and every other player would wait for a connection. The tail of
 * each player's queue is kept until it drains.
 */
const queues = new Map<bigint, Promise<unknown>>();

export function queueForPlayer<T>(userId: bigint, work: () => Promise<T>): Promise<T> {
  const before = queues.get(userId) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(userId, tail);
  void tail.then(() => {
    if (queues.get(userId) === tail) queues.delete(userId);
  });
  return run;
}
