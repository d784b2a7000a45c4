import { resolve } from 'node:path';
import { Address } from '@ton/core';
import { formatTon, NANO_PER_TON, tryParseTon } from '../contract/money.ts';
import { loadRetentionConfig, type RetentionConfig } from './retention/config.ts';

/** Server configuration, read from environment variables with safe defaults (see README for the table). */
export interface Config {
  /** HTTP port; 8080 by default. */
  port: number;
  host: string;
  /** Folder for the embedded database and other local state. */
  dataDir: string;
  /** A Postgres connection string; when empty, PGlite runs embedded in dataDir. */
  databaseUrl: string | null;
  /** Telegram bot token. When empty the server runs in demo mode with a generated token. */
  botToken: string | null;
  /** Secret for session tokens; generated and kept in the database when empty. */
  jwtSecret: string | null;
  /** Session token lifetime in seconds. */
  tokenTtlSeconds: number;
  /** How old Telegram launch data may be, in seconds (auth_date window). */
  initDataMaxAgeSeconds: number;
  /** Largest accepted request body in bytes. */
  bodyLimitBytes: number;
  /** Share of a case's price returned as expected value of its drops. */
  rtp: number;
  /** Starting balance of the demo user, in nanoTON (DEMO_BALANCE_TON: an exact TON amount). */
  demoBalanceNano: bigint;
  /** Upgrade odds at x1 (spec §9: 0.39); a roll succeeds with this / coef. In (0, 1], at most 6 decimals. */
  upgradeBaseChance: number;
  /**
   * Public URL of the app (the TON Connect manifest, links the server hands out). Never taken from a
   * request's Host header; when empty, http://localhost:<port> (see publicBaseUrl).
   */
  publicUrl: string | null;
  /**
   * Which proxies' X-Forwarded-* headers to believe (client address, protocol): false (none, the
   * default), true (any), a hop count, or a list of addresses and subnets (Fastify's trustProxy).
   */
  trustProxy: boolean | number | string[];
  /** Telegram Mini App link the wallet returns to (twaReturnUrl), e.g. https://t.me/your_bot/app. */
  twaReturnUrl: string | null;
  /** Folder of the built client; served when it exists. */
  clientDir: string;
  /** Folder of item and case art. */
  assetsDir: string;
  /** Least severe log level written (pino's: fatal, error, warn, info, debug, trace, silent). */
  logLevel: LogLevel;
  /** Whether the client's debug scene switcher (/debug) is on in production builds (GET /api/config). */
  debugScenes: boolean;
  /**
   * Key of the operator API (/api/admin/..., header x-admin-key), at least 16 characters. When empty the
   * operator API is off (404); the admin command line works either way.
   */
  adminKey: string | null;

  // ── deposits ──────────────────────────────────────────────────────────────
  /** Receiving wallet for TON deposits (user-friendly or raw form); TON deposits are off (or demo) when empty. */
  tonDepositAddress: string | null;
  /** toncenter API v3 base URL (mainnet by default; https://testnet.toncenter.com/api/v3 for testnet). */
  toncenterUrl: string;
  /** toncenter API key (X-Api-Key); without one toncenter allows about one request a second. */
  toncenterApiKey: string | null;
  /** How often the TON watcher asks toncenter for new incoming transactions, in ms. */
  tonPollIntervalMs: number;
  /** Transactions asked for per toncenter request (1..1000); the watcher pages through more. */
  tonPageLimit: number;
  /** Longest wait between toncenter requests after errors and rate limits (exponential backoff cap), in ms. */
  tonMaxBackoffMs: number;
  /** Crypto Pay (CryptoBot) API token; CryptoBot deposits are off (or demo) when empty. */
  cryptoPayToken: string | null;
  /** Crypto Pay API base URL (mainnet by default; https://testnet-pay.crypt.bot/api for testnet). */
  cryptoPayUrl: string;
  /** Asset of Crypto Pay invoices. Balances are kept in TON, so only TON is accepted. */
  cryptoPayAsset: string;
  /** Demo deposits (demo mode without the real provider): delay before the credit lands, in ms. */
  demoDepositDelayMs: number;
  /** How long a new authenticated socket (deposits) has to send its auth message, in ms. */
  socketAuthTimeoutMs: number;

  // ── battles and the wager race ────────────────────────────────────────────
  /** An open battle nobody fills in this time is cancelled and refunded, in seconds (10 minutes). */
  battleLobbyTimeoutSeconds: number;
  /** Time between two battle rounds' reveals (a reel spin and a pause), in ms; items are paid after the last. */
  battleRoundMs: number;
  /** How often expired battles, battles due for payment and finished races are looked for, in ms. */
  gamesSweepMs: number;
  /** Length of one wager race, in seconds (a day by default); races follow one another from the Unix epoch. */
  racePeriodSeconds: number;
  /** Race prizes by place in nanoTON (RACE_PRIZES_TON: comma-separated TON amounts, first place first). */
  racePrizesNano: bigint[];
  // ── the Telegram bot: gifts, notifications (server/telegram/) ────────────
  /** The bot runs (updates, messages, gift delivery) when a BOT_TOKEN is set, unless TELEGRAM_BOT=off. */
  telegramBot: boolean;
  /** Bot API base URL (a local Bot API server, or a stand-in in tests); https://api.telegram.org by default. */
  telegramApiRoot: string;
  /** Longest a Bot API call may take before it is given up (its outcome then counts as unknown), in seconds. */
  telegramTimeoutSeconds: number;
  /** The operator's business connection id: the only one whose gifts are trusted; gift deposits off when empty. */
  telegramBusinessConnectionId: string | null;
  /** The operator's Telegram account players send gifts to, shown in the deposit sheet (a @username). */
  telegramGiftAccount: string | null;
  /** The operator is alerted when the bot's Stars balance falls below this. */
  telegramStarsLow: number;
  /** The operator is alerted when fewer gifts than this of a mapped collection are left to transfer. */
  telegramStockLow: number;
  /** How often the outbox and the delivery worker look for work, in ms (a withdrawal also wakes them). */
  telegramWorkMs: number;
  /** How often the business account's gifts are read for deposits besides the updates that announce them, ms. */
  telegramGiftScanMs: number;
  /** Demo mode: how long a simulated gift delivery takes, in ms. */
  demoGiftDelayMs: number;

  // ── retention: the daily wheel's prizes, the rank table, the invite share (server/retention/config.ts)
  retention: RetentionConfig;
  // ── limits and timeouts ───────────────────────────────────────────────────
  /** Rate limits (requests per window; 0 turns one off). See server/limits.ts. */
  rateLimits: RateLimits;
  /** Time to receive a whole request (headers and body), in ms; a slower one gets 408 and is cut off. */
  requestTimeoutMs: number;
  /** Time to receive a request's headers, in ms (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** A connection with no traffic for this long is closed, in ms. */
  connectionTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long, in ms. */
  keepAliveTimeoutMs: number;
  /** Largest socket message accepted, in bytes; a larger one closes the socket (1009). */
  socketMaxMessageBytes: number;
  /** Socket messages one socket may send per 10 s; past it the socket is closed (1008). */
  socketMessagesPer10s: number;
  /** On SIGTERM/SIGINT, how long in-flight requests may take to finish before the process stops anyway, in ms. */
  shutdownTimeoutMs: number;

  // ── database pool (Postgres) ──────────────────────────────────────────────
  /** Connections in the Postgres pool. */
  dbPoolMax: number;
  /** Longest wait for a Postgres connection (new or from the pool), in ms. */
  dbConnectionTimeoutMs: number;
  /** Longest a single SQL statement may run on Postgres, in ms (statement_timeout). */
  dbStatementTimeoutMs: number;

  // ── several instances (jobs under leases, shared rate limits) ─────────────
  /**
   * How long a background job's lease lasts unless its holder renews it, in ms (server/jobs/lease.ts): the
   * holder renews every third of it, and another instance takes a job over within about this long after
   * its holder dies. Postgres only; on PGlite the one process holds every lease.
   */
  jobLeaseTtlMs: number;
  /** Redis for the rate limits shared by every instance (redis://...); counted in memory when empty. */
  redisUrl: string | null;
  /** Prefix of the rate limits' keys in Redis (several deployments can share one Redis). */
  redisPrefix: string;
}

/** Requests allowed per window by each limit; 0 turns that limit off. */
export interface RateLimits {
  /** the window, in ms */
  windowMs: number;
  /** every API request from one address */
  apiPerAddress: number;
  /** sign-ins from one address */
  signInPerAddress: number;
  /** openings and money requests (sell, withdraw, upgrade, deposits, seeds) of one player */
  moneyPerPlayer: number;
  /** openings and money requests from one address */
  moneyPerAddress: number;
  /** socket connections (live feed, deposits) from one address */
  socketsPerAddress: number;
}

/** pino's levels, most severe first, and 'silent' (nothing). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** The app's public base URL (no trailing slash): PUBLIC_URL, else http://localhost:<port>. */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

/**
 * The configuration could not be read: every problem found, one a line, each naming its variable and what
 * it accepts. The server prints the message and exits without starting (no stack trace: nothing is broken
 * in the code, the environment needs a fix).
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The server cannot start: ${problems.length === 1 ? 'a setting is' : `${problems.length} settings are`} ` +
        `not valid (see the configuration table in README.md).\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** Longest delay a Node timer keeps (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const ADMIN_KEY_MIN_LENGTH = 16;
const JWT_SECRET_MIN_LENGTH = 32;

interface IntRange {
  min?: number;
  max?: number;
  /** what a value means, for the message: "milliseconds", "seconds", "bytes" */
  unit?: string;
}

/**
 * Reads environment variables and collects every problem instead of stopping at the first, so an operator
 * sees all of them in one start. A setting with a problem yields its default, which is never used: the
 * problems are thrown together at the end of loadConfig.
 */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The variable's text, trimmed; undefined when unset or blank (blank means "the default"). */
  raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value ? value : undefined;
  }

  /** Records a problem: `NAME must be <accepts>, got "<raw>"`. */
  fail(name: string, accepts: string, raw?: string): void {
    this.problems.push(
      `${name} must be ${accepts}${raw === undefined ? '' : `, got ${JSON.stringify(raw)}`}`,
    );
  }

  /** Free text (a token, a key, a host name); null when unset. */
  text(name: string): string | null {
    return this.raw(name) ?? null;
  }

  /** A whole number written in digits (no sign, fraction or exponent) within [min, max]. */
  int(
    name: string,
    fallback: number,
    { min = 0, max = Number.MAX_SAFE_INTEGER, unit }: IntRange = {},
  ): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
    if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    this.fail(name, `a whole number ${range}${unit ? ` (${unit})` : ''}`, raw);
    return fallback;
  }

  /** A duration in milliseconds for a timer: from `min` up to what a Node timer keeps. */
  ms(name: string, fallback: number, min = 1): number {
    return this.int(name, fallback, { min, max: MAX_TIMER_MS, unit: 'milliseconds' });
  }

  /** A duration in seconds that becomes a timer somewhere (so at most MAX_TIMER_MS / 1000). */
  seconds(name: string, fallback: number, min = 1): number {
    return this.int(name, fallback, { min, max: Math.floor(MAX_TIMER_MS / 1000), unit: 'seconds' });
  }

  /** A decimal in (0, 1] with at most `decimals` places (a share or a probability), read exactly. */
  share(name: string, fallback: number, decimals: number): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = new RegExp(`^(0|1)?(\\.\\d{1,${decimals}})?$`).test(raw) && raw !== '.' ? Number(raw) : NaN;
    if (value > 0 && value <= 1) return value;
    this.fail(
      name,
      `a decimal number above 0 and at most 1, with up to ${decimals} decimal places (e.g. 0.9)`,
      raw,
    );
    return fallback;
  }

  /** On or off: 1/0, true/false, yes/no, on/off (any case). */
  bool(name: string, fallback: boolean): boolean {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    this.fail(name, 'a boolean: 1, true, yes, on or 0, false, no, off', raw);
    return fallback;
  }

  /** One of a fixed list of words (case-insensitive; the list's spelling is returned). */
  oneOf<T extends string>(name: string, fallback: T, choices: readonly T[]): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const found = choices.find((c) => c.toLowerCase() === raw.toLowerCase());
    if (found !== undefined) return found;
    this.fail(name, `one of ${choices.join(', ')}`, raw);
    return fallback;
  }

  /** An absolute URL with one of the given protocols, without a trailing slash. */
  url(name: string, fallback: string, protocols = ['http:', 'https:']): string {
    return this.optionalUrl(name, protocols) ?? fallback;
  }

  optionalUrl(name: string, protocols = ['http:', 'https:']): string | null {
    const raw = this.raw(name);
    if (raw === undefined) return null;
    const parsed = URL.canParse(raw) ? new URL(raw) : null;
    if (parsed && protocols.includes(parsed.protocol) && parsed.host !== '') return raw.replace(/\/+$/, '');
    const kinds = protocols.map((p) => p.replace(/:$/, '')).join(' or ');
    this.fail(name, `an absolute ${kinds} URL (e.g. ${kinds.split(' ')[0]}://host.example/...)`, raw);
    return null;
  }

  /** An exact TON amount (up to 9 decimal places, "3.97"), as integer nanoTON. */
  ton(name: string, fallback: bigint): bigint {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const nano = /^\d*\.?\d*$/.test(raw) ? tryParseTon(raw) : null;
    if (nano !== null) return nano;
    this.fail(name, 'an amount of TON: a non-negative decimal with up to 9 decimal places (e.g. 3.97)', raw);
    return fallback;
  }

  /** Comma-separated exact TON amounts, at least one and at most `max`. */
  tonList(name: string, fallback: bigint[], max: number): bigint[] {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const parts = raw.split(',').map((p) => p.trim());
    const amounts = parts.map((p) => (/^\d*\.?\d*$/.test(p) ? tryParseTon(p) : null));
    if (parts.length <= max && amounts.every((a) => a !== null)) return amounts as bigint[];
    this.fail(
      name,
      `1 to ${max} TON amounts separated by commas, each a non-negative decimal with up to 9 decimal places ` +
        `(e.g. ${fallback.map(formatTon).join(',')})`,
      raw,
    );
    return fallback;
  }

  /** A TON address, user-friendly or raw (0:<64 hex>). */
  tonAddress(name: string): string | null {
    const raw = this.raw(name);
    if (raw === undefined) return null;
    try {
      Address.parse(raw);
      return raw;
    } catch {
      this.fail(name, 'a TON address (user-friendly like EQ..., UQ..., or raw 0:<64 hex>)', raw);
      return null;
    }
  }

  /** Text of at least `min` characters; the value itself is a secret and never printed. */
  secret(name: string, min: number): string | null {
    const raw = this.raw(name);
    if (raw === undefined) return null;
    if (raw.length >= min) return raw;
    this.fail(name, `at least ${min} characters long (it has ${raw.length})`);
    return null;
  }
}

/** BOT_TOKEN: Telegram's form <bot id>:<secret>; the value itself is never printed. */
function botToken(read: EnvReader): string | null {
  const raw = read.raw('BOT_TOKEN');
  if (raw === undefined) return null;
  if (/^\d{1,20}:[A-Za-z0-9_-]{20,}$/.test(raw)) return raw;
  read.fail(
    'BOT_TOKEN',
    "a Telegram bot token as @BotFather gives it (<digits>:<letters, digits, '_' and '-'>)",
  );
  return null;
}

/** DATABASE_URL: a Postgres connection string (postgres://user:password@host:5432/db); the value may hold a password. */
function databaseUrl(read: EnvReader): string | null {
  const raw = read.raw('DATABASE_URL');
  if (raw === undefined) return null;
  const parsed = URL.canParse(raw) ? new URL(raw) : null;
  if (parsed && ['postgres:', 'postgresql:', 'socket:'].includes(parsed.protocol)) return raw;
  read.fail('DATABASE_URL', 'a Postgres connection string (postgres://user:password@host:5432/database)');
  return null;
}

/** TRUST_PROXY: true/false, a hop count, or comma-separated addresses and subnets (or loopback, ...). */
function trustProxy(read: EnvReader): Config['trustProxy'] {
  const raw = read.raw('TRUST_PROXY');
  if (raw === undefined || /^(false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return read.int('TRUST_PROXY', 0, { min: 0, max: 100 });
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = list.find(
    (part) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(part),
  );
  if (bad !== undefined) {
    read.fail('TRUST_PROXY', 'true, false, a hop count or addresses/subnets separated by commas', bad);
    return false;
  }
  return list;
}

/** Default race prizes by place (10, 5, 3, 2, 1, 1 TON). */
const RACE_PRIZES_DEFAULT = [10n, 5n, 3n, 2n, 1n, 1n].map((ton) => ton * NANO_PER_TON);

/**
 * Reads and checks every setting. A value that is not valid is never guessed at or clamped: all problems
 * are thrown together as one ConfigError. `overrides` (tests) replace settings after the checks.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const read = new EnvReader(env);
  const requestTimeoutMs = read.ms('REQUEST_TIMEOUT_MS', 15_000);
  const cryptoPayAsset = read.raw('CRYPTOPAY_ASSET')?.toUpperCase() ?? 'TON';
  if (cryptoPayAsset !== 'TON') {
    read.fail(
      'CRYPTOPAY_ASSET',
      'TON (balances are kept in TON and no exchange rate is applied)',
      cryptoPayAsset,
    );
  }
  const config: Config = {
    port: read.int('PORT', 8080, { min: 0, max: 65_535 }),
    host: read.text('HOST') ?? '0.0.0.0',
    dataDir: resolve(read.text('DATA_DIR') ?? 'data'),
    databaseUrl: databaseUrl(read),
    botToken: botToken(read),
    jwtSecret: read.secret('JWT_SECRET', JWT_SECRET_MIN_LENGTH),
    tokenTtlSeconds: read.int('TOKEN_TTL_SECONDS', 7 * 24 * 3600, { min: 60, unit: 'seconds' }),
    initDataMaxAgeSeconds: read.int('INIT_DATA_MAX_AGE_SECONDS', 24 * 3600, { min: 1, unit: 'seconds' }),
    bodyLimitBytes: read.int('BODY_LIMIT_BYTES', 64 * 1024, {
      min: 1024,
      max: 64 * 1024 * 1024,
      unit: 'bytes',
    }),
    rtp: read.share('RTP', 0.9, 6),
    demoBalanceNano: read.ton('DEMO_BALANCE_TON', 100n * NANO_PER_TON),
    upgradeBaseChance: read.share('UPGRADE_BASE_CHANCE', 0.39, 6),
    publicUrl: read.optionalUrl('PUBLIC_URL'),
    trustProxy: trustProxy(read),
    twaReturnUrl: read.optionalUrl('TWA_RETURN_URL', ['https:', 'http:', 'tg:']),
    clientDir: resolve(read.text('CLIENT_DIR') ?? 'dist'),
    assetsDir: resolve(read.text('ASSETS_DIR') ?? 'assets'),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    debugScenes: read.bool('DEBUG_SCENES', false),
    adminKey: read.secret('ADMIN_KEY', ADMIN_KEY_MIN_LENGTH),
    tonDepositAddress: read.tonAddress('TON_DEPOSIT_ADDRESS'),
    toncenterUrl: read.url('TONCENTER_URL', 'https://toncenter.com/api/v3'),
    toncenterApiKey: read.text('TONCENTER_API_KEY'),
    tonPollIntervalMs: read.ms('TON_POLL_INTERVAL_MS', 5000),
    tonPageLimit: read.int('TON_PAGE_LIMIT', 100, { min: 1, max: 1000 }),
    tonMaxBackoffMs: read.ms('TON_MAX_BACKOFF_MS', 60_000),
    cryptoPayToken: read.text('CRYPTOPAY_TOKEN'),
    cryptoPayUrl: read.url('CRYPTOPAY_URL', 'https://pay.crypt.bot/api'),
    cryptoPayAsset,
    demoDepositDelayMs: read.ms('DEMO_DEPOSIT_DELAY_MS', 3000, 0),
    socketAuthTimeoutMs: read.ms('SOCKET_AUTH_TIMEOUT_MS', 10_000),
    battleLobbyTimeoutSeconds: read.seconds('BATTLE_LOBBY_TIMEOUT_SECONDS', 600),
    battleRoundMs: read.ms('BATTLE_ROUND_MS', 4000, 0),
    // below 100 ms the sweeps would keep the database busy for nothing
    gamesSweepMs: read.ms('GAMES_SWEEP_MS', 5000, 100),
    racePeriodSeconds: read.seconds('RACE_PERIOD_SECONDS', 86_400),
    racePrizesNano: read.tonList('RACE_PRIZES_TON', RACE_PRIZES_DEFAULT, 100),
    telegramBot: read.bool('TELEGRAM_BOT', true),
    telegramApiRoot: read.url('TELEGRAM_API_ROOT', 'https://api.telegram.org'),
    telegramTimeoutSeconds: read.seconds('TELEGRAM_TIMEOUT_SECONDS', 30),
    telegramBusinessConnectionId: read.text('TELEGRAM_BUSINESS_CONNECTION_ID'),
    telegramGiftAccount: read.text('TELEGRAM_GIFT_ACCOUNT'),
    telegramStarsLow: read.int('TELEGRAM_STARS_LOW', 500),
    telegramStockLow: read.int('TELEGRAM_STOCK_LOW', 3),
    telegramWorkMs: read.ms('TELEGRAM_WORK_MS', 2000, 50),
    telegramGiftScanMs: read.ms('TELEGRAM_GIFT_SCAN_MS', 60_000, 1000),
    demoGiftDelayMs: read.ms('DEMO_GIFT_DELAY_MS', 3000, 0),
    retention: readRetention(read, env),
    rateLimits: {
      windowMs: read.ms('RATE_LIMIT_WINDOW_MS', 60_000),
      apiPerAddress: read.int('RATE_LIMIT_API_PER_ADDRESS', 1200),
      signInPerAddress: read.int('RATE_LIMIT_SIGNIN_PER_ADDRESS', 30),
      moneyPerPlayer: read.int('RATE_LIMIT_MONEY_PER_PLAYER', 120),
      moneyPerAddress: read.int('RATE_LIMIT_MONEY_PER_ADDRESS', 600),
      socketsPerAddress: read.int('RATE_LIMIT_SOCKETS_PER_ADDRESS', 60),
    },
    requestTimeoutMs,
    headersTimeoutMs: Math.min(read.ms('HEADERS_TIMEOUT_MS', 10_000), requestTimeoutMs),
    connectionTimeoutMs: read.ms('CONNECTION_TIMEOUT_MS', 60_000),
    keepAliveTimeoutMs: read.ms('KEEP_ALIVE_TIMEOUT_MS', 72_000),
    socketMaxMessageBytes: read.int('SOCKET_MAX_MESSAGE_BYTES', 8192, {
      min: 256,
      max: 16 * 1024 * 1024,
      unit: 'bytes',
    }),
    socketMessagesPer10s: read.int('SOCKET_MESSAGES_PER_10S', 20, { min: 1 }),
    shutdownTimeoutMs: read.ms('SHUTDOWN_TIMEOUT_MS', 10_000),
    dbPoolMax: read.int('DB_POOL_MAX', 10, { min: 1, max: 1000 }),
    dbConnectionTimeoutMs: read.ms('DB_CONNECTION_TIMEOUT_MS', 10_000),
    dbStatementTimeoutMs: read.ms('DB_STATEMENT_TIMEOUT_MS', 15_000),
    jobLeaseTtlMs: read.ms('JOB_LEASE_TTL_MS', 10_000, 300),
    redisUrl: readRedisUrl(read),
    redisPrefix: read.text('REDIS_PREFIX') ?? 'giftcases:rate:',
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return { ...config, ...overrides };
}

/** The retention settings (server/retention/config.ts); a bad one is one more problem in the list. */
function readRetention(read: EnvReader, env: NodeJS.ProcessEnv): RetentionConfig {
  try {
    return loadRetentionConfig(env);
  } catch (error) {
    read.problems.push(error instanceof Error ? error.message : String(error));
    return loadRetentionConfig({});
  }
}

/** REDIS_URL: a redis:// or rediss:// URL, or unset for rate limits counted in memory (never echoed: it may hold a password). */
function readRedisUrl(read: EnvReader): string | null {
  const value = read.raw('REDIS_URL');
  if (value === undefined) return null;
  try {
    const { protocol } = new URL(value);
    if (protocol === 'redis:' || protocol === 'rediss:') return value;
  } catch {
    // not a URL: refused below
  }
  read.fail('REDIS_URL', 'a redis:// or rediss:// URL');
  return null;
}
