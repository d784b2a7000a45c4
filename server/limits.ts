import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fastifyRateLimit, { type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { RateLimits } from './config.ts';
import type { App } from './context.ts';
import { HttpError } from './lib/errors.ts';

/**
 * Rate limits (@fastify/rate-limit), counted per instance in memory, each over RateLimits.windowMs:
 *
 * - every /api request, per client address (onRequest: before anything else runs);
 * - sign-in, per address;
 * - openings and money requests (battle seats included), per address and per player (the token's subject, counted after the
 *   token is checked, so a forged token cannot spend another player's allowance);
 * - socket connections (live feed, deposits, battles), per address.
 *
 * The address is the one Fastify sees, so behind a proxy TRUST_PROXY must name it. An IPv6 client counts
 * by its /64. A request over a limit gets 429 with Retry-After (seconds) and the JSON error body with
 * code RATE_LIMITED and `retryAfter`. A limit of 0 is off.
 */

/** 429: a limit was reached; `retryAfter` is in whole seconds. */
export class RateLimitedError extends HttpError {
  constructor(readonly retryAfter: number) {
    super(
      429,
      'RATE_LIMITED',
      `Too many requests: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
    );
  }
}

type Category = 'signIn' | 'money' | 'socket';

/** The limited routes, by method and full path. */
const LIMITED_ROUTES: Readonly<Record<string, Category>> = {
  'POST /api/auth/login': 'signIn',
  'POST /api/cases/open': 'money',
  'POST /api/cases/open-multiple': 'money',
  'POST /api/inventory/sell': 'money',
  'POST /api/inventory/withdraw': 'money',
  'POST /api/upgrade/roll': 'money',
  'POST /api/deposit/cryptobot-invoice': 'money',
  'POST /api/deposit/demo': 'money',
  'PUT /api/fairness/client-seed': 'money',
  'POST /api/fairness/rotate': 'money',
  'POST /api/battles': 'money',
  'POST /api/battles/:id/join': 'money',
  'POST /api/battles/:id/bots': 'money',
  'POST /api/battles/:id/cancel': 'money',
  'POST /api/wheel/spin': 'money',
  'POST /api/promo/apply': 'money',
  'GET /api/ws/drops': 'socket',
  'GET /api/ws/deposits': 'socket',
  'GET /api/ws/battles': 'socket',
};

/** Keys a limiter has room for; the least recently seen are forgotten first. */
const KEYS_KEPT = 20_000;

type Check = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Registers the limiter and hooks every /api route registered after it. Call before the routes. */
export async function installRateLimits(app: App, limits: RateLimits): Promise<void> {
  await app.register(fastifyRateLimit, { global: false });

  const limiter = (max: number, byPlayer = false): Check | null => {
    if (!(max > 0)) return null;
    const options: CreateRateLimitOptions & { cache: number } = {
      max,
      timeWindow: limits.windowMs,
      // each limiter keeps its own counters (the plugin reads `cache` here though its types omit it)
      cache: KEYS_KEPT,
      ...(byPlayer ? { keyGenerator: (request: FastifyRequest) => `player:${request.userId}` } : {}),
    };
    const limit = app.createRateLimit(options);
    return async (request, reply) => {
      const result = await limit(request);
      if (result.isAllowed || !result.isExceeded) return;
      const retryAfter = Math.max(1, result.ttlInSeconds);
      void reply.header('retry-after', String(retryAfter));
      throw new RateLimitedError(retryAfter);
    };
  };

  const api = limiter(limits.apiPerAddress);
  const byAddress: Record<Category, Check | null> = {
    signIn: limiter(limits.signInPerAddress),
    money: limiter(limits.moneyPerAddress),
    socket: limiter(limits.socketsPerAddress),
  };
  const moneyPerPlayer = limiter(limits.moneyPerPlayer, true);

  app.addHook('onRoute', (route: RouteOptions) => {
    const path = route.url;
    if (!path.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const category = methods.map((m) => LIMITED_ROUTES[`${m} ${path}`]).find((c) => c !== undefined);
    const early = [api, category ? byAddress[category] : null].filter((c): c is Check => c !== null);
    if (early.length > 0) {
      const onRequest: onRequestAsyncHookHandler = async (request, reply) => {
        for (const check of early) await check(request, reply);
      };
      route.onRequest = [onRequest, ...toList(route.onRequest)];
    }
    if (category === 'money' && moneyPerPlayer) {
      // after the route's own preHandler (the token check) has set request.userId
      const check = moneyPerPlayer;
      route.preHandler = [
        ...toList(route.preHandler),
        async (request: FastifyRequest, reply: FastifyReply) => {
          if (request.userId !== undefined) await check(request, reply);
        },
      ];
    }
  });
}

function toList<T>(hook: T | T[] | undefined): T[] {
  if (hook === undefined) return [];
  return Array.isArray(hook) ? hook : [hook];
}
