import { CompiledQuery, sql, type QueryCreator, type Selectable, type Transaction } from 'kysely';
import type { FairnessState, RotateResponse, SetClientSeedResponse } from '../../contract/cases.ts';
import type { Db } from '../db/index.ts';
import type { Database, FairnessSeedsTable } from '../db/schema.ts';
import { lockPlayer, queueForPlayer } from '../db/locks.ts';
import { hashSeed, newClientSeed, newServerSeed, rollFraction, rollInt, rollWeighted } from './fair.ts';

/**
 * The players' seed pairs (DESIGN.md rule 4) and the nonce machinery every game shares.
 *
 * Each player has exactly one active pair: a secret server seed (only its hash is shown), a client seed
 * the player may choose, and a nonce counting the rolls made with the pair. Every roll of every game
 * takes the next nonce of the active pair inside the game's own transaction, so a (server seed, client
 * seed, nonce) triple is used once and only once. Rotating reveals the server seed, after which every
 * roll made with it can be recomputed.
 */

type SeedRow = Selectable<FairnessSeedsTable>;
type Trx = Transaction<Database>;

/**
 * The statement that reads the player's active pair (a TakenSeed row, nothing taken yet), locked (FOR UPDATE) until the transaction ends: no row
 * before the player's first roll (then lockActiveSeed creates it). Written out as SQL, the same text every
 * time: a game sends it in one exchange with its other first statement (db/postgres-driver.ts, executeTogether).
 */
export function activeSeedQuery(userId: bigint): CompiledQuery {
  return CompiledQuery.raw(
    'SELECT id, server_seed, server_seed_hash, client_seed, nonce FROM fairness_seeds WHERE user_id = $1::bigint AND active FOR UPDATE',
    [userId],
  );
}

/** The active pair of a player, locked (FOR UPDATE) until the transaction ends; created on first use. */
export async function lockActiveSeed(trx: Trx, userId: bigint): Promise<SeedRow> {
  // A concurrent rotation may retire the row we waited for; the next round then finds its successor.
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await trx
      .selectFrom('fairness_seeds')
      .selectAll()
      .where('user_id', '=', userId)
      .where('active', '=', true)
      .forUpdate()
      .executeTakeFirst();
    if (row) return row;
    await insertFreshSeed(trx, userId, newClientSeed());
  }
  throw new Error('could not lock an active seed pair');
}

/** The active pair as taken: its nonce is the one after the taken nonces. */
export type TakenSeed = Pick<SeedRow, 'id' | 'server_seed' | 'server_seed_hash' | 'client_seed' | 'nonce'>;

/**
 * The statement that moves the player's active pair's nonce on by `count` and answers the pair (the update
 * locks it until the transaction ends), for takeNonces. No row when the player has no active pair yet, or
 * when a concurrent rotation retired the row it waited for.
 */
function takeNoncesStatement(qc: QueryCreator<Database>, userId: bigint, count: number) {
  return qc
    .updateTable('fairness_seeds')
    .set((eb) => ({ nonce: eb('nonce', '+', count) }))
    .where('user_id', '=', userId)
    .where('active', '=', true)
    .returning(['id', 'server_seed', 'server_seed_hash', 'client_seed', 'nonce']);
}

/**
 * Takes the nonces in one statement, creating the pair on first use. A concurrent rotation may retire
 * the row we waited for: the update then matches nothing (the row is no longer active), and the next
 * round finds its successor.
 */
async function advanceActiveSeed(trx: Trx, userId: bigint, count: number): Promise<TakenSeed> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await takeNoncesStatement(trx, userId, count).executeTakeFirst();
    if (row) return row;
    await insertFreshSeed(trx, userId, newClientSeed());
  }
  throw new Error('could not lock an active seed pair');
}

/** Inserts a new active pair unless the player already has one (concurrent first uses race on the index). */
async function insertFreshSeed(trx: Trx | Db, userId: bigint, clientSeed: string): Promise<void> {
  const serverSeed = newServerSeed();
  await trx
    .insertInto('fairness_seeds')
    .values({
      user_id: userId,
      server_seed: serverSeed,
      server_seed_hash: hashSeed(serverSeed),
      client_seed: clientSeed,
    })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .where(sql<boolean>`active`)
        .doNothing(),
    )
    .execute();
}

/**
 * A run of consecutive nonces taken from a player's active pair. The server seed is the secret: use it to
 * roll, never send it out; the proof a player gets is {serverSeedHash, clientSeed, nonce, ...}.
 */
export interface SeedLease {
  seedId: bigint;
  serverSeedHash: string;
  clientSeed: string;
  /** the nonces taken, ascending: one roll each */
  nonces: number[];
  /** an unbiased integer in [0, n) for one of the taken nonces */
  rollInt(nonce: number, n: number): number;
  /** a fraction in [0, 1) for one of the taken nonces */
  rollFraction(nonce: number): number;
  /** a weighted draw for one of the taken nonces: the roll in [0, total) and the index it picks */
  rollWeighted(nonce: number, weights: readonly number[]): { roll: number; total: number; index: number };
}

/**
 * Takes the next `count` nonces of the player's active pair inside the caller's transaction: the pair is
 * locked until the transaction ends and its nonce moves on by `count`, so if the caller's transaction
 * rolls back, the nonces were never taken. Pass the transaction, never the outer handle.
 *
 * Lock order (server/db/locks.ts): the caller has locked the player's row first; the seed pair comes
 * second, so two games of one player, a rotation or a client-seed change never wait on each other in a cycle.
 */
export async function takeNonces(trx: Trx, userId: bigint, count: number): Promise<SeedLease> {
  if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('count must be a positive integer');
  return leaseOf(await advanceActiveSeed(trx, userId, count), count);
}

/** The lease of the last `count` nonces taken from a pair by takeNoncesStatement. */
export function leaseOf(seed: TakenSeed, count: number): SeedLease {
  const first = seed.nonce - count;
  const nonces = Array.from({ length: count }, (_, i) => first + i);
  const taken = new Set(nonces);
  const check = (nonce: number) => {
    if (!taken.has(nonce)) throw new RangeError(`nonce ${nonce} was not taken by this lease`);
  };
  return {
    seedId: seed.id,
    serverSeedHash: seed.server_seed_hash,
    clientSeed: seed.client_seed,
    nonces,
    rollInt(nonce, n) {
      check(nonce);
      return rollInt(seed.server_seed, seed.client_seed, nonce, n);
    },
    rollFraction(nonce) {
      check(nonce);
      return rollFraction(seed.server_seed, seed.client_seed, nonce);
    },
    rollWeighted(nonce, weights) {
      check(nonce);
      return rollWeighted(seed.server_seed, seed.client_seed, nonce, weights);
    },
  };
}

function toFairnessState(row: SeedRow): FairnessState {
  return { serverSeedHash: row.server_seed_hash, clientSeed: row.client_seed, nonce: row.nonce };
}

/** What the player sees before playing: the hash of the active server seed, the client seed, the nonce. */
export async function fairnessState(db: Db, userId: bigint): Promise<FairnessState> {
  const current = () =>
    db
      .selectFrom('fairness_seeds')
      .selectAll()
      .where('user_id', '=', userId)
      .where('active', '=', true)
      .executeTakeFirst();
  let row = await current();
  for (let attempt = 0; !row && attempt < 5; attempt++) {
    await insertFreshSeed(db, userId, newClientSeed());
    row = await current();
  }
  if (!row) throw new Error('could not create a seed pair');
  return toFairnessState(row);
}

/**
 * Sets the player's client seed; it applies from the next roll on, with nonce 0.
 *
 * While the active pair is unused (nonce 0) the server seed stays and only the client seed changes. Once
 * the pair has rolled, the server seed is revealed and a new one starts with the new client seed: keeping
 * the server seed and starting the nonce over would let a player return to an earlier client seed and
 * replay rolls whose outcomes they have already seen.
 */
export async function setClientSeed(
  db: Db,
  userId: bigint,
  clientSeed: string,
): Promise<SetClientSeedResponse> {
  return queueForPlayer(userId, () => setClientSeedNow(db, userId, clientSeed));
}

async function setClientSeedNow(db: Db, userId: bigint, clientSeed: string): Promise<SetClientSeedResponse> {
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, userId); // the player first (server/db/locks.ts), as every game does before its seed
    const seed = await lockActiveSeed(trx, userId);
    if (seed.nonce === 0) {
      const row = await trx
        .updateTable('fairness_seeds')
        .set({ client_seed: clientSeed })
        .where('id', '=', seed.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toFairnessState(row);
    }
    // a used pair is retired: its server seed is revealed, and the player is told it, as rotating does
    const { current, revealed } = await replaceSeed(trx, seed, clientSeed);
    return { ...current, revealed };
  });
}

/** Reveals the active server seed and starts a new pair with nonce 0, keeping the client seed. */
export async function rotateSeed(db: Db, userId: bigint): Promise<RotateResponse> {
  return queueForPlayer(userId, () => rotateSeedNow(db, userId));
}

async function rotateSeedNow(db: Db, userId: bigint): Promise<RotateResponse> {
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, userId); // the player first (server/db/locks.ts), as every game does before its seed
    const seed = await lockActiveSeed(trx, userId);
    return replaceSeed(trx, seed, seed.client_seed);
  });
}

/** Retires a locked active pair (revealing its server seed) and inserts its successor. */
async function replaceSeed(trx: Trx, seed: SeedRow, clientSeed: string): Promise<RotateResponse> {
  await trx
    .updateTable('fairness_seeds')
    .set({ active: false, revealed_at: sql<Date>`now()` })
    .where('id', '=', seed.id)
    .execute();
  const serverSeed = newServerSeed();
  const row = await trx
    .insertInto('fairness_seeds')
    .values({
      user_id: seed.user_id,
      server_seed: serverSeed,
      server_seed_hash: hashSeed(serverSeed),
      client_seed: clientSeed,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    revealed: { serverSeed: seed.server_seed, serverSeedHash: seed.server_seed_hash },
    current: toFairnessState(row),
  };
}
