import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../contract/inventory.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { HttpError, badRequest, conflict } from './errors.ts';

/**
 * Safe retries for requests that move money or items (sell, withdraw, open a case).
 *
 * A client may send `Idempotency-Key: <1 to 128 visible ASCII characters>`. The first request with a key
 * runs and its answer (status and body) is stored in the same transaction as its change, so either both
 * commit or neither does. A retry with the same key and the same request gets the stored answer and
 * changes nothing; the same key with another request (another body or route) is refused with 422
 * IDEMPOTENCY_KEY_REUSED. Keys belong to a player: two players never share one.
 *
 * Concurrency: the key row is claimed first, by inserting it under its primary key (player, key). A
 * second request with the same key waits on that insert until the first commits, then finds the stored
 * answer and replays it (or, if the first rolled back, claims the key itself and runs). On PGlite,
 * transactions run one at a time, so the second simply comes after the first.
 *
 * A refused request (any error) rolls back, key included: nothing changed, so a retry runs afresh.
 */

type Trx = Transaction<Database>;

/** Visible ASCII and space, 1 to 128 characters. */
const KEY_PATTERN = /^[\x20-\x7E]{1,128}$/;

/** status_code of a claimed key whose request has not finished (never committed: see above). */
const IN_PROGRESS = 0;

/** The Idempotency-Key of a request: null when absent; 400 when malformed. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !KEY_PATTERN.test(raw)) {
    throw badRequest(
      'INVALID_IDEMPOTENCY_KEY',
      'The Idempotency-Key header must be 1 to 128 printable ASCII characters',
    );
  }
  return raw;
}

/** JSON with object keys sorted at every level, so equal requests hash equally. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function requestHash(request: FastifyRequest): string {
  return createHash('sha256')
    .update(canonicalJson({ params: request.params ?? null, body: request.body ?? null }))
    .digest('hex');
}

/**
 * Runs `work` in one transaction and returns its answer (sent with status 200). With an Idempotency-Key
 * header, the answer is stored with the change and replayed for a retry (see the top of this file).
 * The route must run after requireUser (the key is kept per player). Do all of the request's writes on
 * `trx`: a query on the outer handle inside it would escape the transaction (and deadlock on PGlite).
 */
export async function withIdempotency<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (trx: Trx) => Promise<T>,
): Promise<T> {
  const key = idempotencyKeyOf(request);
  if (key === null) return db.transaction().execute(work);

  const userId = request.userId;
  if (typeof userId !== 'bigint')
    throw new Error('withIdempotency needs a signed-in request (requireUser first)');
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const hash = requestHash(request);
  const statusCode = 200;

  const outcome = await db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({
        user_id: userId,
        key,
        route,
        request_hash: hash,
        status_code: IN_PROGRESS,
        response: 'null',
      })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();

    if (!claimed) {
      const stored = await trx
        .selectFrom('idempotency_keys')
        .select(['route', 'request_hash', 'status_code', 'response'])
        .where('user_id', '=', userId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (stored.route !== route || stored.request_hash !== hash) {
        throw new HttpError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used for a different request; use a new key',
        );
      }
      if (stored.status_code === IN_PROGRESS) {
        throw conflict('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
      }
      return { replayed: true, statusCode: stored.status_code, body: parseStored(stored.response) as T };
    }

    const body = await work(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response: JSON.stringify(body) })
      .where('user_id', '=', userId)
      .where('key', '=', key)
      .execute();
    return { replayed: false, statusCode, body };
  });

  if (outcome.replayed) void reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  void reply.status(outcome.statusCode);
  return outcome.body;
}

/** JSONB comes back parsed from both drivers; a text value (some setups) is parsed here. */
function parseStored(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}
