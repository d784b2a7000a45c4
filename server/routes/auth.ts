import { LoginRequest, LoginResponse, MeResponse } from '../../contract/auth.ts';
import { ApiError } from '../../contract/common.ts';
import type { App, AppContext } from '../context.ts';
import { InitDataError, validateInitData } from '../auth/init-data.ts';
import { requireUser } from '../auth/guard.ts';
import { unauthorized } from '../lib/errors.ts';
import { getUser, toApiUser } from '../users.ts';
import { signInWithInvite } from '../retention/invites.ts';

export function authRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/auth/login',
    { schema: { body: LoginRequest, response: { 200: LoginResponse, 401: ApiError } } },
    async (request) => {
      let tgUser;
      try {
        tgUser = validateInitData(request.body.initData, ctx.botToken, ctx.config.initDataMaxAgeSeconds);
      } catch (err) {
        if (err instanceof InitDataError) throw unauthorized(`INIT_DATA_${err.reason}`, err.message);
        throw err;
      }
      const row = await signInWithInvite(ctx.db, tgUser, request.body.initData);
      return { token: await ctx.tokens.issue(row.id), user: toApiUser(row) };
    },
  );

  app.get(
    '/auth/me',
    { preHandler: requireUser(ctx), schema: { response: { 200: MeResponse } } },
    async (request) => ({ user: toApiUser(await getUser(ctx.db, request.userId)) }),
  );
}
