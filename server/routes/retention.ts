import { ApiError } from '../../contract/common.ts';
import {
  InviteStateResponse,
  PromoApplyRequest,
  PromoApplyResponse,
  PromoCodeInput,
  PromoCodeParams,
  PromoCodeResponse,
  PromoCodesResponse,
  PromoStateResponse,
  WheelSpinResponse,
  WheelStateResponse,
} from '../../contract/retention.ts';
import type { App, AppContext } from '../context.ts';
import { requireUser } from '../auth/guard.ts';
import { withIdempotency } from '../lib/idempotency.ts';
import { inviteState } from '../retention/invites.ts';
import { applyPromo, listPromoCodes, pendingPromo, upsertPromoCode } from '../retention/promo.ts';
import { spinWheel, wheelState } from '../retention/wheel.ts';
import { requireAdmin } from './admin.ts';

/**
 * The daily wheel, promo codes and invites (README, "Daily wheel, promo codes, ranks, invites"). The spin
 * and applying a code move money: both accept an Idempotency-Key and count against the money rate limits
 * (server/limits.ts). The operator's promo code routes exist only with ADMIN_KEY set.
 */
export function retentionRoutes(app: App, ctx: AppContext): void {
  const auth = requireUser(ctx);
  const retention = ctx.config.retention;
  const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 422: ApiError };

  app.get('/wheel', { preHandler: auth, schema: { response: { 200: WheelStateResponse } } }, (request) =>
    wheelState(ctx.db, retention, request.userId),
  );

  app.post(
    '/wheel/spin',
    { preHandler: auth, schema: { response: { 200: WheelSpinResponse, ...errors } } },
    (request, reply) =>
      withIdempotency(ctx.db, request, reply, (trx) => spinWheel(trx, retention, request.userId)),
  );

  app.get(
    '/promo',
    { preHandler: auth, schema: { response: { 200: PromoStateResponse } } },
    async (request) => ({
      pending: await pendingPromo(ctx.db, request.userId),
    }),
  );

  app.post(
    '/promo/apply',
    {
      preHandler: auth,
      schema: { body: PromoApplyRequest, response: { 200: PromoApplyResponse, ...errors } },
    },
    (request, reply) =>
      withIdempotency(ctx.db, request, reply, (trx) => applyPromo(trx, request.userId, request.body.code)),
  );

  app.get('/invites', { preHandler: auth, schema: { response: { 200: InviteStateResponse } } }, (request) =>
    inviteState(ctx.db, ctx.config, request.userId),
  );

  const adminKey = ctx.config.adminKey;
  if (!adminKey) return;
  const guard = requireAdmin(adminKey);
  const adminErrors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };
  app.get(
    '/admin/promo-codes',
    { onRequest: guard, schema: { response: { 200: PromoCodesResponse, ...adminErrors } } },
    async () => ({ codes: await listPromoCodes(ctx.db) }),
  );
  app.put(
    '/admin/promo-codes/:code',
    {
      onRequest: guard,
      schema: {
        params: PromoCodeParams,
        body: PromoCodeInput,
        response: { 200: PromoCodeResponse, ...adminErrors },
      },
    },
    async (request) => ({ code: await upsertPromoCode(ctx.db, request.params.code, request.body) }),
  );
}
