import { Type } from 'typebox';
import { PublicConfig, DemoLaunchDataResponse } from '../../contract/auth.ts';
import type { App, AppContext } from '../context.ts';
import { demoLaunchData } from '../demo.ts';

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

  app.get('/config', { schema: { response: { 200: PublicConfig } } }, async (request) => {
    const base = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
    return {
      demo: ctx.demo,
      tonconnectManifestUrl: `${base.replace(/\/$/, '')}/tonconnect-manifest.json`,
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
