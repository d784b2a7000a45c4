import { Type, type Static } from 'typebox';
import { SafeText, Ton, TonInput } from './common.ts';
import { InventoryItem } from './inventory.ts';

/** Smallest deposit the server accepts for invoices and demo deposits, TON as decimal text. */
export const DEPOSIT_MIN_TON = '0.01';
/** Largest single invoice or demo deposit, TON as decimal text. */
export const DEPOSIT_MAX_TON = '10000';

export const DepositMethod = Type.Union([Type.Literal('ton'), Type.Literal('cryptobot')]);
export type DepositMethod = Static<typeof DepositMethod>;

/**
 * A deposit amount in TON as the player typed it, decimal text. The server parses it exactly (parseTon):
 * text that is not a decimal, is finer than one nanoTON, or lies outside [DEPOSIT_MIN_TON, DEPOSIT_MAX_TON]
 * is 400 INVALID_AMOUNT.
 */
const DepositAmount = TonInput;

/** GET /deposit/info — how this player can deposit. */
export const DepositInfo = Type.Object({
  /**
   * TON transfer: send to `address` with the text comment `comment` (the player's own, stable).
   * null when TON deposits are off. `demo`: the address is not a real wallet — use POST /deposit/demo.
   */
  ton: Type.Union([
    Type.Object({ address: Type.String(), comment: Type.String(), demo: Type.Boolean() }),
    Type.Null(),
  ]),
  /** true when POST /deposit/cryptobot-invoice works (real or demo) */
  cryptobot: Type.Boolean(),
  /** true when CryptoBot invoices are demo invoices (nothing is paid; the credit comes by itself) */
  cryptobotDemo: Type.Boolean(),
  /** true when any offered method is a demo: the sheet labels deposits as demo */
  demo: Type.Boolean(),
  /** Telegram gifts (the Gifts step, GET /deposit/gifts): null when off; demo with the simulated Telegram */
  gifts: Type.Union([Type.Object({ demo: Type.Boolean() }), Type.Null()]),
  minAmount: Ton,
  maxAmount: Ton,
});
export type DepositInfo = Static<typeof DepositInfo>;

/** POST /deposit/cryptobot-invoice */
export const CryptobotInvoiceRequest = Type.Object(
  { amount: DepositAmount },
  { additionalProperties: false },
);
export type CryptobotInvoiceRequest = Static<typeof CryptobotInvoiceRequest>;

export const CryptobotInvoiceResponse = Type.Object({
  /** open it (inside Telegram through the link API): the CryptoBot invoice, or the local demo page */
  invoiceUrl: Type.String(),
  /** CryptoBot's Mini App and web links for the same invoice, when CryptoBot gives them */
  miniAppInvoiceUrl: Type.Union([Type.String(), Type.Null()]),
  webAppInvoiceUrl: Type.Union([Type.String(), Type.Null()]),
  /** our invoice id */
  invoiceId: Type.String(),
  /** the amount that will be credited once paid */
  amount: Ton,
  /** true for a demo invoice: nothing to pay, the credit lands after a short delay */
  demo: Type.Boolean(),
});
export type CryptobotInvoiceResponse = Static<typeof CryptobotInvoiceResponse>;

/** POST /deposit/demo — demo mode only, for a method whose real provider is not configured. */
export const DemoDepositRequest = Type.Object(
  { amount: DepositAmount, method: DepositMethod },
  { additionalProperties: false },
);
export type DemoDepositRequest = Static<typeof DemoDepositRequest>;

export const DemoDepositResponse = Type.Object({
  /** the id the deposit_credited message will carry */
  id: Type.String(),
  amount: Ton,
  method: DepositMethod,
  /** how long until the credit lands, in ms */
  creditInMs: Type.Integer({ minimum: 0 }),
  demo: Type.Literal(true),
});
export type DemoDepositResponse = Static<typeof DemoDepositResponse>;

// ── Telegram gift deposits (the Gifts step) ────────────────────────────────────────────────────────

/** How a credit came in: a deposit method, or a Telegram gift sent to the operator's account. */
export const CreditedMethod = Type.Union([DepositMethod, Type.Literal('gifts')]);
export type CreditedMethod = Static<typeof CreditedMethod>;

/** GET /deposit/gifts: where to send a gift, and which collections become which items. */
export const GiftDepositInfo = Type.Object({
  /** false when gift deposits are off (no business connection configured) */
  enabled: Type.Boolean(),
  /** the operator's Telegram account to send a gift to (@username), null when off */
  account: Type.Union([Type.String(), Type.Null()]),
  /** demo mode: no real Telegram; POST /deposit/gifts/simulate makes a gift arrive */
  demo: Type.Boolean(),
  /** the catalogue items a gift of a collection becomes */
  items: Type.Array(Type.Object({ collection: Type.String(), item: InventoryItem })),
});
export type GiftDepositInfo = Static<typeof GiftDepositInfo>;

/** POST /deposit/gifts/simulate (demo mode only): a gift of the item's collection arrives from the player. */
export const SimulateGiftRequest = Type.Object(
  { itemId: SafeText({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export type SimulateGiftRequest = Static<typeof SimulateGiftRequest>;

export const SimulateGiftResponse = Type.Object({ creditInMs: Type.Integer({ minimum: 0 }) });
export type SimulateGiftResponse = Static<typeof SimulateGiftResponse>;

// ── the deposit socket: GET /ws/deposits (WebSocket) ───────────────────────────────────────────────

/** The client's first message, within DEPOSIT_SOCKET_AUTH_TIMEOUT_MS of opening. */
export const DepositSocketAuth = Type.Object({ type: Type.Literal('auth'), token: Type.String() });
export type DepositSocketAuth = Static<typeof DepositSocketAuth>;

/** The server's answer to a valid auth message; deposit events follow. */
export const DepositSocketReady = Type.Object({ type: Type.Literal('auth_ok') });
export type DepositSocketReady = Static<typeof DepositSocketReady>;

/** Pushed to the credited player's sockets only, once per credit. */
export const DepositCreditedMessage = Type.Object({
  type: Type.Literal('deposit_credited'),
  /** the amount credited, in TON */
  amount: Ton,
  /** the player's balance right after this credit, in TON */
  balance: Ton,
  method: CreditedMethod,
  /** the credit's external id: ton:<tx hash hex>, cryptopay:<invoice id>, demo:<uuid> or gift:<owned gift id> */
  id: Type.String(),
  /** true for a demo credit */
  demo: Type.Boolean(),
  /** a gift deposit: the item it became in the inventory (amount is its price; the balance is unchanged) */
  item: Type.Optional(InventoryItem),
  /** a promo code's bonus credited with this deposit (its own promo_bonus ledger row), in TON */
  bonus: Type.Optional(Ton),
  promoCode: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export type DepositCreditedMessage = Static<typeof DepositCreditedMessage>;

export type DepositSocketServerMessage = DepositSocketReady | DepositCreditedMessage | { type: 'pong' };

export const DEPOSIT_SOCKET_AUTH_TIMEOUT_MS = 10_000;

/** Close codes of the deposit socket (4000–4999 are for applications). */
export const SocketCloseCode = {
  /** the first message was not {type:'auth', token} */
  BAD_MESSAGE: 4400,
  /** the token is missing, invalid, expired, or names no user */
  UNAUTHORIZED: 4401,
  /** no auth message within the time allowed */
  AUTH_TIMEOUT: 4408,
} as const;
