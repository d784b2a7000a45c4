import type { Db } from '../server/db/index.ts';

/**
 * Makes `count` players with ids from `firstId`, each funded with `grantNano` through a ledger row (as a
 * deposit would be), a thousand per transaction, before the benchmark's server starts. `label` names them
 * (first name, ledger external id) so two benchmarks' players never collide.
 */
export async function seedFundedPlayers(
  db: Db,
  options: { firstId: number; count: number; grantNano: bigint; label: string },
): Promise<void> {
  const { firstId, count, grantNano, label } = options;
  for (let start = 0; start < count; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - start) }, (_, i) => BigInt(firstId + start + i));
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values(ids.map((id) => ({ id, first_name: `${label} ${id}`, balance_nano: grantNano })))
        .execute();
      await trx
        .insertInto('ledger')
        .values(
          ids.map((id) => ({
            user_id: id,
            delta_nano: grantNano,
            balance_after_nano: grantNano,
            kind: 'bench_grant',
            ref: null,
            external_id: `${label.toLowerCase()}:${id}`,
          })),
        )
        .execute();
    });
  }
}
