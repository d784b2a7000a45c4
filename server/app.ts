import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyError } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { Config } from './config.ts';
import type { App, AppContext } from './context.ts';
import { openDatabase, type OpenedDatabase } from './db/index.ts';
import { TokenService } from './auth/tokens.ts';
import { HttpError } from './lib/errors.ts';
import { startIdempotencySweeper } from './lib/idempotency.ts';
import { generateDemoBotToken, generateJwtSecret, sharedSecret } from './secrets.ts';
import { seedDemoUser } from './demo.ts';
import { metaRoutes } from './routes/meta.ts';
import { authRoutes } from './routes/auth.ts';
import { userRoutes } from './routes/users.ts';
import { caseRoutes } from './routes/cases.ts';
import { fairnessRoutes } from './routes/fairness.ts';
import { inventoryRoutes } from './routes/inventory.ts';
import { upgradeRoutes } from './routes/upgrade.ts';
import { adminRoutes } from './routes/admin.ts';
import { seedCatalogue } from './games/seed.ts';
import { announceCatalogueChange } from './games/catalogue-cache.ts';
import { depositRoutes } from './routes/deposit.ts';
import { createBus } from './realtime/bus.ts';
import { depositSocketRoutes } from './realtime/deposits.ts';
import { appSocketRoutes } from './realtime/app-socket.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { dropFeedRoutes } from './realtime/feed.ts';
import { createPayments } from './payments/index.ts';
import { tonconnectRoutes } from './routes/tonconnect.ts';
import { battleRoutes } from './routes/battles.ts';
import { raceRoutes } from './routes/race.ts';
import { BattleClock, battleSocketRoutes } from './realtime/battles.ts';
import { installRateLimits, RateLimitedError } from './limits.ts';
import { ThrottledWarning } from './realtime/sockets.ts';
import { installSecurityHeaders } from './security.ts';
import { refuseNulInput } from './lib/text.ts';
import { createTelegram } from './telegram/index.ts';
import { telegramRoutes } from './routes/telegram.ts';
// retention: the daily wheel, promo codes, rank rewards, invites
import { retentionRoutes } from './routes/retention.ts';
import { startRetention } from './retention/start.ts';

/** A registered route: its method(s), full path and the contract schemas it validates with. */
export interface RouteInfo {
  method: string | string[];
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
  websocket: boolean;
}

export interface BuiltApp {
  app: App;
  ctx: AppContext;
  /** every route the app registered (the API's, with their contract schemas), in registration order */
  routes: RouteInfo[];
  /** stops the server and closes the database */
  close(): Promise<void>;
}

export interface BuildOptions {
  /** an already opened database (tests share one between two app instances); opened from config otherwise */
  database?: OpenedDatabase;
  /** pass a logger option through to Fastify (tests keep it quiet) */
  logger?: boolean;
  /** where the log goes (tests read it); standard output by default */
  logStream?: { write(line: string): void };
}

/** The API prefix: the client routes (/, /profile, /deposit, ...) and the API never share a path. */
const API_PREFIX = '/api';

/** Builds the whole server: database (migrated), services, routes, static client. Does not listen. */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream
              ? { stream: options.logStream }
              : // readable lines for a person at a terminal; JSON lines for log collectors everywhere else
                process.stdout.isTTY
                ? {
                    transport: {
                      target: 'pino-pretty',
                      options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
                    },
                  }
                : {}),
          },
    bodyLimit: config.bodyLimitBytes,
    // X-Forwarded-* only from the proxies the configuration names (none by default)
    trustProxy: trustProxyOption(config.trustProxy),
    // a request must arrive whole in time (a body trickled in byte by byte is cut off with 408)...
    requestTimeout: config.requestTimeoutMs,
    // ...a connection that goes quiet is closed, and so is an idle keep-alive one
    connectionTimeout: config.connectionTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      // how often Node checks the two timeouts above (its default, 30 s, would let them overrun)
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: join(config.dataDir, 'pglite'),
      pool: {
        max: config.dbPoolMax,
        connectionTimeoutMs: config.dbConnectionTimeoutMs,
        statementTimeoutMs: config.dbStatementTimeoutMs,
      },
      log: app.log,
    }));
  const db = database.db;
  const demo = !config.botToken;
  const botToken = config.botToken ?? (await sharedSecret(db, 'demo_bot_token', generateDemoBotToken));
  const jwtSecret = config.jwtSecret ?? (await sharedSecret(db, 'jwt_secret', generateJwtSecret));
  // the embedded database's lock names where this server listens (the admin command talks to it there)
  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (typeof address !== 'object' || address === null) return;
    const host =
      address.address === '0.0.0.0' || address.address === '::'
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
    database.announce(`http://${host}:${address.port}`);
  });

  // cross-instance events (deposit notifications, the live feed): LISTEN/NOTIFY on Postgres
  const bus = await createBus(database, app.log);
  const ctx: AppContext = {
    config,
    db,
    database,
    tokens: new TokenService(jwtSecret, config.tokenTtlSeconds),
    botToken,
    demo,
    bus,
  };
  if (demo) await seedDemoUser(ctx);
  await seedCatalogue(db, config.rtp);
  // the seed may have changed prices or weights (another RTP): instances already running drop their copy
  await announceCatalogueChange(bus, 'seeded at start');
  const payments = createPayments(ctx, app.log);
  // stored Idempotency-Keys live 24 hours: swept periodically from start to close
  const keySweeper = startIdempotencySweeper(ctx, app.log);
  const battleClock = new BattleClock(ctx, app.log);
  // the Telegram bot: updates, notifications, gift withdrawals and deposits (simulated in demo mode)
  const telegram = createTelegram(ctx, app.log);
  const retention = await startRetention(ctx, app.log); // checks its settings against the catalogue
  // Graceful close waits for the requests in flight: a request counts from the moment Node has read its
  // headers (the raw 'request' event, before any hook) until its connection is done with it and, when the
  // client went away first, until its handler has answered anyway (a money handler runs its transaction to
  // the end). Without this, Fastify runs the close hooks below and the database closes under a money request
  // still inside its transaction: Node's `server.close()` calls back once the connections are gone, which
  // says nothing about the handlers. `preClose` runs before those hooks, once Fastify answers new requests
  // with 503: it stops listening and waits. Socket upgrades never emit 'request'; the socket plugin's own
  // preClose closes them.
  const inFlight = new Map<IncomingMessage, { answered: boolean; closed: boolean; done: () => void }>();
  const waiting = new Set<Promise<void>>();
  const settle = (raw: IncomingMessage, what: 'answered' | 'closed', finished = false) => {
    const entry = inFlight.get(raw);
    if (!entry) return;
    entry[what] = true;
    if (entry.closed && (entry.answered || finished)) {
      inFlight.delete(raw);
      entry.done();
    }
  };
  app.server.on('request', (raw: IncomingMessage, res: ServerResponse) => {
    const done = new Promise<void>((resolve) =>
      inFlight.set(raw, { answered: false, closed: false, done: resolve }),
    );
    waiting.add(done);
    void done.then(() => waiting.delete(done));
    res.once('close', () => settle(raw, 'closed', res.writableFinished));
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    settle(request.raw, 'answered');
    return payload;
  });
  app.addHook('preClose', async () => {
    if (app.server.listening) app.server.close(); // no new connections; Fastify's own close then finds it closed
    while (waiting.size > 0) await Promise.all([...waiting]);
  });
  app.addHook('onClose', async () => {
    await keySweeper.stop();
    await battleClock.close();
    await telegram.stop();
    await retention.close();
    await payments.stop();
    await bus.close();
  });

  const routes: RouteInfo[] = [];
  app.addHook('onRoute', (route) => {
    routes.push({
      method: route.method,
      url: route.url,
      schema: route.schema as RouteInfo['schema'],
      websocket: (route as { websocket?: boolean }).websocket === true,
    });
  });
  installValidation(app);
  installErrorHandling(app);
  // security headers (CSP, nosniff, Referrer-Policy, HSTS over https) on every answer, errors included
  await installSecurityHeaders(app, config);
  // text Postgres cannot store (a NUL) is refused at the edge with a 400, before any handler runs
  refuseNulInput(app);
  // answers above 1 KB leave compressed when the client accepts it (brotli, then gzip); what is already
  // compressed (the built client's .br/.gz files, the cached catalogue) passes through untouched. Request
  // bodies are never inflated: the Crypto Pay webhook's signature covers the bytes as sent.
  await app.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
  });
  try {
    await installRateLimits(app, config.rateLimits, config);
  } catch (err) {
    // Redis did not answer: stop what has started (jobs, the bus) before refusing to start
    await app.close();
    if (!options.database) await database.close();
    throw err;
  }
  // one WebSocket server for every socket route (deposits, the live feed); a protocol error (a bad or
  // oversized frame) closes that socket, and the log gets a count now and then instead of a line each
  const socketErrors = new ThrottledWarning(app.log, 'socket protocol errors (bad or oversized frames)');
  await app.register(fastifyWebsocket, {
    options: { maxPayload: config.socketMaxMessageBytes },
    errorHandler: (error, socket) => {
      socketErrors.count(error);
      // ws has already sent the close frame with the reason (1009 too big, 1002 protocol error...)
      setTimeout(() => socket.terminate(), 1000).unref();
    },
  });
  app.addHook('onClose', async () => socketErrors.flush());
  // a socket path asked for as plain HTTP: say that it wants a WebSocket upgrade (426), in JSON
  app.addHook('onRequest', async (request, reply) => {
    if (
      request.ws === false &&
      (request.routeOptions.url === `${API_PREFIX}/ws` ||
        request.routeOptions.url?.startsWith(`${API_PREFIX}/ws/`))
    ) {
      void reply.header('upgrade', 'websocket');
      throw new HttpError(426, 'UPGRADE_REQUIRED', 'This is a WebSocket endpoint: connect with a WebSocket');
    }
  });

  await app.register(
    async (api) => {
      const typed = api as unknown as App;
      metaRoutes(typed, ctx);
      authRoutes(typed, ctx);
      userRoutes(typed, ctx);
      caseRoutes(typed, ctx);
      fairnessRoutes(typed, ctx);
      inventoryRoutes(typed, ctx, telegram);
      upgradeRoutes(typed, ctx);
      adminRoutes(typed, ctx);
      depositRoutes(typed, ctx, payments, telegram);
      depositSocketRoutes(typed, ctx);
      dropFeedRoutes(typed, ctx);
      battleRoutes(typed, ctx, battleClock);
      raceRoutes(typed, ctx);
      retentionRoutes(typed, ctx);
      battleSocketRoutes(typed, ctx.bus, config.socketMessagesPer10s);
      telegramRoutes(typed, ctx, telegram);
      // the app's one socket (feed, balance, deposits, battles); the three above serve apps loaded before it
      const appSockets = appSocketRoutes(typed, ctx);
      // event-loop delay, memory and sockets of this instance, for the operator (ADMIN_KEY) and the soak bench
      metricsRoutes(typed, ctx, appSockets);
    },
    { prefix: API_PREFIX },
  );
  tonconnectRoutes(app as unknown as App, ctx); // at the site root, beside the client

  await serveStatic(app, config);
  payments.start();
  // the battle clock and the race payout, each on the one instance holding its lease; a holder first pays
  // what a stopped server left
  await battleClock.start();
  await telegram.start();
  await retention.start(); // the daily invite share: pays what a stopped server left, then daily

  let closed = false;
  return {
    app,
    ctx,
    routes,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/**
 * Bodies are validated strictly (no type coercion, no unknown fields: a wrong type is an error, not a guess);
 * query strings and path parameters are text, so numbers there are coerced.
 */
function installValidation(app: App): void {
  const base = { allErrors: false, useDefaults: true, removeAdditional: false as const, strict: false };
  const strict = addFormats.default(new Ajv({ ...base, coerceTypes: false }));
  const coercing = addFormats.default(new Ajv({ ...base, coerceTypes: true }));
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'EMPTY_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
};

/** Every error leaves as JSON: {statusCode, error, code, message}. Server faults are logged, not shown. */
function installErrorHandling(app: App): void {
  // an overloaded database refuses many requests at once: a count every 10 s, not a line (and a stack) each
  const busy = new ThrottledWarning(app.log, 'database busy: requests answered 503', 10_000);
  app.addHook('onClose', async () => busy.flush());
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let status: number;
    let code: string;
    let message: string;
    let retryAfter: number | undefined;
    if (err instanceof HttpError) {
      status = err.statusCode;
      code = err.code;
      message = err.message;
      if (err instanceof RateLimitedError) {
        retryAfter = err.retryAfter;
        void reply.header('retry-after', String(retryAfter));
      }
    } else if (err.validation) {
      status = 400;
      code = 'VALIDATION_ERROR';
      message = err.message;
    } else if (err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      status = 400;
      code = 'INVALID_JSON';
      message = 'The request body is not valid JSON';
    } else if (isMissingPlayer(err) && typeof request.userId === 'bigint') {
      // a validly signed session of a player who does not exist (any more): what they referenced is missing
      status = 401;
      code = 'USER_UNKNOWN';
      message = 'The signed-in user does not exist';
    } else if (databaseBusy(err)) {
      // the pool stayed busy past its wait, or a statement ran past its limit: nothing was committed,
      // so the client may try again (the app does, with the same Idempotency-Key)
      busy.count(err);
      status = 503;
      code = 'SERVICE_BUSY';
      message = 'The server is busy; try again in a moment';
      retryAfter = 1;
      void reply.header('retry-after', '1');
    } else if (unstorableText(err)) {
      // text the edge checks let through that Postgres cannot store: the statement failed, its
      // transaction rolled back; the request was at fault, not the server
      request.log.warn({ err }, 'request text the database cannot store');
      status = 400;
      code = 'INVALID_TEXT';
      message = 'The request holds characters that cannot be stored';
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      code = FASTIFY_CODES[err.code] ?? 'BAD_REQUEST';
      message = err.message;
    } else {
      request.log.error({ err }, 'request failed');
      status = 500;
      code = 'INTERNAL';
      message = 'Something went wrong on our side; nothing was changed';
    }
    void reply
      .status(status)
      .send({ statusCode: status, error: reasonPhrase(status), code, message, retryAfter });
  });
}

/** A foreign-key violation (23503) naming a player that is not in the users table. */
function isMissingPlayer(err: { code?: string; constraint?: unknown; detail?: unknown }): boolean {
  if (err.code !== '23503') return false;
  const constraint = typeof err.constraint === 'string' ? err.constraint : '';
  const detail = typeof err.detail === 'string' ? err.detail : '';
  return /(^|_)(user|creator)_id_fkey$/.test(constraint) || detail.includes('table "users"');
}

/**
 * Postgres refused text it cannot store: a NUL byte in TEXT (22021 character_not_in_repertoire) or a
 * \u0000 escape in JSONB (22P05 untranslatable_character).
 */
function unstorableText(err: { code?: string }): boolean {
  return err.code === '22021' || err.code === '22P05';
}

/**
 * The database is overloaded rather than broken: no pooled connection came free in time (pg-pool), a
 * statement hit statement_timeout (57014), or the server has no connection slot left (53300).
 */
function databaseBusy(err: { message?: string; code?: string }): boolean {
  return (
    err.message === 'timeout exceeded when trying to connect' || err.code === '57014' || err.code === '53300'
  );
}

/** Fastify takes a hop count as a function: trust the nearest `hops` addresses. */
function trustProxyOption(
  trust: Config['trustProxy'],
): boolean | string[] | ((a: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Errors Node reports before a request reaches Fastify (a request not received in time, headers too
 * large, a malformed request): answered in the API's error shape, then the connection is closed.
 */
function clientErrorHandler(this: { log: FastifyBaseLogger }, err: NodeJS.ErrnoException, socket: Duplex) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'REQUEST_TIMEOUT', 'The request did not arrive in time']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'HEADERS_TOO_LARGE', 'The request headers are too large']
        : [400, 'BAD_REQUEST', 'The request could not be read'];
  this.log.debug({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ statusCode: status, error: reasonPhrase(status), code, message });
    socket.write(
      `HTTP/1.1 ${status} ${reasonPhrase(status)}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function reasonPhrase(status: number): string {
  const phrases: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    402: 'Payment Required',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Entity',
    408: 'Request Timeout',
    429: 'Too Many Requests',
    431: 'Request Header Fields Too Large',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
  };
  return phrases[status] ?? (status >= 500 ? 'Internal Server Error' : 'Error');
}

/** Serves item art at /assets, the built client (hashed files under /static) and index.html for app routes. */
async function serveStatic(app: App, config: Config): Promise<void> {
  if (existsSync(config.assetsDir)) {
    await app.register(fastifyStatic, {
      root: config.assetsDir,
      prefix: '/assets/',
      decorateReply: false,
      maxAge: '1d',
    });
  }
  const indexHtml = join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexHtml);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      prefix: '/',
      // a wildcard route looks files up per request, so a rebuild is served without a restart
      wildcard: true,
      index: ['index.html'],
      // the build writes .br and .gz beside every compressible file: sent as the client accepts them
      preCompressed: true,
      // the header below is the whole caching policy (send's own default would replace it)
      cacheControl: false,
      setHeaders(res, path) {
        // hashed bundles never change; everything else is revalidated
        res.setHeader(
          'cache-control',
          path.includes('/static/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith(API_PREFIX + '/') &&
      !path.startsWith('/assets/') &&
      !path.startsWith('/static/');
    if (isPage && hasClient) {
      // every page but the case list (/, index.html above) gets the page without the list's picture
      // preloads (a build before it had only index.html)
      const page = existsSync(join(config.clientDir, 'app.html')) ? 'app.html' : 'index.html';
      void reply.header('cache-control', 'no-cache').sendFile(page, config.clientDir);
      return;
    }
    const message = isPage
      ? 'The client is not built yet: run `npm run build` (npm start does it for you)'
      : `No such resource: ${request.method} ${path}`;
    void reply.status(404).send({ statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message });
  });
}
