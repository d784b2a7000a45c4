import {
  InventoryResponse,
  SellRequest,
  SellResponse,
  WithdrawRequest,
  WithdrawResponse,
  WithdrawalsResponse,
} from '../../contract/inventory.ts';
import { ApiError } from '../../contract/common.ts';
import type { App, AppContext } from '../context.ts';
import type { TelegramService } from '../telegram/index.ts';
import { requireUser } from '../auth/guard.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import { listInventory, sellEverything, sellItem, sellItems } from '../inventory/inventory.ts';
import { listWithdrawals, requestWithdrawal } from '../inventory/withdrawals.ts';
import { publishWithdrawal } from '../realtime/withdrawals.ts';

/**
 * The player's inventory: list, sell (one kind, a selection or everything), withdraw, and the withdrawal requests.
 * Sell and withdraw accept an Idempotency-Key header (server/lib/idempotency.ts).
 */
export function inventoryRoutes(app: App, ctx: AppContext, telegram: TelegramService): void {
  // when the bot delivers withdrawals, only items with a Telegram gift can leave (the others are sold)
  const giftsOnly = telegram.delivers;
  const auth = requireUser(ctx);
  const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 422: ApiError };

  app.get(
    '/inventory',
    { preHandler: auth, schema: { response: { 200: InventoryResponse } } },
    async (request) => ({ inventory: await listInventory(ctx.db, request.userId, { giftsOnly }) }),
  );

  app.post(
    '/inventory/sell',
    { preHandler: auth, schema: { body: SellRequest, response: { 200: SellResponse, ...errors } } },
    async (request, reply) => {
      const body = request.body;
      // every sale locks the player as its first statement: no lock of withIdempotency's own before it
      return withIdempotency(
        ctx.db,
        request,
        reply,
        (trx) =>
          'sellAll' in body
            ? sellEverything(trx, request.userId)
            : 'items' in body
              ? sellItems(trx, request.userId, body.items)
              : sellItem(trx, request.userId, body.itemId, body.quantity),
        { workLocksPlayer: true },
      );
    },
  );

  app.post(
    '/inventory/withdraw',
    { preHandler: auth, schema: { body: WithdrawRequest, response: { 200: WithdrawResponse, ...errors } } },
    async (request, reply) => {
      const { itemId, quantity } = request.body;
      const answer = await withIdempotency(ctx.db, request, reply, async (trx) => ({
        withdrawal: await requestWithdrawal(trx, request.userId, itemId, quantity, { giftsOnly }),
      }));
      // the player's other open apps read their withdrawals again
      await publishWithdrawal(ctx.bus, {
        userId: request.userId,
        id: BigInt(answer.withdrawal.id),
        status: answer.withdrawal.status,
      }).catch((err: unknown) => request.log.warn({ err }, 'a withdrawal change was not published'));
      // then the delivery worker of this instance looks at once (its changes are told after this one)
      telegram.kickDelivery();
      return answer;
    },
  );

  app.get(
    '/inventory/withdrawals',
    { preHandler: auth, schema: { response: { 200: WithdrawalsResponse } } },
    async (request) => ({ withdrawals: await listWithdrawals(ctx.db, request.userId) }),
  );
}
