import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

type Trx = Transaction<Database>;

/**
 * A credit inside the caller's transaction, whose first statement locked the player's row
 * (server/db/locks.ts): the balance and its ledger row change together. The external id is unique in the
 * ledger, so the same credit can never land twice; callers look it up first (the player's lock makes that
 * look-up exact) and a duplicate that still reaches the insert fails the whole transaction.
 */
export async function creditInTransaction(
  trx: Trx,
  userId: bigint,
  amountNano: bigint,
  kind: string,
  externalId: string,
  ref: string | null,
): Promise<{ ledgerId: bigint; balanceNano: bigint }> {
  if (amountNano <= 0n) throw new RangeError('a credit must be positive');
  const updated = await trx
    .updateTable('users')
    .set((eb) => ({ balance_nano: eb('balance_nano', '+', amountNano), updated_at: new Date() }))
    .where('id', '=', userId)
    .returning('balance_nano')
    .executeTakeFirstOrThrow();
  const row = await trx
    .insertInto('ledger')
    .values({
      user_id: userId,
      delta_nano: amountNano,
      balance_after_nano: updated.balance_nano,
      kind,
      ref,
      external_id: externalId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { ledgerId: row.id, balanceNano: updated.balance_nano };
}

/** Whether a credit with this external id is in the ledger already. */
export async function credited(trx: Trx, externalId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('ledger')
    .select('id')
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row !== undefined;
}
