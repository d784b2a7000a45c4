import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { loadEntries, type ItemRow } from '../games/cases.ts';
import { takeNonces } from '../games/fairness.ts';
import { addToInventory } from '../games/opening.ts';
import { newBetId, recordWeightTable } from '../games/proofs.ts';
import { conflict } from '../lib/errors.ts';

type Trx = Transaction<Database>;

export interface FreeOpening {
  id: bigint;
  betId: string;
  caseId: string;
  caseName: string;
  caseImageUrl: string;
  item: ItemRow;
}

/**
 * A case opened for free as a prize (a wheel segment, a rank reward), inside the caller's transaction
 * (the player's row is locked already): it takes the next nonce of the player's seed pair and draws the
 * item against the case's weight table exactly like a bought opening (README, "The algorithm"), records it
 * with its own public bet id and puts the item in the inventory. Nothing is debited; it does not count as
 * an opening for the ranks (those count the openings paid for).
 */
export async function openForFree(
  trx: Trx,
  userId: bigint,
  caseId: string,
  source: 'wheel' | 'rank',
): Promise<FreeOpening> {
  const box = await trx
    .selectFrom('cases')
    .select(['id', 'name', 'image_url', 'price_nano'])
    .where('id', '=', caseId)
    .executeTakeFirst();
  const entries = (await loadEntries(trx, [caseId])).get(caseId) ?? [];
  if (!box || entries.length === 0)
    throw conflict('PRIZE_CASE_MISSING', `The prize case "${caseId}" is gone`);
  const lease = await takeNonces(trx, userId, 1);
  const nonce = lease.nonces[0]!;
  const tableHash = await recordWeightTable(
    trx,
    entries.map((e) => ({ itemId: e.item.id, weight: e.weight })),
  );
  const { roll, total, index } = lease.rollWeighted(
    nonce,
    entries.map((e) => e.weight),
  );
  const item = entries[index]!.item;
  const betId = newBetId();
  const row = await trx
    .insertInto('free_openings')
    .values({
      user_id: userId,
      public_id: betId,
      source,
      case_id: caseId,
      case_price_nano: box.price_nano,
      item_id: item.id,
      seed_id: lease.seedId,
      server_seed_hash: lease.serverSeedHash,
      client_seed: lease.clientSeed,
      nonce,
      roll,
      total_weight: total,
      weight_table_hash: tableHash,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await addToInventory(trx, userId, [item]);
  return { id: row.id, betId, caseId, caseName: box.name, caseImageUrl: box.image_url, item };
}
