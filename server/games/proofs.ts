import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * Proofs that last (DESIGN.md rule 4): every opening records the weight table it was drawn against, and
 * every bet has a public id.
 *
 * A weight table's canonical text is the JSON array of [itemId, weight] pairs in roll order, with no
 * spaces: [["lollipop",540],["candy",300],["cake",160]]. Its hash is the hex SHA-256 of that text (UTF-8).
 * Tables are stored once by hash and never deleted, so an opening verifies after the weights change (an
 * RTP change, a new item) exactly as it did when it was rolled.
 */

export interface WeightEntry {
  itemId: string;
  weight: number;
}

/** The canonical text of a weight table (what its hash is taken over). */
function weightTableText(entries: readonly WeightEntry[]): string {
  return JSON.stringify(entries.map((e) => [e.itemId, e.weight]));
}

/** Hex SHA-256 of a weight table's canonical text. */
function weightTableHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A stored table's entries, in roll order. */
export function parseWeightTable(text: string): WeightEntry[] {
  const pairs = JSON.parse(text) as [string, number][];
  return pairs.map(([itemId, weight]) => ({ itemId, weight }));
}

/**
 * The row a weight table is stored as (once per distinct table, by hash, never deleted): the opening
 * inserts it, if new, in the same statement and transaction as the openings that cite it.
 */
export function weightTable(entries: readonly WeightEntry[]): { hash: string; entries: string } {
  const text = weightTableText(entries);
  return { hash: weightTableHash(text), entries: text };
}

/**
 * Stores a weight table once by its hash in the caller's transaction (a game that rolls against a table of
 * its own: the daily wheel, a free opening) and returns the hash.
 */
export async function recordWeightTable(
  trx: Transaction<Database>,
  entries: readonly WeightEntry[],
): Promise<string> {
  const table = weightTable(entries);
  await trx
    .insertInto('weight_tables')
    .values(table)
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  return table.hash;
}

/**
 * A public bet id: 12 URL-safe characters from 9 random bytes (72 bits), so ids cannot be enumerated or
 * guessed; the proof page of a bet lives at /verify/<id>.
 */
export function newBetId(): string {
  if (betIdOffset + BET_ID_BYTES > betIdPool.length) {
    betIdPool = randomBytes(BET_ID_BYTES * 512);
    betIdOffset = 0;
  }
  const id = betIdPool.toString('base64url', betIdOffset, betIdOffset + BET_ID_BYTES);
  betIdOffset += BET_ID_BYTES;
  return id;
}

const BET_ID_BYTES = 9;
/**
 * Random bytes drawn 512 ids at a time (as node's randomUUID keeps a cache): one call into the system's
 * generator per id cost about 2% of the server's CPU per x3 opening. Each id still takes bytes of its own.
 */
let betIdPool = Buffer.alloc(0);
let betIdOffset = 0;
