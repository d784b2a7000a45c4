import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  AdminResolveRequest,
  AdminResolveResponse,
  AdminWithdrawalParams,
  AdminWithdrawalsQuery,
  AdminWithdrawalsResponse,
} from '../../contract/inventory.ts';
import { ApiError } from '../../contract/common.ts';
import type { App, AppContext } from '../context.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import { listAllWithdrawals, resolveWithdrawal, type WithdrawalOutcome } from '../inventory/withdrawals.ts';
import { publishWithdrawal } from '../realtime/withdrawals.ts';

/** The header carrying the operator key. */
const ADMIN_KEY_HEADER = 'x-admin-key';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * An onRequest hook admitting only requests whose x-admin-key equals the configured key: 401 when the
 * header is missing, 403 when it is wrong. Compared in constant time (as fixed-length digests).
 */
export function requireAdmin(adminKey: string) {
  const expected = digest(adminKey);
  return async (request: FastifyRequest): Promise<void> => {
    const given = request.headers[ADMIN_KEY_HEADER];
    if (typeof given !== 'string' || given === '') {
      throw unauthorized('ADMIN_KEY_MISSING', `Send the operator key in the ${ADMIN_KEY_HEADER} header`);
    }
    if (!timingSafeEqual(digest(given), expected)) {
      throw forbidden('ADMIN_KEY_INVALID', 'The operator key is not valid');
    }
  };
}

/**
 * The operator API: list withdrawal requests, complete or fail them. Registered only when ADMIN_KEY is
 * set; without it these paths answer 404 like any unknown path.
 */
export function adminRoutes(app: App, ctx: AppContext): void {
  const adminKey = ctx.config.adminKey;
  if (!adminKey) return;
  const guard = requireAdmin(adminKey);
  const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError };

  app.get(
    '/admin/withdrawals',
    {
      onRequest: guard,
      schema: { querystring: AdminWithdrawalsQuery, response: { 200: AdminWithdrawalsResponse, ...errors } },
    },
    async (request) => ({
      withdrawals: await listAllWithdrawals(
        ctx.db,
        request.query.status ? { status: request.query.status } : {},
      ),
    }),
  );

  for (const [action, outcome] of [
    ['complete', 'completed'],
    ['fail', 'failed'],
  ] as const satisfies readonly (readonly [string, WithdrawalOutcome])[]) {
    app.post(
      `/admin/withdrawals/:id/${action}`,
      {
        onRequest: guard,
        // the body is optional: no body means no note
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          params: AdminWithdrawalParams,
          body: AdminResolveRequest,
          response: { 200: AdminResolveResponse, ...errors },
        },
      },
      async (request) => {
        const withdrawal = await resolveWithdrawal(
          ctx.db,
          BigInt(request.params.id),
          outcome,
          request.body.note ?? null,
        );
        // the player's open app reads its withdrawals again (a lost message costs only freshness)
        await publishWithdrawal(ctx.bus, {
          userId: BigInt(withdrawal.userId),
          id: BigInt(withdrawal.id),
          status: withdrawal.status,
        }).catch((err: unknown) => request.log.warn({ err }, 'a withdrawal change was not published'));
        return { withdrawal };
      },
    );
  }
}
