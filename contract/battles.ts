import { Type, type Static } from 'typebox';
import { Item } from './cases.ts';
import { SafeText, Ton } from './common.ts';

// ── case battles ─────────────────────────────────────────────────────────────────────────────────────
//
// A battle is 2, 3 or 4 seats (or 2v2) playing the same list of cases, one case a round. Seats are numbered
// from 0; in 2v2 seats 0 and 1 are team 0, seats 2 and 3 team 1; otherwise each seat is its own team.
// Rolls: roll(round, seat) = rollInt(serverSeed, `${publicSeed}:${round}`, seat, total weight of the round's
// case), i.e. HMAC-SHA256(serverSeed, `${publicSeed}:${round}:${seat}`) with the algorithm of the openings;
// rounds are numbered from 1. The public seed is hex SHA-256 of the seats' client seeds joined by ':' in
// join order; it is fixed when the last seat is taken.

export const BATTLE_FORMATS = ['1v1', '1v1v1', '1v1v1v1', '2v2'] as const;
export type BattleFormat = (typeof BATTLE_FORMATS)[number];
export const BattleFormat = Type.Union([
  Type.Literal('1v1'),
  Type.Literal('1v1v1'),
  Type.Literal('1v1v1v1'),
  Type.Literal('2v2'),
]);

/** normal: the highest total wins everything; crazy: the lowest total wins everything */
export const BATTLE_MODES = ['normal', 'crazy'] as const;
export type BattleMode = (typeof BATTLE_MODES)[number];
export const BattleMode = Type.Union([Type.Literal('normal'), Type.Literal('crazy')]);

/** Seats of each format. */
export const BATTLE_SEATS: Record<BattleFormat, number> = { '1v1': 2, '1v1v1': 3, '1v1v1v1': 4, '2v2': 4 };

/** Cases (rounds) in one battle. */
export const BATTLE_MIN_ROUNDS = 1;
export const BATTLE_MAX_ROUNDS = 10;

/** A seat's client seed: 1 to 64 letters, digits, '_' or '-'. */
export const BattleClientSeed = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });

/** open: waiting for players; running: rolled, rounds playing; finished: paid; cancelled: refunded */
export const BattleStatus = Type.Union([
  Type.Literal('open'),
  Type.Literal('running'),
  Type.Literal('finished'),
  Type.Literal('cancelled'),
]);
export type BattleStatus = Static<typeof BattleStatus>;

export const BattleCaseRef = Type.Object({
  id: Type.String(),
  name: Type.String(),
  imageUrl: Type.String(),
  price: Ton,
  /** what the case can drop, in roll order (the reel shows them) */
  items: Type.Array(Item),
});
export type BattleCaseRef = Static<typeof BattleCaseRef>;

export const BattlePlayer = Type.Object({
  /** Telegram first name, or 'Bot' for a house bot */
  name: Type.String(),
  avatar: Type.Union([Type.String(), Type.Null()]),
});

export const BattleSeat = Type.Object({
  seat: Type.Integer({ minimum: 0, maximum: 3 }),
  team: Type.Integer({ minimum: 0, maximum: 3 }),
  /** null while the seat is empty */
  player: Type.Union([BattlePlayer, Type.Null()]),
  isBot: Type.Boolean(),
  /** true for the signed-in player's own seat */
  isYou: Type.Boolean(),
  /** the seat's client seed, in the public seed once the last seat is taken */
  clientSeed: Type.Union([Type.String(), Type.Null()]),
  /** sum of the item prices of the revealed rounds */
  total: Ton,
});
export type BattleSeat = Static<typeof BattleSeat>;

/** One seat's draw in one round. */
export const BattleRoll = Type.Object({
  round: Type.Integer({ minimum: 1 }),
  seat: Type.Integer({ minimum: 0 }),
  item: Item,
  /** the integer drawn in [0, totalWeight) */
  roll: Type.Integer({ minimum: 0 }),
  totalWeight: Type.Integer({ minimum: 1 }),
  /** the seat that receives this item when the battle is paid (null: the house) */
  awardedSeat: Type.Union([Type.Integer(), Type.Null()]),
});
export type BattleRoll = Static<typeof BattleRoll>;

export const Battle = Type.Object({
  /** the battle's public id (16 hex characters): no sign-in needed to watch it or check its proof */
  id: Type.String(),
  format: BattleFormat,
  mode: BattleMode,
  status: BattleStatus,
  /** what each seat pays: the sum of the cases' prices */
  cost: Ton,
  /** one case per round */
  cases: Type.Array(BattleCaseRef),
  seats: Type.Array(BattleSeat),
  creatorSeat: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
  /** an open battle nobody fills is cancelled and refunded at this time */
  expiresAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** each round is revealed this long after the previous one */
  roundMs: Type.Integer({ minimum: 0 }),
  /** the server's clock when this answer was made */
  now: Type.String({ format: 'date-time' }),
  /** rounds revealed so far (all of them once finished) */
  revealedRounds: Type.Integer({ minimum: 0 }),
  /** the revealed rounds' rolls */
  rolls: Type.Array(BattleRoll),
  /** the winning team, once finished */
  winnerTeam: Type.Union([Type.Integer(), Type.Null()]),
  /** the fair tie-break roll in [0, number of tied teams), when teams tied */
  tieRoll: Type.Union([Type.Integer(), Type.Null()]),
  serverSeedHash: Type.String(),
  /** fixed when the last seat is taken */
  publicSeed: Type.Union([Type.String(), Type.Null()]),
  /** revealed once the battle is finished */
  serverSeed: Type.Union([Type.String(), Type.Null()]),
});
export type Battle = Static<typeof Battle>;

export const BattleResponse = Type.Object({ battle: Battle });
export type BattleResponse = Static<typeof BattleResponse>;

export const BattlesResponse = Type.Object({ battles: Type.Array(Battle) });
export type BattlesResponse = Static<typeof BattlesResponse>;

export const BattleParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-f]{16}$' }) });
export type BattleParams = Static<typeof BattleParams>;

/** POST /battles (Idempotency-Key accepted): takes the creator's seat 0 and debits its cost. */
export const CreateBattleRequest = Type.Object(
  {
    format: BattleFormat,
    mode: BattleMode,
    caseIds: Type.Array(SafeText({ minLength: 1, maxLength: 64 }), {
      minItems: BATTLE_MIN_ROUNDS,
      maxItems: BATTLE_MAX_ROUNDS,
    }),
    clientSeed: Type.Optional(BattleClientSeed),
  },
  { additionalProperties: false },
);
export type CreateBattleRequest = Static<typeof CreateBattleRequest>;

/** POST /battles/:id/join (Idempotency-Key accepted): takes the given seat, or the first free one. */
export const JoinBattleRequest = Type.Object(
  {
    seat: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
    clientSeed: Type.Optional(BattleClientSeed),
  },
  { additionalProperties: false },
);
export type JoinBattleRequest = Static<typeof JoinBattleRequest>;

/** Answer of create and join: the battle and the player's balance after the debit. */
export const BattleSeatResponse = Type.Object({ battle: Battle, balance: Ton });
export type BattleSeatResponse = Static<typeof BattleSeatResponse>;

/** Answer of cancel: the battle (cancelled) and the creator's balance after the refund. */
export const CancelBattleResponse = Type.Object({ battle: Battle, balance: Ton });
export type CancelBattleResponse = Static<typeof CancelBattleResponse>;

// ── live: GET /ws/battles (WebSocket, public) ────────────────────────────────────────────────────────
// The server sends {type: 'battle', event, id, status} whenever any battle changes; the client reads the
// battle again (GET /battles/:id) or the lobby (GET /battles). {type: 'ping'} gets {type: 'pong'}.

export const BATTLE_EVENTS = ['created', 'seat', 'started', 'round', 'finished', 'cancelled'] as const;
export type BattleEventName = (typeof BATTLE_EVENTS)[number];

export interface BattleEventMessage {
  type: 'battle';
  event: BattleEventName;
  id: string;
  status: BattleStatus;
  /** for 'round': the round just revealed */
  round?: number;
}
export type BattleSocketServerMessage = BattleEventMessage | { type: 'pong' };
