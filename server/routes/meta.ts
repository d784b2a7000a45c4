import { Type } from 'typebox';
import { sql } from 'kysely';
import { PublicConfig, DemoLaunchDataResponse } from '../../contract/auth.ts';
import { ApiError } from '../../contract/common.ts';
import { publicBaseUrl } from '../config.ts';
import type { App, AppContext } from '../context.ts';
import { demoLaunchData } from '../demo.ts';
import { HttpError } from '../lib/errors.ts';

/** How long the readiness check waits for the database. */
const READY_DB_TIMEOUT_MS = 2000;

export function metaRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/health',
    {
      schema: {
        response: { 200: Type.Object({ ok: Type.Boolean(), db: Type.String(), demo: Type.Boolean() }) },
      },
    },
    async () => ({ ok: true, db: ctx.database.kind, demo: ctx.demo }),
  );

  // Liveness: the process answers (a load balancer or orchestrator restarts it when this fails).
  app.get(
    '/health/live',
    { schema: { response: { 200: Type.Object({ ok: Type.Literal(true) }) } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { ok: true as const };
    },
  );

  // Readiness: the database answers, so requests can be served (else 503 and no traffic is sent here).
  // While the server shuts down every new request, this one included, gets 503.
  app.get(
    '/health/ready',
    {
      schema: {
        response: { 200: Type.Object({ ok: Type.Literal(true), db: Type.String() }), 503: ApiError },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          sql`SELECT 1`.execute(ctx.db),
          new Promise((_resolve, reject) => {
            timer = setTimeout(() => reject(new Error('timed out')), READY_DB_TIMEOUT_MS);
          }),
        ]);
      } catch {
        throw new HttpError(503, 'NOT_READY', 'The database does not answer');
      } finally {
        clearTimeout(timer);
      }
      return { ok: true as const, db: ctx.database.kind };
    },
  );

  app.get('/config', { schema: { response: { 200: PublicConfig } } }, async () => {
    return {
      demo: ctx.demo,
      tonconnectManifestUrl: `${publicBaseUrl(ctx.config)}/tonconnect-manifest.json`,
      twaReturnUrl: ctx.config.twaReturnUrl,
      debugScenes: ctx.config.debugScenes,
    };
  });

  // Demo mode only: signed launch data for the demo user, so the real sign-in path runs outside Telegram.
  if (ctx.demo) {
    app.get(
      '/dev/launch-data',
      { schema: { response: { 200: DemoLaunchDataResponse } } },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return { initData: demoLaunchData(ctx.botToken), demo: true as const };
      },
    );
  }
}
