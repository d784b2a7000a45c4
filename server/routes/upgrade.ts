import { ApiError } from '../../contract/common.ts';
import {
  UPGRADE_MULTIPLIERS,
  UpgradeConfigResponse,
  UpgradeHistoryQuery,
  UpgradeHistoryResponse,
  UpgradeOptionsQuery,
  UpgradeOptionsResponse,
  UpgradeRollRequest,
  UpgradeRollResponse,
} from '../../contract/upgrade.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { badRequest } from '../lib/errors.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import {
  baseChancePpm,
  invalidCoef,
  isUpgradeMultiplier,
  playUpgrade,
  upgradeHistory,
  upgradeOptions,
} from '../games/upgrade.ts';

/**
 * The upgrade game: its odds (public), the targets a stake can aim at (public: catalogue arithmetic), the
 * roll (signed-in players; accepts an Idempotency-Key header) and the player's past rolls with their proofs.
 */
export function upgradeRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);
  const baseChance = ctx.config.upgradeBaseChance;
  const basePpm = baseChancePpm(baseChance);

  app.get('/upgrade/config', { schema: { response: { 200: UpgradeConfigResponse } } }, async () => ({
    baseChance,
    multipliers: [...UPGRADE_MULTIPLIERS],
  }));

  app.get(
    '/upgrade/options',
    {
      schema: {
        querystring: UpgradeOptionsQuery,
        response: { 200: UpgradeOptionsResponse, 400: ApiError, 404: ApiError },
      },
    },
    async (request) => {
      const { itemId, coef } = request.query;
      if (!isUpgradeMultiplier(coef)) throw invalidCoef(coef);
      return upgradeOptions(ctx.db, basePpm, itemId, coef);
    },
  );

  app.get(
    '/upgrade/history',
    {
      preHandler: auth,
      schema: { querystring: UpgradeHistoryQuery, response: { 200: UpgradeHistoryResponse } },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const limit = request.query.limit ?? 20;
      return { page, limit, ...(await upgradeHistory(ctx.db, request.userId, page, limit)) };
    },
  );

  app.post(
    '/upgrade/roll',
    {
      preHandler: auth,
      schema: {
        body: UpgradeRollRequest,
        response: {
          200: UpgradeRollResponse,
          400: ApiError,
          401: ApiError,
          404: ApiError,
          409: ApiError,
          422: ApiError,
        },
      },
    },
    async (request, reply) => {
      const { coef, itemId, targetItemId } = request.body;
      if (!isUpgradeMultiplier(coef)) throw invalidCoef(coef);
      // the odds the client showed must be the odds the server plays
      if (request.body.baseChance !== baseChance) {
        throw badRequest(
          'BASE_CHANCE_MISMATCH',
          `The base chance is ${baseChance}, not ${request.body.baseChance}: reload the odds and try again`,
        );
      }
      return withIdempotency(ctx.db, request, reply, (trx) =>
        playUpgrade(trx, request.userId, basePpm, { coef, itemId, targetItemId }),
      );
    },
  );
}
