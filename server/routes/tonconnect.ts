import { Type } from 'typebox';
import { publicBaseUrl } from '../config.ts';
import type { App, AppContext } from '../context.ts';

/** The TON Connect manifest wallets read (https://<app>/tonconnect-manifest.json): who is asking to connect. */
const TonconnectManifest = Type.Object({
  url: Type.String(),
  name: Type.String(),
  /** a 180×180 PNG */
  iconUrl: Type.String(),
});

const APP_NAME = 'Giftcases';

/**
 * GET /tonconnect-manifest.json at the site root (not under /api), where GET /api/config points the
 * client. The base comes from the configuration only (PUBLIC_URL, else http://localhost:<port>), never
 * from the request's Host header: the answer is cached publicly, so a forged Host must not change it.
 * Wallets fetch it from their own origin, so it is open to any origin.
 */
export function tonconnectRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/tonconnect-manifest.json',
    { schema: { response: { 200: TonconnectManifest } } },
    async (_request, reply) => {
      const base = publicBaseUrl(ctx.config);
      void reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300');
      return { url: base, name: APP_NAME, iconUrl: `${base}/assets/icon-180.png` };
    },
  );
}
