import { Type, type Static } from 'typebox';
import { PageNumber, SafeText, Ton } from './common.ts';

export const Rarity = Type.Union([
  Type.Literal('common'),
  Type.Literal('uncommon'),
  Type.Literal('rare'),
  Type.Literal('epic'),
  Type.Literal('legendary'),
]);
export type Rarity = Static<typeof Rarity>;

/** An item's texts in Russian, beside the English ones (the app shows them in its Russian interface). */
export const ItemRu = Type.Object({
  name: Type.String(),
  /** the name's grammatical gender, or plural: masculine, feminine, neuter, plural (Russian texts agree with it) */
  gender: Type.Optional(
    Type.Union([Type.Literal('m'), Type.Literal('f'), Type.Literal('n'), Type.Literal('p')]),
  ),
});
export type ItemRu = Static<typeof ItemRu>;

export const Item = Type.Object({
  id: Type.String(),
  /** in English (for API users and the English interface) */
  name: Type.String(),
  /** the same in Russian: in the catalogue answers and wherever the server has the item's catalogue row */
  ru: Type.Optional(ItemRu),
  price: Ton,
  /** a same-origin path such as /assets/items/flower_pink.svg */
  imageUrl: Type.String(),
  /** kept for compatibility with the spec's entity; null: the art is served by URL */
  imageBase64: Type.Union([Type.String(), Type.Null()]),
  rarity: Rarity,
});
export type Item = Static<typeof Item>;

export const CaseItem = Type.Object({
  /** id of the case-item entry */
  id: Type.String(),
  /** weight / sum of the case's weights, a fraction in (0, 1] */
  dropChance: Type.Number(),
  /** the integer drop weight the server rolls over */
  weight: Type.Integer({ minimum: 1 }),
  item: Item,
});
export type CaseItem = Static<typeof CaseItem>;

/** A case's texts in Russian, beside the English ones. */
export const CaseRu = Type.Object({ name: Type.String(), description: Type.String() });

export const Case = Type.Object({
  id: Type.String(),
  /** name and description in English */
  name: Type.String(),
  description: Type.String(),
  /** the same in Russian */
  ru: CaseRu,
  price: Ton,
  imageUrl: Type.String(),
  imageBase64: Type.Union([Type.String(), Type.Null()]),
  isActive: Type.Boolean(),
  isLocked: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  items: Type.Array(CaseItem),
});
export type Case = Static<typeof Case>;

export const CasesResponse = Type.Object({ cases: Type.Array(Case) });
export type CasesResponse = Static<typeof CasesResponse>;

export const CaseResponse = Type.Object({ case: Case });
export type CaseResponse = Static<typeof CaseResponse>;

export const CaseParams = Type.Object({ id: SafeText({ minLength: 1, maxLength: 64 }) });

/** What a player needs to re-check a roll once the server seed is revealed. */
export const Proof = Type.Object({
  serverSeedHash: Type.String({ description: 'hex SHA-256 of the server seed, shown before playing' }),
  clientSeed: Type.String(),
  nonce: Type.Integer({ minimum: 0 }),
  /** the integer drawn in [0, totalWeight) */
  roll: Type.Integer({ minimum: 0 }),
  totalWeight: Type.Integer({ minimum: 1 }),
  /**
   * hex SHA-256 of the weight table rolled against (GET /api/fairness/tables/<hash> gives it); null for
   * openings made before tables were recorded
   */
  weightTableHash: Type.Union([Type.String(), Type.Null()]),
});
export type Proof = Static<typeof Proof>;

export const OpenCaseRequest = Type.Object(
  { caseId: SafeText({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type OpenCaseRequest = Static<typeof OpenCaseRequest>;

export const OpenResult = Type.Object({
  openingId: Type.String(),
  /** the public bet id: the proof page /verify/<betId>, readable without signing in */
  betId: Type.String(),
  item: Item,
  proof: Proof,
});
export type OpenResult = Static<typeof OpenResult>;

/** POST /cases/open */
export const OpenCaseResponse = Type.Object({
  openingId: Type.String(),
  betId: Type.String(),
  item: Item,
  proof: Proof,
  balance: Ton,
});
export type OpenCaseResponse = Static<typeof OpenCaseResponse>;

export const OpenMultipleRequest = Type.Object(
  {
    caseId: SafeText({ minLength: 1, maxLength: 64 }),
    amount: Type.Integer({ minimum: 1, maximum: 3 }),
  },
  { additionalProperties: false },
);
export type OpenMultipleRequest = Static<typeof OpenMultipleRequest>;

/** POST /cases/open-multiple */
export const OpenMultipleResponse = Type.Object({
  success: Type.Literal(true),
  results: Type.Array(OpenResult),
  balance: Ton,
});
export type OpenMultipleResponse = Static<typeof OpenMultipleResponse>;

export const HistoryQuery = Type.Object(
  {
    page: Type.Optional(PageNumber),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const HistoryEntry = Type.Object({
  id: Type.String(),
  betId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  case: Type.Object({ id: Type.String(), name: Type.String(), price: Ton }),
  item: Item,
  proof: Proof,
  /** the server seed, once rotated away and revealed; null while it is still in use */
  serverSeed: Type.Union([Type.String(), Type.Null()]),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const HistoryResponse = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
  openings: Type.Array(HistoryEntry),
});
export type HistoryResponse = Static<typeof HistoryResponse>;

/** GET /fairness */
export const FairnessState = Type.Object({
  serverSeedHash: Type.String(),
  clientSeed: Type.String(),
  nonce: Type.Integer({ minimum: 0 }),
});
export type FairnessState = Static<typeof FairnessState>;

/** PUT /fairness/client-seed */
export const SetClientSeedRequest = Type.Object(
  { clientSeed: Type.String({ minLength: 1, maxLength: 64, pattern: '^[\\x21-\\x7E]+$' }) },
  { additionalProperties: false },
);
export type SetClientSeedRequest = Static<typeof SetClientSeedRequest>;

/** POST /fairness/rotate: reveals the seed used so far and commits to a new one. */
export const RotateResponse = Type.Object({
  revealed: Type.Object({ serverSeed: Type.String(), serverSeedHash: Type.String() }),
  current: FairnessState,
});
export type RotateResponse = Static<typeof RotateResponse>;

/**
 * PUT /fairness/client-seed: the new pair; when the old pair had been used (nonce > 0) it is retired and
 * its server seed revealed, as rotating does (`revealed`), so its bets can be verified at once.
 */
export const SetClientSeedResponse = Type.Object({
  ...FairnessState.properties,
  revealed: Type.Optional(Type.Object({ serverSeed: Type.String(), serverSeedHash: Type.String() })),
});
export type SetClientSeedResponse = Static<typeof SetClientSeedResponse>;
