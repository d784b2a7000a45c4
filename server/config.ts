import { resolve } from 'node:path';
import { Address } from '@ton/core';
import { tryParseTon } from '../contract/money.ts';
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
  /** Starting balance of the demo user, in TON. */
  demoBalanceTon: number;
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
  logLevel: string;
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

/** The app's public base URL (no trailing slash): PUBLIC_URL, else http://localhost:<port>. */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'port'>): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** A whole number above zero (timeouts, sizes, pool size: zero would mean "none" or "never"). */
function positive(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const n = int(name, fallback, env);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number above 0, got "${env[name]}"`);
  return n;
}

function str(name: string, env: NodeJS.ProcessEnv): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

function url(name: string, fallback: string, env: NodeJS.ProcessEnv): string {
  const raw = str(name, env) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function tonAddress(name: string, env: NodeJS.ProcessEnv): string | null {
  const raw = str(name, env);
  if (raw === null) return null;
  try {
    Address.parse(raw);
  } catch {
    throw new Error(`${name} must be a TON address (user-friendly or raw 0:<64 hex>), got "${raw}"`);
  }
  return raw;
}

/** TRUST_PROXY: true/false, a hop count, or comma-separated addresses and subnets (or loopback, ...). */
function trustProxy(env: NodeJS.ProcessEnv): Config['trustProxy'] {
  const raw = str('TRUST_PROXY', env);
  if (raw === null || /^(false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const bad = list.find(
    (part) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$|^(loopback|linklocal|uniquelocal)$/.test(part),
  );
  if (bad !== undefined) {
    throw new Error(
      `TRUST_PROXY must be true, false, a hop count or addresses/subnets separated by commas, got "${bad}"`,
    );
  }
  return list;
}

function publicUrl(env: NodeJS.ProcessEnv): string | null {
  if (str('PUBLIC_URL', env) === null) return null;
  return url('PUBLIC_URL', '', env);
}

const ADMIN_KEY_MIN_LENGTH = 16;

function adminKey(env: NodeJS.ProcessEnv): string | null {
  const raw = str('ADMIN_KEY', env);
  if (raw !== null && raw.length < ADMIN_KEY_MIN_LENGTH) {
    throw new Error(`ADMIN_KEY must be at least ${ADMIN_KEY_MIN_LENGTH} characters long`);
  }
  return raw;
}

function racePrizes(env: NodeJS.ProcessEnv): bigint[] {
  const raw = str('RACE_PRIZES_TON', env) ?? '10,5,3,2,1,1';
  const parts = raw.split(',').map((p) => p.trim());
  const prizes = parts.map((p) => tryParseTon(p));
  if (parts.length > 100 || prizes.some((p) => p === null)) {
    throw new Error(`RACE_PRIZES_TON must be up to 100 comma-separated TON amounts, got "${raw}"`);
  }
  return prizes as bigint[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const rtp = int('RTP', 0.9, env);
  if (rtp <= 0 || rtp > 1) throw new Error('RTP must be in (0, 1]');
  const upgradeBaseChance = int('UPGRADE_BASE_CHANCE', 0.39, env);
  if (
    !(upgradeBaseChance > 0 && upgradeBaseChance <= 1) ||
    !/^\d*(\.\d{0,6})?$/.test(String(upgradeBaseChance))
  ) {
    throw new Error('UPGRADE_BASE_CHANCE must be a number in (0, 1] with at most 6 decimals');
  }
  const tonPageLimit = int('TON_PAGE_LIMIT', 100, env);
  if (!Number.isInteger(tonPageLimit) || tonPageLimit < 1 || tonPageLimit > 1000) {
    throw new Error('TON_PAGE_LIMIT must be an integer from 1 to 1000');
  }
  const requestTimeoutMs = positive('REQUEST_TIMEOUT_MS', 15_000, env);
  const cryptoPayAsset = (str('CRYPTOPAY_ASSET', env) ?? 'TON').toUpperCase();
  if (cryptoPayAsset !== 'TON') {
    throw new Error('CRYPTOPAY_ASSET must be TON: balances are kept in TON and no exchange rate is applied');
  }
  const racePeriodSeconds = int('RACE_PERIOD_SECONDS', 86_400, env);
  if (!Number.isInteger(racePeriodSeconds) || racePeriodSeconds < 1) {
    throw new Error('RACE_PERIOD_SECONDS must be a positive whole number of seconds');
  }
  return {
    port: int('PORT', 8080, env),
    host: str('HOST', env) ?? '0.0.0.0',
    dataDir: resolve(str('DATA_DIR', env) ?? 'data'),
    databaseUrl: str('DATABASE_URL', env),
    botToken: str('BOT_TOKEN', env),
    jwtSecret: str('JWT_SECRET', env),
    tokenTtlSeconds: int('TOKEN_TTL_SECONDS', 7 * 24 * 3600, env),
    initDataMaxAgeSeconds: int('INIT_DATA_MAX_AGE_SECONDS', 24 * 3600, env),
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 64 * 1024, env),
    rtp,
    demoBalanceTon: int('DEMO_BALANCE_TON', 100, env),
    upgradeBaseChance,
    publicUrl: publicUrl(env),
    trustProxy: trustProxy(env),
    twaReturnUrl: str('TWA_RETURN_URL', env),
    clientDir: resolve(str('CLIENT_DIR', env) ?? 'dist'),
    assetsDir: resolve(str('ASSETS_DIR', env) ?? 'assets'),
    logLevel: str('LOG_LEVEL', env) ?? 'info',
    debugScenes: ['1', 'true'].includes(str('DEBUG_SCENES', env)?.toLowerCase() ?? ''),
    adminKey: adminKey(env),
    tonDepositAddress: tonAddress('TON_DEPOSIT_ADDRESS', env),
    toncenterUrl: url('TONCENTER_URL', 'https://toncenter.com/api/v3', env),
    toncenterApiKey: str('TONCENTER_API_KEY', env),
    tonPollIntervalMs: int('TON_POLL_INTERVAL_MS', 5000, env),
    tonPageLimit,
    tonMaxBackoffMs: int('TON_MAX_BACKOFF_MS', 60_000, env),
    cryptoPayToken: str('CRYPTOPAY_TOKEN', env),
    cryptoPayUrl: url('CRYPTOPAY_URL', 'https://pay.crypt.bot/api', env),
    cryptoPayAsset,
    demoDepositDelayMs: int('DEMO_DEPOSIT_DELAY_MS', 3000, env),
    socketAuthTimeoutMs: int('SOCKET_AUTH_TIMEOUT_MS', 10_000, env),
    battleLobbyTimeoutSeconds: int('BATTLE_LOBBY_TIMEOUT_SECONDS', 600, env),
    battleRoundMs: int('BATTLE_ROUND_MS', 4000, env),
    gamesSweepMs: Math.max(100, int('GAMES_SWEEP_MS', 5000, env)),
    racePeriodSeconds,
    racePrizesNano: racePrizes(env),
    retention: loadRetentionConfig(env),
    rateLimits: {
      windowMs: positive('RATE_LIMIT_WINDOW_MS', 60_000, env),
      apiPerAddress: int('RATE_LIMIT_API_PER_ADDRESS', 1200, env),
      signInPerAddress: int('RATE_LIMIT_SIGNIN_PER_ADDRESS', 30, env),
      moneyPerPlayer: int('RATE_LIMIT_MONEY_PER_PLAYER', 120, env),
      moneyPerAddress: int('RATE_LIMIT_MONEY_PER_ADDRESS', 600, env),
      socketsPerAddress: int('RATE_LIMIT_SOCKETS_PER_ADDRESS', 60, env),
    },
    requestTimeoutMs,
    headersTimeoutMs: Math.min(positive('HEADERS_TIMEOUT_MS', 10_000, env), requestTimeoutMs),
    connectionTimeoutMs: positive('CONNECTION_TIMEOUT_MS', 60_000, env),
    keepAliveTimeoutMs: positive('KEEP_ALIVE_TIMEOUT_MS', 72_000, env),
    socketMaxMessageBytes: positive('SOCKET_MAX_MESSAGE_BYTES', 8192, env),
    socketMessagesPer10s: positive('SOCKET_MESSAGES_PER_10S', 20, env),
    shutdownTimeoutMs: positive('SHUTDOWN_TIMEOUT_MS', 10_000, env),
    dbPoolMax: positive('DB_POOL_MAX', 10, env),
    dbConnectionTimeoutMs: positive('DB_CONNECTION_TIMEOUT_MS', 10_000, env),
    dbStatementTimeoutMs: positive('DB_STATEMENT_TIMEOUT_MS', 15_000, env),
    ...overrides,
  };
}
