import { Type, type Static } from 'typebox';
import { Item } from './cases.ts';
import { PageNumber, Ton } from './common.ts';

// ── public proofs: readable by anyone, without signing in ─────────────────────────────────────────────
//
// Every opening and upgrade has a public bet id (12 URL-safe characters). GET /api/fairness/bets/<id>
// answers everything needed to recompute it; the server seed is included only once the player has
// rotated it away (revealed), never while it is still in use. The roll algorithm is in the README.

export const BET_ID_PATTERN = '^[A-Za-z0-9_-]{8,32}$';
export const BetParams = Type.Object({ id: Type.String({ pattern: BET_ID_PATTERN }) });

export const TableParams = Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) });

/** A weight table as rolled against: entries in roll order. */
export const WeightTable = Type.Object({
  /** hex SHA-256 of `text` */
  hash: Type.String(),
  /** the canonical text the hash is taken over: JSON [[itemId, weight], ...] without spaces */
  text: Type.String(),
  entries: Type.Array(
    Type.Object({
      itemId: Type.String(),
      weight: Type.Integer({ minimum: 1 }),
      /** the item as the catalogue has it now (its name and art), or null if it was removed */
      name: Type.Union([Type.String(), Type.Null()]),
      /** the same name in Russian */
      nameRu: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
});
export type WeightTable = Static<typeof WeightTable>;

const SeedFields = {
  betId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  nonce: Type.Integer({ minimum: 0 }),
  /** the server seed, once revealed (rotated away); null while it is still in use */
  serverSeed: Type.Union([Type.String(), Type.Null()]),
};

export const CaseBetProof = Type.Object({
  kind: Type.Literal('case'),
  ...SeedFields,
  case: Type.Object({
    id: Type.String(),
    name: Type.String(),
    /** the case's name in Russian */
    ru: Type.Optional(Type.Object({ name: Type.String() })),
    price: Ton,
  }),
  /** the item drawn */
  item: Item,
  /** the integer drawn in [0, totalWeight) */
  roll: Type.Integer({ minimum: 0 }),
  totalWeight: Type.Integer({ minimum: 1 }),
  /** the table rolled against; null for openings made before tables were recorded */
  weightTable: Type.Union([WeightTable, Type.Null()]),
});
export type CaseBetProof = Static<typeof CaseBetProof>;

export const UpgradeBetProof = Type.Object({
  kind: Type.Literal('upgrade'),
  ...SeedFields,
  /** the items as priced when the upgrade was played */
  stake: Item,
  target: Item,
  coef: Type.Number(),
  chance: Type.Number({ minimum: 0, maximum: 1 }),
  chanceNumerator: Type.String(),
  chanceDenominator: Type.String(),
  /** roll / 2^52 */
  rolled: Type.Number({ minimum: 0, exclusiveMaximum: 1 }),
  success: Type.Boolean(),
});
export type UpgradeBetProof = Static<typeof UpgradeBetProof>;

/**
 * A daily wheel spin: rolled like a case opening against the prize table (entries `ton:<amount>`,
 * `case:<caseId>`, `none`, segment 0 first); the segment is the entry the roll lands in.
 */
export const WheelBetProof = Type.Object({
  kind: Type.Literal('wheel'),
  ...SeedFields,
  roll: Type.Integer({ minimum: 0 }),
  totalWeight: Type.Integer({ minimum: 1 }),
  weightTable: WeightTable,
  segment: Type.Integer({ minimum: 0 }),
  prize: Type.Object({
    kind: Type.Union([Type.Literal('ton'), Type.Literal('case'), Type.Literal('none')]),
    amount: Type.Union([Ton, Type.Null()]),
    caseId: Type.Union([Type.String(), Type.Null()]),
    /** case prizes: the free opening's own bet id */
    openingBetId: Type.Union([Type.String(), Type.Null()]),
  }),
});
export type WheelBetProof = Static<typeof WheelBetProof>;

/** GET /fairness/bets/:id (a free opening won on the wheel or as a rank reward is a 'case' bet, price 0) */
export const BetProof = Type.Union([CaseBetProof, UpgradeBetProof, WheelBetProof]);
export type BetProof = Static<typeof BetProof>;

/** GET /fairness/history?page=&limit=: all of the player's bets, openings and upgrades, newest first. */
export const BetHistoryQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type BetHistoryQuery = Static<typeof BetHistoryQuery>;

/**
 * One bet of the player's history. `kind` lists the games with provably fair rolls: a new one adds its
 * literal here and a reader in server/games/bets.ts (BET_READERS); the fairness page names each kind.
 */

export const BetHistoryEntry = Type.Object({
  /** the bet's public id: /verify/<betId> for openings and upgrades, /battle/<betId> for battles */
  betId: Type.String(),
  kind: Type.Union([Type.Literal('case'), Type.Literal('upgrade'), Type.Literal('battle'), Type.Literal('wheel')]),
  createdAt: Type.String({ format: 'date-time' }),
  /** the case opened (a battle: its first round's case), the stake of the upgrade, or the wheel's prize (`ton:0.1`, `case:starter`, `none`) */
  title: Type.String(),
  /** the same in Russian */
  titleRu: Type.String(),
  /** the item drawn, the upgrade's target, a battle's dearest drop of the player's seat (null before any), or a wheel spin's item (null when it drew none) */
  item: Type.Union([Item, Type.Null()]),
  /** upgrades: whether it succeeded; battles: whether the player's team won (null until settled); openings: null */
  success: Type.Union([Type.Boolean(), Type.Null()]),
  serverSeedHash: Type.String(),
  /** the player's client seed (a battle: their seat's) */
  clientSeed: Type.String(),
  /** the nonce (a battle: the player's seat number) */
  nonce: Type.Integer({ minimum: 0 }),
  /** openings: the hash of the weight table rolled against (GET /fairness/tables/<hash>); null otherwise */
  weightTableHash: Type.Union([Type.String(), Type.Null()]),
  /** battles: the format and the number of rounds; null for other kinds */
  battle: Type.Union([
    Type.Object({ format: Type.String(), mode: Type.String(), rounds: Type.Integer({ minimum: 1 }) }),
    Type.Null(),
  ]),
  /** true once the server seed is revealed: the bet can be recomputed */
  revealed: Type.Boolean(),
});
export type BetHistoryEntry = Static<typeof BetHistoryEntry>;
export type BetKind = BetHistoryEntry['kind'];

export const BetHistoryResponse = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  bets: Type.Array(BetHistoryEntry),
});
export type BetHistoryResponse = Static<typeof BetHistoryResponse>;
