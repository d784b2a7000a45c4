// Security headers on every answer (the API's JSON, the app's pages and files, errors): a Content-Security-
// Policy shaped for a Telegram Mini App, nosniff, a Referrer-Policy, and HSTS when the app is served over
// https. Set with @fastify/helmet; the README's "Security headers" section explains each source.
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { publicBaseUrl, type Config } from './config.ts';

/**
 * TON Connect's bridges (server-sent events the wallets answer through), the origins of the built-in wallets
 * list of @tonconnect/sdk. tests/unit/security.test.ts checks that every bridge the installed SDK names is
 * here, so an SDK update that brings a new wallet fails a test instead of a player's connection.
 */
export const TON_CONNECT_BRIDGES = [
  'https://api-node.bybit.com',
  'https://blitzwallet.cfd',
  'https://bridge.dewallet.pro',
  'https://bridge.mirai.app',
  'https://bridge.tonapi.io',
  'https://bridge.uxuy.me',
  'https://connect.token.im',
  'https://connect.tonhubapi.com',
  'https://dapp.gateio.services',
  'https://go-bridge.tomo.inc',
  'https://sse-bridge.hot-labs.org',
  'https://tc.architecton.su',
  'https://tc.nicegram.app',
  'https://ton-bridge.safepal.com',
  'https://ton-connect-bridge.bgwapi.io',
  'https://ton-connect-bridge.echooo.link',
  'https://ton-connect.mytokenpocket.vip',
  'https://tonconnectbridge.mytonwallet.org',
  'https://wallet-bridge.fintopio.com',
  'https://wallet.binance.com',
  'https://walletbot.me',
  'https://web3-bridge.kolo.in',
  'https://www.okx.com',
] as const;

/** Where TON Connect reads the current wallets list (names, icons, bridges). */
const TON_CONNECT_WALLETS_LIST = 'https://config.ton.org';

/** Telegram's web clients (web.telegram.org/k and /a), the only pages allowed to frame the app. */
const TELEGRAM_FRAME_ANCESTORS = ['https://web.telegram.org', 'https://*.telegram.org'];

/** CSP hash of an empty script (SHA-256 of ""), for the empty inline handler TON Connect sets. */
const EMPTY_HANDLER_HASH = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';

/** The app's own sockets at its public origin: wss:// for an https app, ws:// for http. */
function socketOrigin(config: Pick<Config, 'publicUrl' | 'port'>): string {
  const url = new URL(publicBaseUrl(config));
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
}

/** Whether the app is served over https (PUBLIC_URL says so): then HSTS and upgrade-insecure-requests. */
function servedOverHttps(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl !== null && new URL(config.publicUrl).protocol === 'https:';
}

/** The Content-Security-Policy directives, by name (helmet's form; also read by the tests). */
export function cspDirectives(config: Pick<Config, 'publicUrl' | 'port'>): Record<string, string[] | null> {
  const https = servedOverHttps(config);
  return {
    'default-src': ["'self'"],
    // only the app's own bundles: index.html has no inline script, and nothing evaluates strings (the
    // scenes load Pixi's no-eval shader code)
    'script-src': ["'self'"],
    // ...except one handler that does nothing: TON Connect's UI sets an empty `ontouchstart` on <body> (so
    // iOS applies :active styles); 'unsafe-hashes' with the hash of the empty text allows exactly that one
    'script-src-attr': ["'unsafe-hashes'", `'${EMPTY_HANDLER_HASH}'`],
    // the scene worker is a bundle of its own; the compositor's strips and a config export are blob: URLs
    'worker-src': ["'self'"],
    // the first screen's CSS is inlined into index.html, TON Connect's modal injects its own <style>
    'style-src': ["'self'", "'unsafe-inline'"],
    // case and item art is ours; avatars come from Telegram (t.me, its CDNs), wallet icons from each
    // wallet's own site as the remote wallets list names it; baked strips are blob: URLs
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'data:', 'blob:'],
    // the API and its sockets ('self' covers same-origin ws: in CSP 3 browsers; older WebKit needs the
    // origin spelled out), the wallets list and the wallets' bridges
    'connect-src': ["'self'", socketOrigin(config), TON_CONNECT_WALLETS_LIST, ...TON_CONNECT_BRIDGES],
    'frame-ancestors': ["'self'", ...TELEGRAM_FRAME_ANCESTORS],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'manifest-src': ["'self'"],
    // helmet adds it by default: only meaningful (and harmless) when the app is served over https
    'upgrade-insecure-requests': https ? [] : null,
  };
}

/**
 * Registers the security headers for every route, the not-found handler and static files included. The
 * headers are the same for every answer: the plugin works them out once (on the first request, from the
 * options below) and each answer gets that list as it is. Left to itself, the plugin would build its
 * middleware and the CSP text again for every request (a few percent of an opening's server time).
 */
export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyHelmet, {
    // applied below, from the list the plugin makes once
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // X-Frame-Options can only say DENY or SAMEORIGIN, which would keep the app out of Telegram's web
    // clients; frame-ancestors above says who may frame it
    xFrameOptions: false,
    // the scripts leave no referrer with third parties (wallets, bridges, avatars)
    referrerPolicy: { policy: 'no-referrer' },
    // only when the app is reached over https; a plain-http dev or test server must not pin browsers
    strictTransportSecurity: servedOverHttps(config)
      ? { maxAge: 365 * 24 * 3600, includeSubDomains: false }
      : false,
    // wallets show the manifest's icon (/assets/...) from their own pages: our files may be embedded
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // TON Connect opens wallets in new windows and Telegram Web frames the app: keep the opener usable
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
  });

  let headers: [string, number | string | string[]][] | null = null;
  app.addHook('onRequest', (_request, reply, done) => {
    const raw = reply.raw;
    if (headers) {
      for (const [name, value] of headers) raw.setHeader(name, value);
    } else {
      const before = new Set(raw.getHeaderNames());
      reply.helmet();
      headers = raw
        .getHeaderNames()
        .filter((name) => !before.has(name))
        .map((name) => [name, raw.getHeader(name)!]);
    }
    done();
  });
}
