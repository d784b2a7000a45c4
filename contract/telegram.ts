import { Type, type Static } from 'typebox';
import { SafeText } from './common.ts';

// ── the operator's Telegram controls: /admin/telegram/... with the x-admin-key header ─────────────────

/** GET /admin/telegram: the bot's mode, its supplies (alerts) and gifts left to the operator. */
export const AdminTelegramResponse = Type.Object({
  mode: Type.Union([Type.Literal('bot'), Type.Literal('simulated'), Type.Literal('off')]),
  supplies: Type.Object({
    /** the bot's Stars balance (regular gifts are paid from it); null when it could not be read */
    stars: Type.Union([Type.Integer(), Type.Null()]),
    /** below TELEGRAM_STARS_LOW */
    starsLow: Type.Boolean(),
    /** per mapped collection, transferable gifts left in the business account; low below TELEGRAM_STOCK_LOW */
    collections: Type.Array(
      Type.Object({
        collection: Type.String(),
        itemId: Type.String(),
        available: Type.Integer(),
        low: Type.Boolean(),
      }),
    ),
    checkedAt: Type.String({ format: 'date-time' }),
  }),
  /** received gifts that were not credited (unknown sender, not a catalogue collection), newest first */
  unclaimedGifts: Type.Array(
    Type.Object({
      ownedGiftId: Type.String(),
      kind: Type.String(),
      giftName: Type.String(),
      senderId: Type.Union([Type.String(), Type.Null()]),
      status: Type.String(),
      receivedAt: Type.String({ format: 'date-time' }),
    }),
  ),
  /** each item's Telegram gift */
  mapping: Type.Array(
    Type.Object({
      itemId: Type.String(),
      giftId: Type.Union([Type.String(), Type.Null()]),
      collection: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});
export type AdminTelegramResponse = Static<typeof AdminTelegramResponse>;

export const AdminItemParams = Type.Object({ id: SafeText({ minLength: 1, maxLength: 64 }) });
export type AdminItemParams = Static<typeof AdminItemParams>;

/**
 * PUT /admin/items/:id/telegram-gift: {giftId} (a regular gift from getAvailableGifts, sent with sendGift)
 * or {collection} (a unique-gift collection's base name, transferred from the business account).
 * DELETE removes it: the item can no longer be withdrawn.
 */
export const AdminItemGiftRequest = Type.Union([
  Type.Object({ giftId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) }, { additionalProperties: false }),
  Type.Object({ collection: SafeText({ minLength: 1, maxLength: 128 }) }, { additionalProperties: false }),
]);
export type AdminItemGiftRequest = Static<typeof AdminItemGiftRequest>;

export const AdminItemGiftResponse = Type.Object({
  itemId: Type.String(),
  giftId: Type.Union([Type.String(), Type.Null()]),
  collection: Type.Union([Type.String(), Type.Null()]),
});
export type AdminItemGiftResponse = Static<typeof AdminItemGiftResponse>;
