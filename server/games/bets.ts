import type { Item } from '../../contract/cases.ts';
import type { BetHistoryEntry, BetProof, WeightTable } from '../../contract/fairness.ts';
import { formatTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import { notFound } from '../lib/errors.ts';
import { parseWeightTable } from './proofs.ts';
import { chanceFields } from './upgrade.ts';
import { retentionBets, retentionBetProof } from '../retention/proofs.ts';

/**
 * Public proofs (no sign-in): one bet by its public id, a weight table by its hash, and a player's whole
 * history of bets, openings and upgrades together. Nothing here names the player or shows a server seed
 * that is still in use.
 */

interface ItemFields {
  id: string;
  name: string;
  price_nano: bigint;
  image_url: string;
  rarity: string;
}

function apiItem(i: ItemFields) {
  return {
    id: i.id,
    name: i.name,
    price: formatTon(i.price_nano),
    imageUrl: i.image_url,
    imageBase64: null,
    rarity: i.rarity as Item['rarity'],
  };
}

/** A stored weight table with the current names of its items; null when there is no such table. */
export async function weightTable(db: Db, hash: string): Promise<WeightTable | null> {
  const row = await db.selectFrom('weight_tables').selectAll().where('hash', '=', hash).executeTakeFirst();
  if (!row) return null;
  const entries = parseWeightTable(row.entries);
  const names = new Map(
    (
      await db
        .selectFrom('items')
        .select(['id', 'name'])
        .where(
          'id',
          'in',
          entries.map((e) => e.itemId),
        )
        .execute()
    ).map((r) => [r.id, r.name]),
  );
  return {
    hash: row.hash,
    text: row.entries,
    entries: entries.map((e) => ({ ...e, name: names.get(e.itemId) ?? null })),
  };
}

function notFoundBet(betId: string): never {
  throw notFound('BET_NOT_FOUND', `There is no bet "${betId}"`);
}

/** GET /fairness/bets/:id: the proof of one opening or upgrade, 404 BET_NOT_FOUND otherwise. */
export async function betProof(db: Db, betId: string): Promise<BetProof> {
  const opening = await db
    .selectFrom('openings as o')
    .innerJoin('cases as c', 'c.id', 'o.case_id')
    .innerJoin('items as i', 'i.id', 'o.item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'o.seed_id')
    .select([
      'o.public_id',
      'o.created_at',
      'o.price_nano as paid_nano',
      'o.server_seed_hash',
      'o.client_seed',
      'o.nonce',
      'o.roll',
      'o.total_weight',
      'o.weight_table_hash',
      'c.id as case_id',
      'c.name as case_name',
      'i.id',
      'i.name',
      'i.price_nano',
      'i.image_url',
      'i.rarity',
      's.server_seed',
      's.revealed_at',
    ])
    .where('o.public_id', '=', betId)
    .executeTakeFirst();
  if (opening) {
    return {
      kind: 'case',
      betId: opening.public_id,
      createdAt: opening.created_at.toISOString(),
      serverSeedHash: opening.server_seed_hash,
      clientSeed: opening.client_seed,
      nonce: opening.nonce,
      serverSeed: opening.revealed_at ? opening.server_seed : null,
      case: { id: opening.case_id, name: opening.case_name, price: formatTon(opening.paid_nano) },
      item: apiItem(opening),
      roll: Number(opening.roll),
      totalWeight: Number(opening.total_weight),
      weightTable: opening.weight_table_hash ? await weightTable(db, opening.weight_table_hash) : null,
    };
  }
  const u = await db
    .selectFrom('upgrades as u')
    .innerJoin('items as si', 'si.id', 'u.stake_item_id')
    .innerJoin('items as ti', 'ti.id', 'u.target_item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'u.seed_id')
    .selectAll('u')
    .select([
      'si.name as stake_name',
      'si.rarity as stake_rarity',
      'si.image_url as stake_image_url',
      'ti.name as target_name',
      'ti.rarity as target_rarity',
      'ti.image_url as target_image_url',
      's.server_seed',
      's.revealed_at',
    ])
    .where('u.public_id', '=', betId)
    .executeTakeFirst();
  if (!u) return (await retentionBetProof(db, betId)) ?? notFoundBet(betId); // a wheel spin, a free opening
  return {
    kind: 'upgrade',
    betId: u.public_id,
    createdAt: u.created_at.toISOString(),
    serverSeedHash: u.server_seed_hash,
    clientSeed: u.client_seed,
    nonce: u.nonce,
    serverSeed: u.revealed_at ? u.server_seed : null,
    stake: apiItem({
      id: u.stake_item_id,
      name: u.stake_name,
      price_nano: u.stake_price_nano,
      image_url: u.stake_image_url,
      rarity: u.stake_rarity,
    }),
    target: apiItem({
      id: u.target_item_id,
      name: u.target_name,
      price_nano: u.target_price_nano,
      image_url: u.target_image_url,
      rarity: u.target_rarity,
    }),
    coef: u.coef_tenths / 10,
    ...chanceFields({ numerator: u.chance_numerator, denominator: u.chance_denominator }),
    rolled: u.rolled,
    success: u.success,
  };
}

/**
 * GET /fairness/history: a player's bets of every kind, newest first, paged. Each page reads at most
 * page × limit rows of each kind and merges them by time.
 */
export async function betHistory(
  db: Db,
  userId: bigint,
  page: number,
  limit: number,
): Promise<{ total: number; bets: BetHistoryEntry[] }> {
  const take = page * limit;
  const [openingCount, upgradeCount] = await Promise.all([
    db
      .selectFrom('openings')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('upgrades')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  const openings = await db
    .selectFrom('openings as o')
    .innerJoin('cases as c', 'c.id', 'o.case_id')
    .innerJoin('items as i', 'i.id', 'o.item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'o.seed_id')
    .select([
      'o.public_id',
      'o.created_at',
      'o.server_seed_hash',
      'o.client_seed',
      'o.nonce',
      'c.name as case_name',
      'i.id',
      'i.name',
      'i.price_nano',
      'i.image_url',
      'i.rarity',
      's.revealed_at',
    ])
    .where('o.user_id', '=', userId)
    .orderBy('o.created_at', 'desc')
    .orderBy('o.id', 'desc')
    .limit(take)
    .execute();
  const upgrades = await db
    .selectFrom('upgrades as u')
    .innerJoin('items as si', 'si.id', 'u.stake_item_id')
    .innerJoin('items as ti', 'ti.id', 'u.target_item_id')
    .innerJoin('fairness_seeds as s', 's.id', 'u.seed_id')
    .select([
      'u.public_id',
      'u.created_at',
      'u.server_seed_hash',
      'u.client_seed',
      'u.nonce',
      'u.success',
      'u.target_price_nano',
      'si.name as stake_name',
      'ti.id',
      'ti.name',
      'ti.image_url',
      'ti.rarity',
      's.revealed_at',
    ])
    .where('u.user_id', '=', userId)
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(take)
    .execute();
  const retention = await retentionBets(db, userId, take); // wheel spins and free openings
  const merged: (BetHistoryEntry & { at: number })[] = [
    ...retention.bets,
    ...openings.map((o) => ({
      at: o.created_at.getTime(),
      betId: o.public_id,
      kind: 'case' as const,
      createdAt: o.created_at.toISOString(),
      title: o.case_name,
      item: apiItem(o),
      success: null,
      serverSeedHash: o.server_seed_hash,
      clientSeed: o.client_seed,
      nonce: o.nonce,
      revealed: o.revealed_at !== null,
    })),
    ...upgrades.map((u) => ({
      at: u.created_at.getTime(),
      betId: u.public_id,
      kind: 'upgrade' as const,
      createdAt: u.created_at.toISOString(),
      title: u.stake_name,
      item: apiItem({ ...u, price_nano: u.target_price_nano }),
      success: u.success,
      serverSeedHash: u.server_seed_hash,
      clientSeed: u.client_seed,
      nonce: u.nonce,
      revealed: u.revealed_at !== null,
    })),
  ];
  // newest first; one seed pair's nonces order bets made in the same millisecond
  merged.sort((a, b) => b.at - a.at || b.nonce - a.nonce);
  return {
    total: Number(openingCount.n) + Number(upgradeCount.n) + retention.total,
    bets: merged.slice((page - 1) * limit, page * limit).map(({ at: _at, ...bet }) => bet),
  };
}
