import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fastifyRateLimit, { normalizeIP, type CreateRateLimitOptions } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import type { RateLimits } from './config.ts';
import type { App } from './context.ts';
import { HttpError } from './lib/errors.ts';

/**
 * Rate limits (@fastify/rate-limit), each over RateLimits.windowMs, counted in Redis when REDIS_URL is set (the
 * plugin's Redis store, so every instance shares one allowance), in each instance's memory otherwise:
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
 *
 * Redis that does not answer at start stops the start (RedisUnavailableError): an operator who set
 * REDIS_URL expects shared limits, not N times the allowance. Redis lost while running lets requests pass
 * uncounted (logged, and logged again when it answers) rather than failing them: the limits shield the
 * server from floods, and no money path depends on them.
 */

/** REDIS_URL is set but Redis did not answer at start. */
export class RedisUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    const where = redactUrl(url);
    super(
      `REDIS_URL: Redis at ${where} did not answer (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Start Redis there, or unset REDIS_URL to count the rate limits in memory (per instance).',
    );
    this.name = 'RedisUnavailableError';
  }
}

/** The URL without its password, for messages. */
function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL';
  }
}

/** How long the start waits for Redis, and a command for its answer, in ms. */
const REDIS_TIMEOUT_MS = 2000;

/** Connects to Redis for the limits (one kept client per instance); throws RedisUnavailableError. */
async function connectRedis(url: string, log: App['log']): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: 'giftcases-rate-limits',
    connectTimeout: REDIS_TIMEOUT_MS,
    commandTimeout: REDIS_TIMEOUT_MS,
    // a command while Redis is away fails at once (the request then passes uncounted) instead of queueing
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(5000, 100 * 2 ** Math.min(attempt, 6)),
  });
  let started = false;
  let reported = false;
  let firstError: unknown = null;
  redis.on('error', (err: unknown) => {
    firstError ??= err;
    if (!started || reported) return;
    reported = true;
    log.error({ err }, 'Redis for the rate limits is unreachable: requests pass uncounted until it answers');
  });
  redis.on('ready', () => {
    if (!reported) return;
    reported = false;
    log.info('Redis for the rate limits answers again: the limits are counted again');
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new RedisUnavailableError(url, firstError ?? err); // the socket's error says more than "closed"
  }
  started = true;
  return redis;
}

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
  'GET /api/ws': 'socket',
};

/** Keys a limiter has room for; the least recently seen are forgotten first. */
const KEYS_KEPT = 20_000;

type Check = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Registers the limiter and hooks every /api route registered after it. Call before the routes. With a
 * Redis URL the counts live in Redis (throws RedisUnavailableError when it does not answer).
 */
export async function installRateLimits(
  app: App,
  limits: RateLimits,
  shared: { redisUrl: string | null; redisPrefix: string },
): Promise<void> {
  const redis = shared.redisUrl ? await connectRedis(shared.redisUrl, app.log) : null;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: shared.redisPrefix, skipOnError: true } : {}),
  });

  const limiter = (name: string, max: number, byPlayer = false): Check | null => {
    if (!(max > 0)) return null;
    const options: CreateRateLimitOptions & { cache: number } = {
      max,
      timeWindow: limits.windowMs,
      // each limiter keeps its own counters (the plugin reads `cache` here though its types omit it)...
      cache: KEYS_KEPT,
      // ...and, in Redis, its own keys (the plugin names every helper-made limiter alike)
      keyGenerator: byPlayer
        ? (request: FastifyRequest) => `${name}:player:${request.userId}`
        : // a client that went away while its request waited has no address any more: its request is counted
          // apart (and answered to no one) instead of failing with a 500
          (request: FastifyRequest) => `${name}:${request.ip ? normalizeIP(request.ip) : 'gone'}`,
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

  const api = limiter('api', limits.apiPerAddress);
  const byAddress: Record<Category, Check | null> = {
    signIn: limiter('signin', limits.signInPerAddress),
    money: limiter('money', limits.moneyPerAddress),
    socket: limiter('socket', limits.socketsPerAddress),
  };
  const moneyPerPlayer = limiter('money', limits.moneyPerPlayer, true);

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
