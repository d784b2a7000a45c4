import { resolve } from 'node:path';

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
  /** Public URL of the app (for the TON Connect manifest); derived from the request when empty. */
  publicUrl: string | null;
  /** Telegram Mini App link the wallet returns to (twaReturnUrl), e.g. https://t.me/your_bot/app. */
  twaReturnUrl: string | null;
  /** Folder of the built client; served when it exists. */
  clientDir: string;
  /** Folder of item and case art. */
  assetsDir: string;
  logLevel: string;
}

function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

function str(name: string, env: NodeJS.ProcessEnv): string | null {
  const raw = env[name]?.trim();
  return raw ? raw : null;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const rtp = int('RTP', 0.9, env);
  if (rtp <= 0 || rtp > 1) throw new Error('RTP must be in (0, 1]');
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
    publicUrl: str('PUBLIC_URL', env),
    twaReturnUrl: str('TWA_RETURN_URL', env),
    clientDir: resolve(str('CLIENT_DIR', env) ?? 'dist'),
    assetsDir: resolve(str('ASSETS_DIR', env) ?? 'assets'),
    logLevel: str('LOG_LEVEL', env) ?? 'info',
    ...overrides,
  };
}
