import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { CompiledQuery, sql, type Transaction } from 'kysely';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_REPLAYED_HEADER } from '../../contract/inventory.ts';
import type { Db } from '../db/index.ts';
import { lockPlayer, lockPlayerQuery, noteLocked, queueForPlayer } from '../db/locks.ts';
import { startLeasedJob, type LeaseContext, type LeasedJobHandle } from '../jobs/lease.ts';
import type { Database } from '../db/schema.ts';
import { commitWith, executeTogether, prepared } from '../db/postgres-driver.ts';
import { HttpError, badRequest, conflict, unauthorized } from './errors.ts';

/**
 * Safe retries for requests that move money or items (sell, withdraw, open a case).
 *
 * A client may send `Idempotency-Key: <1 to 128 visible ASCII characters>`. The first request with a key
 * runs and its answer (status and body) is stored in the same transaction as its change, so either both
 * commit or neither does. A retry with the same key and the same request gets the stored answer and
 * changes nothing; the same key with another request (another body or route) is refused with 422
 * IDEMPOTENCY_KEY_REUSED. Keys belong to a player: two players never share one.
 *
 * Concurrency: the transaction locks the player's row first (server/db/locks.ts: the one lock order),
 * then claims the key row by inserting it under its primary key (player, key). A second request of the
 * same player waits on the player's row until the first commits, then finds the stored answer and replays
 * it (or, if the first rolled back, claims the key itself and runs). Claiming the key first would take a
 * share lock on the player's row (the foreign key) before the row lock the money code takes: two such
 * requests deadlock on Postgres. On PGlite, transactions run one at a time.
 *
 * Expiry (Stripe's rule): a key is kept for 24 hours. An older stored key is forgotten, so the same key
 * then runs as a new request; a sweeper started with the app deletes expired keys periodically.
 *
 * A refused request (any error) rolls back, key included: nothing changed, so a retry runs afresh.
 */

type Trx = Transaction<Database>;

/** Visible ASCII and space, 1 to 128 characters. */
const KEY_PATTERN = /^[\x20-\x7E]{1,128}$/;

/** How long a stored key is kept and replayed. */
const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** How often the sweeper deletes expired keys. */
const IDEMPOTENCY_SWEEP_INTERVAL_MS = 15 * 60 * 1000;

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
 * `workLocksPlayer`: the work's first statement locks the player itself (with something it reads in the
 * same statement), so a request without a key sends no lock of its own; with a key the player is locked
 * first anyway, before the key is claimed.
 * `ends` (the work's second argument) is true when nothing runs on `trx` after the work (a request without a
 * key): the work's last statement may then carry the COMMIT (db/postgres-driver.ts, commitWith). With a key,
 * the stored answer is the last statement and carries it.
 * `workClaimsKey` (with `workLocksPlayer`): with a key, the work gets the key's claim (its third argument,
 * KeyClaim) to send in its first exchange, after the statement that locks the player, and checks its result
 * before acting on what it read; the player is then not locked apart. Without a key, or without this
 * option, the claim is null.
 */
export async function withIdempotency<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (trx: Trx, ends: boolean, claim: KeyClaim | null) => Promise<T>,
  options: { workLocksPlayer?: boolean; workClaimsKey?: boolean } = {},
): Promise<T> {
  const key = idempotencyKeyOf(request);
  const userId = request.userId;
  if (typeof userId !== 'bigint')
    throw new Error('withIdempotency needs a signed-in request (requireUser first)');
  if (key === null) {
    return queueForPlayer(userId, () =>
      db.transaction().execute(async (trx) => {
        if (!options.workLocksPlayer) await lockPlayer(trx, userId);
        return work(trx, true, null);
      }),
    );
  }
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const hash = requestHash(request);

  const keyed = { userId, key, route, hash };
  const outcome = await queueForPlayer(userId, () =>
    options.workClaimsKey && options.workLocksPlayer
      ? runClaimedByWork(db, keyed, work)
      : runKeyed(db, keyed, work),
  );

  if (outcome.replayed) void reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  void reply.status(outcome.statusCode);
  return outcome.body;
}

/** Claims a key: a new row, or a stored one past its lifetime taken over; answers the key when claimed. */
const CLAIM_KEY = `INSERT INTO idempotency_keys (user_id, key, route, request_hash, status_code, response, created_at)
SELECT id, $2::text, $3::text, $4::text, ${IN_PROGRESS}, 'null'::jsonb, now() FROM users WHERE id = $1::bigint
ON CONFLICT (user_id, key) DO UPDATE SET route = excluded.route, request_hash = excluded.request_hash,
  status_code = excluded.status_code, response = excluded.response, created_at = excluded.created_at
WHERE idempotency_keys.created_at < $5::timestamptz
RETURNING key`;

/**
 * The key's claim for a work that sends it itself (withIdempotency's `workClaimsKey`), in its first
 * exchange with the database, right after the statement that locks the player (the lock order) and before
 * it acts on anything it read: the work passes the claim's result to `check`, which throws when the key was
 * not claimed (its stored answer is then replayed, and whatever the work read is dropped).
 */
export interface KeyClaim {
  query: CompiledQuery;
  check(result: { rows: readonly unknown[] }): void;
}

/** Thrown by KeyClaim.check: the key is stored already, so the request is a retry. */
class KeyTaken extends Error {}

interface Keyed {
  userId: bigint;
  key: string;
  route: string;
  hash: string;
}

type Outcome<T> = { replayed: boolean; statusCode: number; body: T };

const claimKeyQuery = ({ userId, key, route, hash }: Keyed) =>
  prepared(CompiledQuery.raw(CLAIM_KEY, [userId, key, route, hash, expiryCutoff()]));

/**
 * The keyed transaction of withIdempotency when the work locks the player and claims the key in its first
 * exchange: an opening's lock with the case, the claim and the seed pair go together, one round trip fewer
 * than a claim of its own.
 */
async function runClaimedByWork<T>(
  db: Db,
  keyed: Keyed,
  work: (trx: Trx, ends: boolean, claim: KeyClaim) => Promise<T>,
): Promise<Outcome<T>> {
  return db.transaction().execute(async (trx) => {
    let checked = false;
    const claim: KeyClaim = {
      query: claimKeyQuery(keyed),
      check(result) {
        checked = true;
        if (result.rows.length === 0) throw new KeyTaken();
      },
    };
    let body: T;
    try {
      body = await work(trx, false, claim);
    } catch (err) {
      if (err instanceof KeyTaken) return replayStored<T>(trx, keyed);
      throw err;
    }
    if (!checked) throw new Error('withIdempotency: the work did not check its key claim');
    return storeAnswer(trx, keyed, body);
  });
}

/** The keyed transaction of withIdempotency: lock the player, claim or replay the key, run, store. */
async function runKeyed<T>(
  db: Db,
  keyed: Keyed,
  work: (trx: Trx, ends: boolean, claim: null) => Promise<T>,
): Promise<Outcome<T>> {
  const { userId } = keyed;
  return db.transaction().execute(async (trx) => {
    // lock the player and claim the key in one exchange, in that order (the lock order); a stored key past
    // its lifetime is forgotten, so this request claims it afresh (the stale row is taken over in place, as
    // if deleted and inserted). The claim inserts nothing for a player who does not exist: the lock's empty
    // answer is the 401.
    const [locked, claim] = await executeTogether(trx, [lockPlayerQuery(userId), claimKeyQuery(keyed)]);
    if (locked!.rows.length === 0) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
    noteLocked(trx, userId);
    if (claim!.rows.length === 0) return replayStored<T>(trx, keyed);
    return storeAnswer(trx, keyed, await work(trx, false, null));
  });
}

/** A key found stored: its answer when the request is the same, 422 when it is another, 409 while it runs. */
async function replayStored<T>(trx: Trx, { userId, key, route, hash }: Keyed): Promise<Outcome<T>> {
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

/** Stores the work's answer under the claimed key, with the transaction's COMMIT in the same exchange. */
async function storeAnswer<T>(trx: Trx, { userId, key }: Keyed, body: T): Promise<Outcome<T>> {
  const statusCode = 200;
  const response = JSON.stringify(body);
  await commitWith(
    trx,
    trx
      .updateTable('idempotency_keys')
      .set({ status_code: statusCode, response })
      .where('user_id', '=', userId)
      .where('key', '=', key),
  );
  return { replayed: false, statusCode, body };
}

/** JSONB comes back parsed from both drivers; a text value (some setups) is parsed here. */
function parseStored(value: unknown): unknown {
  return typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
}

function expiryCutoff(now = Date.now()): Date {
  return new Date(now - IDEMPOTENCY_KEY_TTL_MS);
}

/** Deletes every stored key older than IDEMPOTENCY_KEY_TTL_MS; returns how many went. */
export async function sweepIdempotencyKeys(db: Db, now = Date.now()): Promise<number> {
  const result = await sql`DELETE FROM idempotency_keys WHERE created_at < ${expiryCutoff(now)}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Starts the periodic sweep of expired keys (once now, then every IDEMPOTENCY_SWEEP_INTERVAL_MS) as the
 * background job 'idempotency-sweep', run by the one instance holding its lease (server/jobs/lease.ts); the
 * returned stop() ends it here and waits for a sweep in progress.
 */
export function startIdempotencySweeper(
  ctx: LeaseContext & { db: Db },
  log: FastifyBaseLogger,
  intervalMs = IDEMPOTENCY_SWEEP_INTERVAL_MS,
): LeasedJobHandle {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let holding = false;
  const sweep = () => {
    if (running || !holding) return;
    running = sweepIdempotencyKeys(ctx.db)
      .then((n) => {
        if (n > 0) log.info({ deleted: n }, 'expired idempotency keys deleted');
      })
      .catch((err: unknown) => log.warn({ err }, 'idempotency key sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  return startLeasedJob(ctx, {
    name: 'idempotency-sweep',
    log,
    start() {
      holding = true;
      sweep();
      timer = setInterval(sweep, intervalMs);
      timer.unref();
    },
    async stop() {
      holding = false;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  });
}
