import { Type, type Static } from 'typebox';
import { Rarity } from './cases.ts';
import { SafeText, Ton } from './common.ts';

/** The item as the inventory shows it (spec §3: id, name, imageUrl, price). */
export const InventoryItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  /** a same-origin path such as /assets/items/flower_pink.svg */
  imageUrl: Type.String(),
  price: Ton,
});
export type InventoryItem = Static<typeof InventoryItem>;

/** The item as an inventory entry carries it: with its rarity (the inventory's rarity order and colours). */
const HeldItem = Type.Object({ ...InventoryItem.properties, rarity: Rarity });

/** One kind of item a player holds. A player holds each item in one entry, so the entry id is the item id. */
export const InventoryEntry = Type.Object({
  id: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  /** when the player last received this item (ISO 8601): the inventory's "newest" order */
  acquiredAt: Type.String(),
  item: HeldItem,
  /** whether it can be withdrawn as a Telegram gift; when not, the inventory offers to sell it */
  withdrawable: Type.Boolean(),
});
export type InventoryEntry = Static<typeof InventoryEntry>;

/** GET /inventory: what the player holds (quantity > 0), dearest first. */
export const InventoryResponse = Type.Object({ inventory: Type.Array(InventoryEntry) });
export type InventoryResponse = Static<typeof InventoryResponse>;

/** The largest quantity one request may name (the inventory counts in INTEGER). */
export const MAX_ITEM_QUANTITY = 2_147_483_647;

const ItemId = SafeText({ minLength: 1, maxLength: 64 });
/** A positive whole number of items; 0, negatives, fractions and strings are refused (400). */
const Quantity = Type.Integer({ minimum: 1, maximum: MAX_ITEM_QUANTITY });

/** {itemId, quantity}: some of one item, for selling or withdrawing. */
export const ItemQuantity = Type.Object(
  { itemId: ItemId, quantity: Quantity },
  { additionalProperties: false },
);
export type ItemQuantity = Static<typeof ItemQuantity>;

/** {sellAll: true}: everything the player holds. */
export const SellAll = Type.Object({ sellAll: Type.Literal(true) }, { additionalProperties: false });
export type SellAll = Static<typeof SellAll>;

/** The most lines one selection sale may name. */
export const MAX_SELL_LINES = 100;

/** {items: [{itemId, quantity}, …]}: several items at once (a selection, the win screen's "Sell all"); each item once. */
export const SellItems = Type.Object(
  { items: Type.Array(ItemQuantity, { minItems: 1, maxItems: MAX_SELL_LINES }) },
  { additionalProperties: false },
);
export type SellItems = Static<typeof SellItems>;

/** POST /inventory/sell: {itemId, quantity}, {items: […]} or {sellAll: true} — exactly one of the three shapes. */
export const SellRequest = Type.Union([ItemQuantity, SellItems, SellAll]);
export type SellRequest = Static<typeof SellRequest>;

export const SoldLine = Type.Object({
  itemId: Type.String(),
  quantity: Type.Integer({ minimum: 1 }),
  /** price × quantity, credited */
  amount: Ton,
});
export type SoldLine = Static<typeof SoldLine>;

export const SellResponse = Type.Object({
  sold: Type.Array(SoldLine),
  /** the sum credited by this request */
  total: Ton,
  /** the balance right after the credit */
  balance: Ton,
});
export type SellResponse = Static<typeof SellResponse>;

/** POST /inventory/withdraw */
export const WithdrawRequest = ItemQuantity;
export type WithdrawRequest = Static<typeof WithdrawRequest>;

/** pending → sending (the bot is delivering it) → completed (delivered) or failed (items returned) */
export const WithdrawalStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('sending'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);
export type WithdrawalStatus = Static<typeof WithdrawalStatus>;

/**
 * A request to take items out of the game. Pending until an operator completes it (the items left) or
 * fails it (the items went back to the inventory).
 */
export const Withdrawal = Type.Object({
  id: Type.String(),
  item: InventoryItem,
  quantity: Type.Integer({ minimum: 1 }),
  status: WithdrawalStatus,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  /** when it was completed or failed; null while pending */
  resolvedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** the operator's note, if any */
  note: Type.Union([Type.String(), Type.Null()]),
  /** when the bot began delivering it; null before */
  sendingAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** why a failed one failed (a WithdrawalFailure), null otherwise or when an operator failed it */
  failureReason: Type.Union([Type.String(), Type.Null()]),
});
export type Withdrawal = Static<typeof Withdrawal>;

export const WithdrawResponse = Type.Object({ withdrawal: Withdrawal });
export type WithdrawResponse = Static<typeof WithdrawResponse>;

/** GET /inventory/withdrawals: the player's requests, newest first. */
export const WithdrawalsResponse = Type.Object({ withdrawals: Type.Array(Withdrawal) });
export type WithdrawalsResponse = Static<typeof WithdrawalsResponse>;

// ── operator API: /admin/... with the x-admin-key header ─────────────────────────────────────────────

/** A withdrawal with its player, for the operator. */
export const AdminWithdrawal = Type.Object({ ...Withdrawal.properties, userId: Type.String() });
export type AdminWithdrawal = Static<typeof AdminWithdrawal>;

/** GET /admin/withdrawals?status=pending */
export const AdminWithdrawalsQuery = Type.Object(
  { status: Type.Optional(WithdrawalStatus) },
  { additionalProperties: false },
);
export type AdminWithdrawalsQuery = Static<typeof AdminWithdrawalsQuery>;

export const AdminWithdrawalsResponse = Type.Object({ withdrawals: Type.Array(AdminWithdrawal) });
export type AdminWithdrawalsResponse = Static<typeof AdminWithdrawalsResponse>;

export const AdminWithdrawalParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,17}$' }) });
export type AdminWithdrawalParams = Static<typeof AdminWithdrawalParams>;

/** POST /admin/withdrawals/:id/complete and /fail: an optional note (the body may be left out). */
export const AdminResolveRequest = Type.Object(
  { note: Type.Optional(SafeText({ maxLength: 500 })) },
  { additionalProperties: false },
);
export type AdminResolveRequest = Static<typeof AdminResolveRequest>;

export const AdminResolveResponse = Type.Object({ withdrawal: AdminWithdrawal });
export type AdminResolveResponse = Static<typeof AdminResolveResponse>;

/** Why the bot could not deliver a withdrawal (Withdrawal.failureReason; the app explains each one). */
export type WithdrawalFailure =
  | 'BOT_NOT_STARTED'
  | 'BOT_BLOCKED'
  | 'GIFT_SOLD_OUT'
  | 'NOT_ENOUGH_STARS'
  | 'OUT_OF_STOCK'
  | 'NOT_WITHDRAWABLE'
  | 'REFUSED';

/** The header that makes a money request safe to retry (1 to 128 visible ASCII characters). */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer replayed from an earlier request with the same key. */
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotent-replayed';
