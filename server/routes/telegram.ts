import { Type } from 'typebox';
import type { Update } from 'grammy/types';
import { ApiError } from '../../contract/common.ts';
import { GiftDepositInfo, SimulateGiftRequest, SimulateGiftResponse } from '../../contract/deposit.ts';
import {
  AdminItemGiftRequest,
  AdminItemGiftResponse,
  AdminItemParams,
  AdminTelegramResponse,
} from '../../contract/telegram.ts';
import { formatTon } from '../../contract/money.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { badRequest, conflict, notFound, unauthorized } from '../lib/errors.ts';
import { requireAdmin } from './admin.ts';
import type { TelegramService } from '../telegram/index.ts';

/** Telegram sends the webhook's secret_token in this header with every update. */
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/**
 * The Telegram routes: the bot's webhook (webhook mode only), the deposit sheet's Gifts step (where to send
 * a gift; in demo mode, a simulated gift), and the operator's controls (supplies and alerts, gifts left to
 * the operator, the item→gift mapping).
 */
export function telegramRoutes(app: App, ctx: AppContext, telegram: TelegramService): void {
  if (telegram.webhookSecret) {
    app.post(
      '/telegram/webhook',
      { schema: { response: { 200: Type.Object({ ok: Type.Boolean() }), 400: ApiError, 401: ApiError } } },
      async (request) => {
        // a forged update (no secret, a wrong one) does nothing; compared in constant time
        const given = request.headers[SECRET_HEADER];
        if (!telegram.checkWebhookSecret(typeof given === 'string' ? given : undefined)) {
          throw unauthorized('WEBHOOK_SECRET_INVALID', 'This is not Telegram');
        }
        const update = request.body as Update | null;
        if (typeof update !== 'object' || update === null || !Number.isSafeInteger(update.update_id)) {
          throw badRequest('UPDATE_INVALID', 'The body is not a Telegram update');
        }
        try {
          await telegram.handleUpdate(update);
        } catch (err) {
          // answered 200 anyway: Telegram would repeat it, and a repeat is ignored by its update_id
          request.log.error({ err, updateId: update.update_id }, 'telegram update failed');
        }
        return { ok: true };
      },
    );
  }

  const auth = requireUser(ctx);
  app.get(
    '/deposit/gifts',
    { preHandler: auth, schema: { response: { 200: GiftDepositInfo, 401: ApiError } } },
    async () => {
      const rows = telegram.giftConnectionId
        ? await ctx.db
            .selectFrom('item_gifts as g')
            .innerJoin('items as i', 'i.id', 'g.item_id')
            .select(['g.collection', 'i.id', 'i.name', 'i.image_url', 'i.price_nano'])
            .where('g.collection', 'is not', null)
            .orderBy('i.price_nano')
            .execute()
        : [];
      return {
        enabled: telegram.giftConnectionId !== null,
        account: telegram.giftAccount,
        demo: telegram.mode === 'simulated',
        items: rows.map((r) => ({
          collection: r.collection!,
          item: { id: r.id, name: r.name, imageUrl: r.image_url, price: formatTon(r.price_nano) },
        })),
      };
    },
  );

  const simulator = telegram.simulator;
  if (simulator) {
    const timers = new Set<NodeJS.Timeout>();
    app.addHook('onClose', async () => {
      for (const t of timers) clearTimeout(t);
    });
    app.post(
      '/deposit/gifts/simulate',
      {
        preHandler: auth,
        schema: {
          body: SimulateGiftRequest,
          response: { 200: SimulateGiftResponse, 400: ApiError, 401: ApiError, 404: ApiError },
        },
      },
      async (request) => {
        const mapped = await ctx.db
          .selectFrom('item_gifts')
          .select('collection')
          .where('item_id', '=', request.body.itemId)
          .where('collection', 'is not', null)
          .executeTakeFirst();
        if (!mapped) throw notFound('GIFT_COLLECTION_UNKNOWN', 'No gift collection becomes this item');
        const userId = request.userId;
        const delay = ctx.config.demoGiftDelayMs;
        const timer = setTimeout(() => {
          timers.delete(timer);
          simulator.receiveUnique(mapped.collection!, userId);
          telegram.kickGiftScan();
        }, delay);
        timers.add(timer);
        return { creditInMs: delay };
      },
    );
  }

  const adminKey = ctx.config.adminKey;
  if (!adminKey) return;
  const guard = requireAdmin(adminKey);
  const adminErrors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

  app.get(
    '/admin/telegram',
    { onRequest: guard, schema: { response: { 200: AdminTelegramResponse, ...adminErrors } } },
    async () => {
      const [supplies, unclaimed, mapping] = await Promise.all([
        telegram.supplies(),
        ctx.db
          .selectFrom('gift_deposits')
          .selectAll()
          .where('status', '!=', 'credited')
          .orderBy('created_at', 'desc')
          .limit(100)
          .execute(),
        ctx.db.selectFrom('item_gifts').selectAll().orderBy('item_id').execute(),
      ]);
      return {
        mode: telegram.mode,
        supplies,
        unclaimedGifts: unclaimed.map((g) => ({
          ownedGiftId: g.owned_gift_id,
          kind: g.kind,
          giftName: g.gift_name,
          senderId: g.sender_id?.toString() ?? null,
          status: g.status,
          receivedAt: g.created_at.toISOString(),
        })),
        mapping: mapping.map((m) => ({ itemId: m.item_id, giftId: m.gift_id, collection: m.collection })),
      };
    },
  );

  app.put(
    '/admin/items/:id/telegram-gift',
    {
      onRequest: guard,
      schema: {
        params: AdminItemParams,
        body: AdminItemGiftRequest,
        response: { 200: AdminItemGiftResponse, ...adminErrors },
      },
    },
    async (request) => {
      const itemId = request.params.id;
      const item = await ctx.db.selectFrom('items').select('id').where('id', '=', itemId).executeTakeFirst();
      if (!item) throw notFound('ITEM_NOT_FOUND', `There is no item "${itemId}"`);
      const body = request.body;
      const values =
        'giftId' in body
          ? { gift_id: body.giftId, collection: null }
          : { gift_id: null, collection: body.collection };
      try {
        await ctx.db
          .insertInto('item_gifts')
          .values({ item_id: itemId, ...values })
          .onConflict((oc) => oc.column('item_id').doUpdateSet({ ...values, updated_at: new Date() }))
          .execute();
      } catch (err) {
        if ((err as { code?: string }).code === '23505') {
          throw conflict('COLLECTION_TAKEN', 'Another item already takes gifts of this collection');
        }
        throw err;
      }
      return { itemId, giftId: values.gift_id, collection: values.collection };
    },
  );

  app.delete(
    '/admin/items/:id/telegram-gift',
    {
      onRequest: guard,
      schema: { params: AdminItemParams, response: { 200: AdminItemGiftResponse, ...adminErrors } },
    },
    async (request) => {
      const removed = await ctx.db
        .deleteFrom('item_gifts')
        .where('item_id', '=', request.params.id)
        .returning('item_id')
        .executeTakeFirst();
      if (!removed) throw notFound('ITEM_GIFT_NOT_FOUND', `"${request.params.id}" has no Telegram gift`);
      return { itemId: removed.item_id, giftId: null, collection: null };
    },
  );
}
