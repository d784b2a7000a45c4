import { Type, type Static } from 'typebox';
import { Item } from './cases.ts';
import { SafeText, Ton, TonInput } from './common.ts';

// ── the daily bonus wheel ─────────────────────────────────────────────────────────────────────────────
//
// One free spin per player per rolling 24 h (WHEEL_COOLDOWN_SECONDS), plus spins won as rank rewards.
// The server rolls the segment with the player's seed pair (like an opening) and credits the prize in the
// same transaction; the wheel then lands on that segment.

export const PrizeCase = Type.Object({ id: Type.String(), name: Type.String(), imageUrl: Type.String() });

export const WheelPrizeKind = Type.Union([Type.Literal('ton'), Type.Literal('case'), Type.Literal('none')]);
export type WheelPrizeKind = Static<typeof WheelPrizeKind>;

/** One segment of the wheel, segment 0 first. */
export const WheelSegment = Type.Object({
  segment: Type.Integer({ minimum: 0 }),
  kind: WheelPrizeKind,
  /** TON prizes: the amount; null otherwise */
  amount: Type.Union([Ton, Type.Null()]),
  /** case prizes: the case opened for free; null otherwise */
  case: Type.Union([PrizeCase, Type.Null()]),
  /** the segment's chance, weight ÷ total weight */
  chance: Type.Number({ minimum: 0, maximum: 1 }),
});
export type WheelSegment = Static<typeof WheelSegment>;

const WheelAvailability = {
  /** a spin can be made now (the daily one, or a rank reward's) */
  available: Type.Boolean(),
  /** when the next daily spin comes (ISO time); null while it is available */
  nextSpinAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** spins won as rank rewards, not spent yet */
  extraSpins: Type.Integer({ minimum: 0 }),
  /** the server's clock, for the countdown */
  now: Type.String({ format: 'date-time' }),
};

/** GET /wheel */
export const WheelStateResponse = Type.Object({
  segments: Type.Array(WheelSegment),
  ...WheelAvailability,
});
export type WheelStateResponse = Static<typeof WheelStateResponse>;

/** POST /wheel/spin (no body; accepts an Idempotency-Key) */
export const WheelSpinResponse = Type.Object({
  betId: Type.String(),
  /** 'daily' for the daily spin, 'rank' for a spin won as a rank reward */
  source: Type.Union([Type.Literal('daily'), Type.Literal('rank')]),
  segment: Type.Integer({ minimum: 0 }),
  prize: Type.Object({
    kind: WheelPrizeKind,
    amount: Type.Union([Ton, Type.Null()]),
    case: Type.Union([PrizeCase, Type.Null()]),
    /** case prizes: the item the free opening drew (now in the inventory) and its own bet id */
    item: Type.Union([Item, Type.Null()]),
    openingBetId: Type.Union([Type.String(), Type.Null()]),
  }),
  balance: Ton,
  proof: Type.Object({
    serverSeedHash: Type.String(),
    clientSeed: Type.String(),
    nonce: Type.Integer({ minimum: 0 }),
    roll: Type.Integer({ minimum: 0 }),
    totalWeight: Type.Integer({ minimum: 1 }),
    tableHash: Type.String(),
  }),
  ...WheelAvailability,
});
export type WheelSpinResponse = Static<typeof WheelSpinResponse>;

// ── promo codes ───────────────────────────────────────────────────────────────────────────────────────

export const PROMO_CODE_PATTERN = '^[A-Za-z0-9_-]{3,32}$';

export const PromoKind = Type.Union([Type.Literal('deposit_percent'), Type.Literal('credit')]);
export type PromoKind = Static<typeof PromoKind>;

/** POST /promo/apply */
export const PromoApplyRequest = Type.Object(
  { code: SafeText({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type PromoApplyRequest = Static<typeof PromoApplyRequest>;

/** A code waiting for the player's next deposit. */
export const PendingPromo = Type.Object({
  code: Type.String(),
  /** the bonus, percent of the deposit */
  percent: Type.Number({ minimum: 0 }),
  /** the largest bonus it pays; null: no cap */
  maxBonus: Type.Union([Ton, Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PendingPromo = Static<typeof PendingPromo>;

export const PromoApplyResponse = Type.Object({
  code: Type.String(),
  kind: PromoKind,
  /** deposit_percent: the code now waits for the next deposit */
  pending: Type.Union([PendingPromo, Type.Null()]),
  /** credit: the amount credited now; null for a deposit bonus */
  credited: Type.Union([Ton, Type.Null()]),
  balance: Ton,
});
export type PromoApplyResponse = Static<typeof PromoApplyResponse>;

/** GET /promo */
export const PromoStateResponse = Type.Object({ pending: Type.Union([PendingPromo, Type.Null()]) });
export type PromoStateResponse = Static<typeof PromoStateResponse>;

/** The operator's view of a code (GET/PUT /admin/promo-codes). */
export const PromoCodeView = Type.Object({
  code: Type.String(),
  kind: PromoKind,
  percent: Type.Number(),
  amount: Ton,
  maxBonus: Type.Union([Ton, Type.Null()]),
  maxUses: Type.Union([Type.Integer(), Type.Null()]),
  uses: Type.Integer(),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  active: Type.Boolean(),
});
export type PromoCodeView = Static<typeof PromoCodeView>;

/** PUT /admin/promo-codes/:code: creates or changes a code. */
export const PromoCodeInput = Type.Object(
  {
    kind: PromoKind,
    /** deposit_percent: the bonus in percent of the deposit, up to 2 decimals (7 for +7%) */
    percent: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.01 })),
    /** credit: the TON credited */
    amount: Type.Optional(TonInput),
    /** deposit_percent: the largest bonus, TON */
    maxBonus: Type.Optional(Type.Union([TonInput, Type.Null()])),
    /** how many players may use it in all; null: no limit */
    maxUses: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()])),
    expiresAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PromoCodeInput = Static<typeof PromoCodeInput>;

export const PromoCodeParams = Type.Object({ code: Type.String({ pattern: PROMO_CODE_PATTERN }) });

export const PromoCodesResponse = Type.Object({ codes: Type.Array(PromoCodeView) });
export const PromoCodeResponse = Type.Object({ code: PromoCodeView });

// ── invites ───────────────────────────────────────────────────────────────────────────────────────────

/** GET /invites */
export const InviteStateResponse = Type.Object({
  /** the player's invite link: the Mini App opened with startapp=ref_<id> */
  link: Type.String(),
  /** players who joined through the link */
  invitees: Type.Integer({ minimum: 0 }),
  /** everything the invites have paid, TON */
  earned: Ton,
  /** the share of the invitees' house edge paid, a fraction */
  share: Type.Number({ minimum: 0, maximum: 1 }),
});
export type InviteStateResponse = Static<typeof InviteStateResponse>;

export const INVITE_START_PREFIX = 'ref_';
