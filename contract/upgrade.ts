import { Type, type Static } from 'typebox';
import { Item } from './cases.ts';
import { PageNumber, SafeText, Ton } from './common.ts';

/**
 * The upgrade game (spec §2, §4, §9): stake one inventory item and a multiplier; with probability
 * baseChance / coef the stake turns into a dearer gift, otherwise it is lost. The server rolls (provably
 * fair, the same seed pair and nonces as case openings) and the chance wheel then animates to its roll.
 */

/** The multipliers a player may pick (spec §9). */
export const UPGRADE_MULTIPLIERS = [1.5, 2, 3, 5, 10, 20] as const;
export type UpgradeMultiplier = (typeof UPGRADE_MULTIPLIERS)[number];

/** The spec's odds (spec §4, §9); the server's configured value is what counts (GET /upgrade/config). */
export const DEFAULT_UPGRADE_BASE_CHANCE = 0.39;

/** GET /upgrade/config: what the client sends back and shows. */
export const UpgradeConfigResponse = Type.Object({
  /** the odds at x1; a roll must send exactly this value */
  baseChance: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
  /** the multipliers accepted, ascending */
  multipliers: Type.Array(Type.Number()),
});
export type UpgradeConfigResponse = Static<typeof UpgradeConfigResponse>;

const ItemId = SafeText({ minLength: 1, maxLength: 64 });

/**
 * POST /upgrade/roll. `coef` must be one of UPGRADE_MULTIPLIERS (400 INVALID_COEF; a string or a missing
 * one is 400 VALIDATION_ERROR) and `baseChance` exactly the configured value (400 BASE_CHANCE_MISMATCH).
 * `targetItemId` picks the gift to aim at (see UpgradeOptionsResponse); without it the server takes the
 * default target. Accepts an Idempotency-Key header.
 */
export const UpgradeRollRequest = Type.Object(
  {
    baseChance: Type.Number(),
    coef: Type.Number({ description: 'one of 1.5, 2, 3, 5, 10, 20' }),
    /** the inventory item staked */
    itemId: ItemId,
    /** the gift aimed at; optional */
    targetItemId: Type.Optional(ItemId),
  },
  { additionalProperties: false },
);
/** The request as a client builds it: coef narrowed to the accepted multipliers. */
export type UpgradeRollRequest = Omit<Static<typeof UpgradeRollRequest>, 'coef'> & {
  coef: UpgradeMultiplier;
};

/**
 * What a player needs to re-check an upgrade roll once the server seed is revealed (POST /fairness/rotate):
 *
 *   roll    = rollInt(serverSeed, clientSeed, nonce, 2^52)     (server/games/fair.ts describes rollInt)
 *   rolled  = roll / 2^52                                      (a fraction of a full turn, in [0, 1))
 *   success = rolled < chance, with chance = baseChance × stake price ÷ target price taken exactly: the
 *             server compares roll × chanceDenominator < chanceNumerator × 2^52 in integers
 *
 * The fraction's parts are decimal integer strings: with nanoTON prices they may pass 2^53.
 */
export const UpgradeProof = Type.Object({
  serverSeedHash: Type.String({ description: 'hex SHA-256 of the server seed, shown before playing' }),
  clientSeed: Type.String(),
  nonce: Type.Integer({ minimum: 0 }),
  /** chance = chanceNumerator / chanceDenominator exactly (reduced), decimal integers */
  chanceNumerator: Type.String({ pattern: '^[0-9]{1,40}$' }),
  chanceDenominator: Type.String({ pattern: '^[1-9][0-9]{0,39}$' }),
});
export type UpgradeProof = Static<typeof UpgradeProof>;

export const UpgradeRollResponse = Type.Object({
  /** id of the recorded upgrade */
  upgradeId: Type.String(),
  /** the public bet id: the proof page /verify/<betId>, readable without signing in */
  betId: Type.String(),
  success: Type.Boolean(),
  /** the server's roll in [0, 1): the wheel fraction that ends under the pointer */
  rolled: Type.Number({ minimum: 0, exclusiveMaximum: 1 }),
  /** baseChance × stake price ÷ target price: the success arc is [0, chance) */
  chance: Type.Number({ minimum: 0, maximum: 1 }),
  coef: Type.Number(),
  proof: UpgradeProof,
  /** the item staked: taken out of the inventory either way */
  stake: Item,
  /** the gift aimed at */
  target: Item,
  /** the gift added to the inventory: the target on success, null on failure */
  result: Type.Union([Item, Type.Null()]),
});
export type UpgradeRollResponse = Static<typeof UpgradeRollResponse>;

/** GET /upgrade/options?itemId=&coef=: the gifts a stake can aim at with a multiplier. */
export const UpgradeOptionsQuery = Type.Object(
  { itemId: ItemId, coef: Type.Number({ description: 'one of 1.5, 2, 3, 5, 10, 20' }) },
  { additionalProperties: false },
);
export type UpgradeOptionsQuery = Omit<Static<typeof UpgradeOptionsQuery>, 'coef'> & {
  coef: UpgradeMultiplier;
};

/** A gift a stake can aim at, with the exact odds of reaching it: baseChance × stake price ÷ its price. */
export const UpgradeTarget = Type.Object({
  ...Item.properties,
  chance: Type.Number({ minimum: 0, exclusiveMaximum: 1 }),
  chanceNumerator: Type.String({ pattern: '^[0-9]{1,40}$' }),
  chanceDenominator: Type.String({ pattern: '^[1-9][0-9]{0,39}$' }),
});
export type UpgradeTarget = Static<typeof UpgradeTarget>;

export const UpgradeOptionsResponse = Type.Object({
  stake: Item,
  coef: Type.Number(),
  /** the default (first) target's chance; 0 when there is no target */
  chance: Type.Number({ minimum: 0, maximum: 1 }),
  /** stake price × coef, TON: what a target is measured against */
  targetPrice: Ton,
  /**
   * The valid targets, closest to targetPrice first (a short list). The first one is the default target
   * (the catalogue item dearer than the stake whose price is closest to targetPrice, the cheaper on a tie),
   * which may cost a little more than targetPrice; every other one costs more than the stake and at most
   * targetPrice. Empty when nothing in the catalogue is dearer than the stake.
   */
  targets: Type.Array(UpgradeTarget),
});
export type UpgradeOptionsResponse = Static<typeof UpgradeOptionsResponse>;

/** GET /upgrade/history?page=&limit=: the player's upgrades, newest first (defaults page 1, limit 20). */
export const UpgradeHistoryQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type UpgradeHistoryQuery = Static<typeof UpgradeHistoryQuery>;

export const UpgradeHistoryEntry = Type.Object({
  id: Type.String(),
  betId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  success: Type.Boolean(),
  rolled: Type.Number({ minimum: 0, exclusiveMaximum: 1 }),
  chance: Type.Number({ minimum: 0, maximum: 1 }),
  coef: Type.Number(),
  proof: UpgradeProof,
  /** the items as priced when the upgrade was played */
  stake: Item,
  target: Item,
  /** the server seed, once rotated away and revealed; null while it is still in use */
  serverSeed: Type.Union([Type.String(), Type.Null()]),
});
export type UpgradeHistoryEntry = Static<typeof UpgradeHistoryEntry>;

export const UpgradeHistoryResponse = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  upgrades: Type.Array(UpgradeHistoryEntry),
});
export type UpgradeHistoryResponse = Static<typeof UpgradeHistoryResponse>;
