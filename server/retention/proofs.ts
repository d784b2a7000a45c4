import type { BetHistoryEntry, BetProof } from '../../contract/fairness.ts';
import { formatTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import { toApiItem } from '../games/cases.ts';
import { weightTable } from '../games/bets.ts';

/**
 * The public proofs of the retention features: a wheel spin (kind 'wheel') and a free opening won on the
 * wheel or as a rank reward (kind 'case', price 0), by public bet id, and both in a player's bet history.
 */

const itemColumns = [
  'i.id',
  'i.name',
  'i.price_nano',
  'i.image_url',
  'i.rarity',
  'i.created_at',
  'i.updated_at',
] as const;

/** The proof of a wheel spin or a free opening; null when the id is neither. */
export async function retentionBetProof(db: Db, betId: string): Promise<BetProof | null> {
  const spin = await db
    .selectFrom('wheel_spins as w')
    .innerJoin('fairness_seeds as s', 's.id', 'w.seed_id')
    .leftJoin('free_openings as f', 'f.id', 'w.free_opening_id')
    .selectAll('w')
    .select(['s.server_seed', 's.revealed_at', 'f.public_id as opening_bet_id'])
    .where('w.public_id', '=', betId)
    .executeTakeFirst();
  if (spin) {
    const table = await weightTable(db, spin.table_hash);
    if (!table) throw new Error(`wheel table ${spin.table_hash} is missing`);
    return {
      kind: 'wheel',
      betId: spin.public_id,
      createdAt: spin.created_at.toISOString(),
      serverSeedHash: spin.server_seed_hash,
      clientSeed: spin.client_seed,
      nonce: spin.nonce,
      serverSeed: spin.revealed_at ? spin.server_seed : null,
      roll: Number(spin.roll),
      totalWeight: Number(spin.total_weight),
      weightTable: table,
      segment: spin.segment,
      prize: {
        kind: spin.prize_kind,
        amount: spin.prize_kind === 'ton' ? formatTon(spin.prize_nano) : null,
        caseId: spin.case_id,
        openingBetId: spin.opening_bet_id,
      },
    };
  }
  const free = await db
    .selectFrom('free_openings as f')
    .innerJoin('cases as c', 'c.id', 'f.case_id')
    .innerJoin('items as i', 'i.id', 'f.item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'f.seed_id')
    .selectAll('f')
    .select(['c.name as case_name', 's.server_seed', 's.revealed_at', ...itemColumns])
    .where('f.public_id', '=', betId)
    .executeTakeFirst();
  if (!free) return null;
  return {
    kind: 'case',
    betId: free.public_id,
    createdAt: free.created_at.toISOString(),
    serverSeedHash: free.server_seed_hash,
    clientSeed: free.client_seed,
    nonce: free.nonce,
    serverSeed: free.revealed_at ? free.server_seed : null,
    case: { id: free.case_id, name: free.case_name, price: '0' },
    item: toApiItem(free),
    roll: Number(free.roll),
    totalWeight: Number(free.total_weight),
    weightTable: await weightTable(db, free.weight_table_hash),
  };
}

type Dated = BetHistoryEntry & { at: number };

/** A player's wheel spins and free openings for the bet history: the newest `take` of each and the counts. */
export async function retentionBets(
  db: Db,
  userId: bigint,
  take: number,
): Promise<{ total: number; bets: Dated[] }> {
  const count = async (table: 'wheel_spins' | 'free_openings') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const total = (await count('wheel_spins')) + (await count('free_openings'));
  const spins = await db
    .selectFrom('wheel_spins as w')
    .innerJoin('fairness_seeds as s', 's.id', 'w.seed_id')
    .leftJoin('free_openings as f', 'f.id', 'w.free_opening_id')
    .leftJoin('items as i', 'i.id', 'f.item_id')
    .select([
      'w.public_id',
      'w.created_at as at',
      'w.server_seed_hash',
      'w.client_seed',
      'w.nonce',
      'w.prize_kind',
      'w.prize_nano',
      'w.case_id',
      'w.table_hash',
      's.revealed_at',
      'i.id',
      'i.name',
      'i.price_nano',
      'i.image_url',
      'i.rarity',
    ])
    .where('w.user_id', '=', userId)
    .orderBy('w.created_at', 'desc')
    .orderBy('w.id', 'desc')
    .limit(take)
    .execute();
  const frees = await db
    .selectFrom('free_openings as f')
    .innerJoin('cases as c', 'c.id', 'f.case_id')
    .innerJoin('items as i', 'i.id', 'f.item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'f.seed_id')
    .select([
      'f.public_id',
      'f.created_at as at',
      'f.server_seed_hash',
      'f.client_seed',
      'f.nonce',
      'c.name as case_name',
      'c.name_ru as case_name_ru',
      'f.weight_table_hash',
      's.revealed_at',
      ...itemColumns,
    ])
    .where('f.user_id', '=', userId)
    .orderBy('f.created_at', 'desc')
    .orderBy('f.id', 'desc')
    .limit(take)
    .execute();
  const common = (r: {
    public_id: string;
    at: Date;
    server_seed_hash: string;
    client_seed: string;
    nonce: number;
    revealed_at: Date | null;
  }) => ({
    at: r.at.getTime(),
    betId: r.public_id,
    createdAt: r.at.toISOString(),
    serverSeedHash: r.server_seed_hash,
    clientSeed: r.client_seed,
    nonce: r.nonce,
    revealed: r.revealed_at !== null,
    success: null,
    battle: null,
  });
  return {
    total,
    bets: [
      ...spins.map((w) => {
        const title =
          w.prize_kind === 'ton'
            ? `ton:${formatTon(w.prize_nano)}`
            : w.prize_kind === 'case'
              ? `case:${w.case_id}`
              : 'none';
        return {
          ...common(w),
          kind: 'wheel' as const,
          // the prize as data (the app words it in the player's language)
          title,
          titleRu: title,
          weightTableHash: w.table_hash,
          item:
            w.id && w.name && w.image_url && w.rarity
              ? toApiItem({
                  id: w.id,
                  name: w.name,
                  price_nano: w.price_nano ?? 0n,
                  image_url: w.image_url,
                  rarity: w.rarity,
                })
              : null,
        };
      }),
      ...frees.map((f) => ({
        ...common(f),
        kind: 'case' as const,
        title: f.case_name,
        titleRu: f.case_name_ru || f.case_name,
        weightTableHash: f.weight_table_hash,
        item: toApiItem(f),
      })),
    ],
  };
}
