import type { Item } from '../../contract/cases.ts';
import type { BetHistoryEntry, BetKind, BetProof, WeightTable } from '../../contract/fairness.ts';
import { formatTon } from '../../contract/money.ts';
import type { Db } from '../db/index.ts';
import { notFound } from '../lib/errors.ts';
import { parseWeightTable } from './proofs.ts';
import { chanceFields } from './upgrade.ts';
import { teamOf } from './battle-rules.ts';
import type { BattleFormat } from '../../contract/battles.ts';
import { russianName } from './cases.ts';
import { retentionBets, retentionBetProof } from '../retention/proofs.ts';

/**
 * Public proofs (no sign-in): one bet by its public id, a weight table by its hash, and a player's whole
 * history of bets, openings and upgrades together. Nothing here names the player or shows a server seed
 * that is still in use.
 */

interface ItemFields {
  id: string;
  name: string;
  /** the name in Russian ('' for an item not yet seeded with one) */
  name_ru?: string;
  price_nano: bigint;
  image_url: string;
  rarity: string;
}

function apiItem(i: ItemFields) {
  return {
    id: i.id,
    name: i.name,
    ...(i.name_ru ? { ru: russianName(i.id, i.name_ru) } : {}),
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
        .select(['id', 'name', 'name_ru'])
        .where(
          'id',
          'in',
          entries.map((e) => e.itemId),
        )
        .execute()
    ).map((r) => [r.id, r]),
  );
  return {
    hash: row.hash,
    text: row.entries,
    entries: entries.map((e) => {
      const item = names.get(e.itemId);
      return { ...e, name: item?.name ?? null, nameRu: item ? item.name_ru || item.name : null };
    }),
  };
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
      'c.name_ru as case_name_ru',
      'i.id',
      'i.name',
      'i.name_ru',
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
      case: {
        id: opening.case_id,
        name: opening.case_name,
        ru: { name: opening.case_name_ru || opening.case_name },
        price: formatTon(opening.paid_nano),
      },
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
      'si.name_ru as stake_name_ru',
      'si.rarity as stake_rarity',
      'si.image_url as stake_image_url',
      'ti.name as target_name',
      'ti.name_ru as target_name_ru',
      'ti.rarity as target_rarity',
      'ti.image_url as target_image_url',
      's.server_seed',
      's.revealed_at',
    ])
    .where('u.public_id', '=', betId)
    .executeTakeFirst();
  // a wheel spin, a free opening
  if (!u) return (await retentionBetProof(db, betId)) ?? notFoundBet(betId);
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
      name_ru: u.stake_name_ru,
      price_nano: u.stake_price_nano,
      image_url: u.stake_image_url,
      rarity: u.stake_rarity,
    }),
    target: apiItem({
      id: u.target_item_id,
      name: u.target_name,
      name_ru: u.target_name_ru,
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

/** A history entry before paging: `at` orders entries of every kind together. */
type Dated = BetHistoryEntry & { at: number };

/** Reads the newest `take` bets of one kind of a player, and counts them all. */
type BetReader = (db: Db, userId: bigint, take: number) => Promise<{ total: number; bets: Dated[] }>;

async function openingBets(db: Db, userId: bigint, take: number): Promise<{ total: number; bets: Dated[] }> {
  const count = await db
    .selectFrom('openings')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
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
      'o.weight_table_hash',
      'c.name as case_name',
      'c.name_ru as case_name_ru',
      'i.id',
      'i.name',
      'i.name_ru',
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
  return {
    total: Number(count.n),
    bets: rows.map((o) => ({
      at: o.created_at.getTime(),
      betId: o.public_id,
      kind: 'case' as const,
      createdAt: o.created_at.toISOString(),
      title: o.case_name,
      titleRu: o.case_name_ru || o.case_name,
      item: apiItem(o),
      success: null,
      serverSeedHash: o.server_seed_hash,
      clientSeed: o.client_seed,
      nonce: o.nonce,
      weightTableHash: o.weight_table_hash,
      battle: null,
      revealed: o.revealed_at !== null,
    })),
  };
}

async function upgradeBets(db: Db, userId: bigint, take: number): Promise<{ total: number; bets: Dated[] }> {
  const count = await db
    .selectFrom('upgrades')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
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
      'si.name_ru as stake_name_ru',
      'ti.id',
      'ti.name',
      'ti.name_ru',
      'ti.image_url',
      'ti.rarity',
      's.revealed_at',
    ])
    .where('u.user_id', '=', userId)
    .orderBy('u.created_at', 'desc')
    .orderBy('u.id', 'desc')
    .limit(take)
    .execute();
  return {
    total: Number(count.n),
    bets: rows.map((u) => ({
      at: u.created_at.getTime(),
      betId: u.public_id,
      kind: 'upgrade' as const,
      createdAt: u.created_at.toISOString(),
      title: u.stake_name,
      titleRu: u.stake_name_ru || u.stake_name,
      item: apiItem({ ...u, price_nano: u.target_price_nano }),
      success: u.success,
      serverSeedHash: u.server_seed_hash,
      clientSeed: u.client_seed,
      nonce: u.nonce,
      weightTableHash: null,
      battle: null,
      revealed: u.revealed_at !== null,
    })),
  };
}

/** A player's battle seats: each seat is a bet (its roll per round keyed by the seat number). */
async function battleBets(db: Db, userId: bigint, take: number): Promise<{ total: number; bets: Dated[] }> {
  const count = await db
    .selectFrom('battle_seats')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('battle_seats as s')
    .innerJoin('battles as b', 'b.id', 's.battle_id')
    .innerJoin('battle_rounds as r', (join) => join.onRef('r.battle_id', '=', 'b.id').on('r.round', '=', 1))
    .innerJoin('cases as c', 'c.id', 'r.case_id')
    .select((eb) => [
      'b.id as battle_id',
      'b.public_id',
      'b.format',
      'b.mode',
      'b.status',
      'b.winner_team',
      'b.server_seed_hash',
      's.seat',
      's.client_seed',
      's.joined_at',
      'c.name as case_name',
      'c.name_ru as case_name_ru',
      eb
        .selectFrom('battle_rounds as rr')
        .select((e) => e.fn.countAll<string>().as('n'))
        .whereRef('rr.battle_id', '=', 'b.id')
        .as('rounds'),
    ])
    .where('s.user_id', '=', userId)
    .orderBy('s.joined_at', 'desc')
    .orderBy('s.battle_id', 'desc')
    .limit(take)
    .execute();
  // the dearest drop of each of these seats
  const drops = new Map<string, ItemFields>();
  if (rows.length > 0) {
    const dropRows = await db
      .selectFrom('battle_rolls as br')
      .innerJoin('items as i', 'i.id', 'br.item_id')
      .select([
        'br.battle_id',
        'br.seat',
        'br.item_price_nano as price_nano',
        'i.id',
        'i.name',
        'i.name_ru',
        'i.image_url',
        'i.rarity',
      ])
      .where(
        'br.battle_id',
        'in',
        rows.map((r) => r.battle_id),
      )
      .execute();
    for (const d of dropRows) {
      const seat = rows.find((r) => r.battle_id === d.battle_id);
      if (!seat || seat.seat !== d.seat) continue;
      const key = String(d.battle_id);
      const best = drops.get(key);
      if (!best || d.price_nano > best.price_nano) drops.set(key, d);
    }
  }
  return {
    total: Number(count.n),
    bets: rows.map((b) => {
      const drop = drops.get(String(b.battle_id));
      const settled = b.status === 'settled';
      return {
        at: b.joined_at.getTime(),
        betId: b.public_id,
        kind: 'battle' as const,
        createdAt: b.joined_at.toISOString(),
        title: b.case_name,
        titleRu: b.case_name_ru || b.case_name,
        item: drop ? apiItem(drop) : null,
        success: settled ? b.winner_team === teamOf(b.format as BattleFormat, b.seat) : null,
        serverSeedHash: b.server_seed_hash,
        clientSeed: b.client_seed,
        nonce: b.seat,
        weightTableHash: null,
        battle: { format: b.format, mode: b.mode, rounds: Number(b.rounds ?? 1) },
        revealed: settled,
      };
    }),
  };
}

/** Every kind of bet the history lists, each with its reader (a new game adds one here). */
const BET_READERS: Record<BetKind, BetReader> = {
  case: openingBets,
  upgrade: upgradeBets,
  battle: battleBets,
  // wheel spins, and the free openings a wheel or a rank gave (listed as openings)
  wheel: retentionBets,
};

function notFoundBet(betId: string): never {
  throw notFound('BET_NOT_FOUND', `There is no bet "${betId}"`);
}

/**
 * GET /fairness/history: a player's bets of every kind (openings, upgrades, battle seats, wheel spins), newest first,
 * paged. Each page reads at most page × limit rows of each kind and merges them by time.
 */
export async function betHistory(
  db: Db,
  userId: bigint,
  page: number,
  limit: number,
): Promise<{ total: number; bets: BetHistoryEntry[] }> {
  const take = page * limit;
  const parts = [];
  for (const read of Object.values(BET_READERS)) parts.push(await read(db, userId, take));
  const merged = parts.flatMap((p) => p.bets);
  // newest first; one seed pair's nonces order bets made in the same millisecond
  merged.sort((a, b) => b.at - a.at || b.nonce - a.nonce);
  return {
    total: parts.reduce((sum, p) => sum + p.total, 0),
    bets: merged.slice((page - 1) * limit, page * limit).map(({ at: _at, ...bet }) => bet),
  };
}
