import type { FastifyBaseLogger } from 'fastify';
import type { OwnedGift } from 'grammy/types';
import type { AppContext } from '../context.ts';
import { lockPlayer } from '../db/locks.ts';
import { giveToInventory } from '../inventory/inventory.ts';
import { publishDeposit } from '../realtime/deposits.ts';
import type { TelegramCalls } from './api.ts';
import { ownedGifts } from './delivery.ts';
import { enqueueNotification } from './outbox.ts';

/**
 * Gift deposits: a player sends a unique gift to the operator's Telegram Business account connected to the
 * bot; the account's owned gifts (getBusinessAccountGifts) name each one's owned_gift_id, kind and sender.
 * A unique gift of a catalogue collection from a known player is credited to them as that item, exactly
 * once per owned gift id (the gift_deposits primary key, in the transaction of the credit), however often
 * the account is read and across restarts. Anything else (an unknown sender, a regular gift, a collection
 * not in the catalogue) is recorded once and left to the operator; the bot never moves it.
 *
 * Gifts the account received before deposits were first read are the operator's stock, not deposits: the
 * moment of the first read is kept (payment_cursors 'gift_deposits_since') and older gifts are passed over.
 */

const SINCE_CURSOR = 'gift_deposits_since';

export class GiftDeposits {
  constructor(
    private readonly ctx: AppContext,
    private readonly calls: TelegramCalls,
    private readonly connectionId: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Reads the account's gifts and credits the new ones; returns how many it credited. */
  async scan(signal?: AbortSignal): Promise<number> {
    const since = await this.since();
    const gifts = await ownedGifts(this.calls, this.connectionId, signal);
    const known = new Set(
      (
        await this.ctx.db
          .selectFrom('gift_deposits')
          .select('owned_gift_id')
          .where('owned_gift_id', 'in', gifts.map((g) => g.owned_gift_id ?? '').concat(['']))
          .execute()
      ).map((r) => r.owned_gift_id),
    );
    let credited = 0;
    for (const gift of gifts) {
      if (!gift.owned_gift_id || known.has(gift.owned_gift_id) || gift.send_date < since) continue;
      try {
        if (await this.record(gift)) credited++;
      } catch (err) {
        // one gift that cannot be recorded never stops the others
        this.log?.error({ err, ownedGiftId: gift.owned_gift_id }, 'gift deposit could not be recorded');
      }
    }
    return credited;
  }

  /** Unix seconds from which received gifts count as deposits (set at the first read, kept for good). */
  private async since(): Promise<number> {
    await this.ctx.db
      .insertInto('payment_cursors')
      .values({ name: SINCE_CURSOR, position: BigInt(Math.floor(Date.now() / 1000)) })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.ctx.db
      .selectFrom('payment_cursors')
      .select('position')
      .where('name', '=', SINCE_CURSOR)
      .executeTakeFirstOrThrow();
    return Number(row.position);
  }

  private async record(gift: OwnedGift): Promise<boolean> {
    const ownedGiftId = gift.owned_gift_id!;
    const senderId = gift.sender_user ? BigInt(gift.sender_user.id) : null;
    const collection = gift.type === 'unique' ? gift.gift.base_name : null;
    const giftName = gift.type === 'unique' ? gift.gift.name : `regular:${gift.gift.id}`;
    const db = this.ctx.db;
    const item = collection
      ? await db
          .selectFrom('item_gifts as g')
          .innerJoin('items as i', 'i.id', 'g.item_id')
          .select(['i.id', 'i.name', 'i.name_ru', 'i.image_url', 'i.price_nano'])
          .where('g.collection', '=', collection)
          .executeTakeFirst()
      : undefined;
    const player =
      senderId !== null
        ? await db.selectFrom('users').select('id').where('id', '=', senderId).executeTakeFirst()
        : undefined;
    const status = !player ? 'unknown_sender' : !item ? 'not_in_catalogue' : 'credited';

    const balance = await db.transaction().execute(async (trx) => {
      if (player) await lockPlayer(trx, player.id);
      const inserted = await trx
        .insertInto('gift_deposits')
        .values({
          owned_gift_id: ownedGiftId,
          kind: gift.type,
          gift_name: giftName,
          collection,
          sender_id: senderId,
          user_id: player?.id ?? null,
          item_id: status === 'credited' ? item!.id : null,
          status,
        })
        .onConflict((oc) => oc.column('owned_gift_id').doNothing())
        .returning('owned_gift_id')
        .executeTakeFirst();
      if (!inserted || status !== 'credited' || !player || !item) return null;
      await giveToInventory(trx, player.id, item.id, 1);
      await enqueueNotification(
        trx,
        player.id,
        'gift_deposit_credited',
        { item: item.name, itemRu: item.name_ru || item.name },
        `gift-deposit:${ownedGiftId}`,
      );
      const user = await trx
        .selectFrom('users')
        .select('balance_nano')
        .where('id', '=', player.id)
        .executeTakeFirstOrThrow();
      return user.balance_nano;
    });
    if (balance === null) {
      if (status !== 'credited') {
        this.log?.warn(
          { ownedGiftId, status, sender: senderId?.toString() ?? null, gift: giftName },
          'gift received that is not a deposit: left to the operator',
        );
      }
      return false;
    }
    this.log?.info({ ownedGiftId, userId: player!.id.toString(), item: item!.id }, 'gift deposit credited');
    try {
      await publishDeposit(this.ctx.bus, {
        userId: player!.id.toString(),
        amountNano: item!.price_nano.toString(),
        balanceNano: balance.toString(),
        method: 'gifts',
        id: `gift:${ownedGiftId}`,
        demo: this.ctx.demo,
        item: {
          id: item!.id,
          name: item!.name,
          imageUrl: item!.image_url,
          priceNano: item!.price_nano.toString(),
        },
      });
    } catch (err) {
      this.log?.warn({ err, ownedGiftId }, 'gift deposit notification failed');
    }
    return true;
  }
}
