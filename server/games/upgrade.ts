import type { Transaction } from 'kysely';
import {
  UPGRADE_MULTIPLIERS,
  type UpgradeHistoryEntry,
  type UpgradeMultiplier,
  type UpgradeOptionsResponse,
  type UpgradeRollResponse,
} from '../../contract/upgrade.ts';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { badRequest, conflict, notFound } from '../lib/errors.ts';
import { takeFromInventory } from '../inventory/inventory.ts';
import { lockPlayer } from '../db/locks.ts';
import { russianName, toApiItem, type ItemRow } from './cases.ts';
import { TWO_POW_52, rollInt } from './fair.ts';
import { takeNonces } from './fairness.ts';
import { addToInventory } from './opening.ts';
import { newBetId } from './proofs.ts';
import { formatTon } from '../../contract/money.ts';

/**
 * The upgrade game (spec §4, §9; DESIGN.md rules 1 and 4): a player stakes one inventory item and aims at
 * a dearer gift (the multiplier picks the gifts near stake × coef); the server rolls a fraction in [0, 1)
 * from the player's seed pair and the next nonce, and the upgrade succeeds when the roll falls inside the
 * chance arc [0, chance). The stake leaves the inventory either way; on success the target joins it. All
 * of it happens in one transaction.
 *
 * The odds come from the real prices: chance = baseChance × stake price ÷ target price. So the expected
 * return, chance × target price = baseChance × stake price, is the same whichever target is chosen. The
 * target is always dearer than the stake and baseChance ≤ 1, so the chance stays below 1.
 *
 * The chance is kept exact: baseChance is configured in parts per million and prices are integer
 * nanoTON, so chance = numerator / denominator in integers (bigint) and the comparison never rounds.
 */

type Trx = Transaction<Database>;

/** Parts per million: the unit of the configured base chance. */
const PPM = 1_000_000;

/** How many targets GET /upgrade/options lists at most. */
const UPGRADE_OPTIONS_LIMIT = 8;

export function isUpgradeMultiplier(coef: unknown): coef is UpgradeMultiplier {
  return typeof coef === 'number' && (UPGRADE_MULTIPLIERS as readonly number[]).includes(coef);
}

/** A multiplier in whole tenths (1.5 → 15), so prices and chances scale by it in integers. */
export function coefTenths(coef: UpgradeMultiplier): number {
  return Math.round(coef * 10);
}

/** The base chance in parts per million; throws unless it is in (0, 1] with at most 6 decimals. */
export function baseChancePpm(baseChance: number): number {
  const ppm = Math.round(baseChance * PPM);
  if (!(baseChance > 0 && baseChance <= 1) || Math.abs(ppm / PPM - baseChance) > 1e-12) {
    throw new RangeError(`the base chance must be in (0, 1] with at most 6 decimals, got ${baseChance}`);
  }
  return ppm;
}

/** An exact chance: numerator / denominator, reduced. */
export interface Chance {
  numerator: bigint;
  denominator: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  while (b) [a, b] = [b, a % b];
  return a;
}

function reduce(numerator: bigint, denominator: bigint): Chance {
  const d = gcd(numerator, denominator) || 1n;
  return { numerator: numerator / d, denominator: denominator / d };
}

/**
 * The odds of upgrading a stake into a target, exactly: baseChance × stakePrice ÷ targetPrice, that is
 * (ppm × stakeNano) / (10^6 × targetNano). Only a dearer target is a target, so this is below baseChance.
 */
export function upgradeChance(basePpm: number, stakeNano: bigint, targetNano: bigint): Chance {
  if (targetNano <= stakeNano || stakeNano <= 0n) {
    throw new RangeError('the target must cost more than the stake, and the stake more than nothing');
  }
  return reduce(BigInt(basePpm) * stakeNano, BigInt(PPM) * targetNano);
}

export const chanceValue = (chance: Chance): number => Number(chance.numerator) / Number(chance.denominator);

/** Whether a 52-bit roll (rolled = roll / 2^52) lies inside the arc [0, chance): roll / 2^52 < num / den. */
export function insideChance(roll: number, chance: Chance): boolean {
  return BigInt(roll) * chance.denominator < chance.numerator * BigInt(TWO_POW_52);
}

/** The chance as the API carries it: a float for display and the exact fraction as decimal integers. */
export function chanceFields(chance: Chance) {
  return {
    chance: chanceValue(chance),
    chanceNumerator: chance.numerator.toString(),
    chanceDenominator: chance.denominator.toString(),
  };
}

export interface UpgradeDraw {
  /** the integer drawn in [0, 2^52) */
  roll: number;
  /** roll / 2^52: what the wheel shows (equal to rollFraction of the same seeds and nonce) */
  rolled: number;
  success: boolean;
}

/**
 * The pure roll of one upgrade: the same fraction as rollFraction(serverSeed, clientSeed, nonce) and the
 * verdict against the exact chance. The server rolls through a seed lease; a verifier calls this.
 */
export function drawUpgrade(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  chance: Chance,
): UpgradeDraw {
  const roll = rollInt(serverSeed, clientSeed, nonce, TWO_POW_52);
  return { roll, rolled: roll / TWO_POW_52, success: insideChance(roll, chance) };
}

/** A roll fraction from rollFraction (a multiple of 2^-52) as the integer it was made from. */
function fractionToRoll(rolled: number): number {
  const roll = rolled * TWO_POW_52; // exact: a power-of-two scaling
  if (!Number.isSafeInteger(roll) || roll < 0 || roll >= TWO_POW_52)
    throw new RangeError('not a 52-bit roll');
  return roll;
}

export interface TargetChoice {
  /** the default target: dearer than the stake, closest to stake × coef (the cheaper one on a tie) */
  defaultTarget: ItemRow | null;
  /** the default first, then every item dearer than the stake and at most stake × coef, closest first */
  targets: ItemRow[];
}

/**
 * The gifts a stake can be upgraded into at a multiplier, from the catalogue `items`. Distances are
 * compared in integers: |price × 10 − stakePrice × tenths|.
 */
export function chooseTargets(
  items: readonly ItemRow[],
  stake: ItemRow,
  coef: UpgradeMultiplier,
): TargetChoice {
  const tenths = BigInt(coefTenths(coef));
  const aim = stake.price_nano * tenths;
  const distance = (item: ItemRow) => {
    const d = item.price_nano * 10n - aim;
    return d < 0n ? -d : d;
  };
  const byCloseness = (a: ItemRow, b: ItemRow) => {
    const da = distance(a);
    const db = distance(b);
    if (da !== db) return da < db ? -1 : 1;
    if (a.price_nano !== b.price_nano) return a.price_nano < b.price_nano ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
  const dearer = items.filter((i) => i.price_nano > stake.price_nano).sort(byCloseness);
  const defaultTarget = dearer[0] ?? null;
  if (!defaultTarget) return { defaultTarget, targets: [] };
  const within = dearer.filter((i) => i !== defaultTarget && i.price_nano * 10n <= aim);
  return { defaultTarget, targets: [defaultTarget, ...within] };
}

export const invalidCoef = (coef: unknown) =>
  badRequest(
    'INVALID_COEF',
    `The multiplier must be one of ${UPGRADE_MULTIPLIERS.join(', ')}; got ${JSON.stringify(coef)}`,
  );

/** The stake or option item, from the catalogue: 404 ITEM_NOT_FOUND when there is no such item. */
async function catalogueItem(db: Db, itemId: string): Promise<ItemRow> {
  const item = await db.selectFrom('items').selectAll().where('id', '=', itemId).executeTakeFirst();
  if (!item) throw notFound('ITEM_NOT_FOUND', `There is no item "${itemId}"`);
  return item;
}

async function allItems(db: Db): Promise<ItemRow[]> {
  return db.selectFrom('items').selectAll().orderBy('price_nano').orderBy('id').execute();
}

/** GET /upgrade/options: the stake, the chance and the targets it can aim at (see chooseTargets). */
export async function upgradeOptions(
  db: Db,
  basePpm: number,
  itemId: string,
  coef: UpgradeMultiplier,
): Promise<UpgradeOptionsResponse> {
  const stake = await catalogueItem(db, itemId);
  const { targets } = chooseTargets(await allItems(db), stake, coef);
  const listed = targets.slice(0, UPGRADE_OPTIONS_LIMIT).map((t) => ({
    ...toApiItem(t),
    ...chanceFields(upgradeChance(basePpm, stake.price_nano, t.price_nano)),
  }));
  return {
    stake: toApiItem(stake),
    coef,
    chance: listed[0]?.chance ?? 0,
    targetPrice: formatTon((stake.price_nano * BigInt(coefTenths(coef))) / 10n),
    targets: listed,
  };
}

export interface UpgradeInput {
  coef: UpgradeMultiplier;
  itemId: string;
  targetItemId?: string | undefined;
}

/**
 * One upgrade, inside the caller's transaction (DESIGN.md rule 3; lock order of server/inventory): lock
 * the player, take the stake (404 ITEM_NOT_FOUND / ITEM_NOT_OWNED), settle the target (400 INVALID_TARGET
 * for a pick that is not a valid target, 409 NO_UPGRADE_TARGET when nothing is dearer than the stake), take
 * one nonce and roll, add the target on success, and record the upgrade. Any refusal throws, so the
 * transaction rolls back and nothing changes.
 */
export async function playUpgrade(
  trx: Trx,
  userId: bigint,
  basePpm: number,
  input: UpgradeInput,
): Promise<UpgradeRollResponse> {
  const { coef, itemId, targetItemId } = input;
  await lockPlayer(trx, userId);
  const stake = await catalogueItem(trx, itemId);
  await takeFromInventory(trx, userId, itemId, 1);

  const { defaultTarget, targets } = chooseTargets(await allItems(trx), stake, coef);
  if (!defaultTarget) {
    throw conflict(
      'NO_UPGRADE_TARGET',
      `Nothing in the catalogue is dearer than "${itemId}" to upgrade it into`,
    );
  }
  let target = defaultTarget;
  if (targetItemId !== undefined) {
    const picked = targets.find((t) => t.id === targetItemId);
    if (!picked) {
      throw badRequest(
        'INVALID_TARGET',
        `"${targetItemId}" is not a gift "${itemId}" can be upgraded into at x${coef}: pick one from /upgrade/options`,
      );
    }
    target = picked;
  }

  const chance = upgradeChance(basePpm, stake.price_nano, target.price_nano);
  const lease = await takeNonces(trx, userId, 1);
  const nonce = lease.nonces[0]!;
  const rolled = lease.rollFraction(nonce);
  const success = insideChance(fractionToRoll(rolled), chance);
  const betId = newBetId();
  if (success) await addToInventory(trx, userId, [target]);

  const row = await trx
    .insertInto('upgrades')
    .values({
      user_id: userId,
      stake_item_id: stake.id,
      stake_price_nano: stake.price_nano,
      target_item_id: target.id,
      target_price_nano: target.price_nano,
      coef_tenths: coefTenths(coef),
      chance_numerator: chance.numerator,
      chance_denominator: chance.denominator,
      rolled,
      success,
      seed_id: lease.seedId,
      server_seed_hash: lease.serverSeedHash,
      client_seed: lease.clientSeed,
      nonce,
      public_id: betId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  const exact = chanceFields(chance);
  return {
    upgradeId: row.id.toString(),
    betId,
    success,
    rolled,
    chance: exact.chance,
    coef,
    proof: {
      serverSeedHash: lease.serverSeedHash,
      clientSeed: lease.clientSeed,
      nonce,
      chanceNumerator: exact.chanceNumerator,
      chanceDenominator: exact.chanceDenominator,
    },
    stake: toApiItem(stake),
    target: toApiItem(target),
    result: success ? toApiItem(target) : null,
  };
}

/** A player's upgrades, newest first, each with its proof and the server seed once it has been revealed. */
export async function upgradeHistory(
  db: Db,
  userId: bigint,
  page: number,
  limit: number,
): Promise<{ total: number; upgrades: UpgradeHistoryEntry[] }> {
  const countRow = await db
    .selectFrom('upgrades')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const rows = await db
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
    .where('u.user_id', '=', userId)
    .orderBy('u.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return {
    total: Number(countRow.n),
    upgrades: rows.map((r) => {
      const exact = chanceFields({ numerator: r.chance_numerator, denominator: r.chance_denominator });
      return {
        id: r.id.toString(),
        betId: r.public_id,
        createdAt: r.created_at.toISOString(),
        success: r.success,
        rolled: r.rolled,
        chance: exact.chance,
        coef: r.coef_tenths / 10,
        proof: {
          serverSeedHash: r.server_seed_hash,
          clientSeed: r.client_seed,
          nonce: r.nonce,
          chanceNumerator: exact.chanceNumerator,
          chanceDenominator: exact.chanceDenominator,
        },
        stake: {
          id: r.stake_item_id,
          name: r.stake_name,
          ...(r.stake_name_ru ? { ru: russianName(r.stake_item_id, r.stake_name_ru) } : {}),
          price: formatTon(r.stake_price_nano),
          imageUrl: r.stake_image_url,
          imageBase64: null,
          rarity: r.stake_rarity,
        },
        target: {
          id: r.target_item_id,
          name: r.target_name,
          ...(r.target_name_ru ? { ru: russianName(r.target_item_id, r.target_name_ru) } : {}),
          price: formatTon(r.target_price_nano),
          imageUrl: r.target_image_url,
          imageBase64: null,
          rarity: r.target_rarity,
        },
        serverSeed: r.revealed_at ? r.server_seed : null,
      };
    }),
  };
}
