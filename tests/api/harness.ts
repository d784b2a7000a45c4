import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sign } from '@telegram-apps/init-data-node';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { openDatabase, type OpenedDatabase, type PoolOptions } from '../../server/db/index.ts';

/**
 * Real servers on real databases for the API tests. PGlite in memory by default; with TEST_DATABASE_URL
 * (or DATABASE_URL) set, each database() is a fresh Postgres database created for the test and dropped after.
 */
export const postgresUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || null;

export const BOT_TOKEN = '1234567890:TEST_bot_token_for_api_tests_only_x';

export interface TestDatabase {
  database: OpenedDatabase;
  /** connection string of the temporary Postgres database, null on PGlite */
  url: string | null;
  drop(): Promise<void>;
}

export async function createTestDatabase(
  baseUrl: string | null = postgresUrl,
  pool?: Partial<PoolOptions>,
): Promise<TestDatabase> {
  if (!baseUrl) {
    const database = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    return { database, url: null, drop: () => database.close() };
  }
  const name = `giftcases_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), pgliteDir: '', pool });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      // the pool's end() resolves before its connections have hung up; a forced drop would kill the
      // stragglers and their clients would throw after the test, so wait (briefly) for them to go
      for (let i = 0; i < 50; i++) {
        const { rows } = await c.query<{ n: string }>(
          'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (rows[0]?.n === '0') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Tests send many requests from one address and player, so the rate limits are off unless a test turns
 * them on (tests/api/limits.test.ts does).
 */
export const RATE_LIMITS_OFF: NodeJS.ProcessEnv = {
  RATE_LIMIT_API_PER_ADDRESS: '0',
  RATE_LIMIT_SIGNIN_PER_ADDRESS: '0',
  RATE_LIMIT_MONEY_PER_PLAYER: '0',
  RATE_LIMIT_MONEY_PER_ADDRESS: '0',
  RATE_LIMIT_SOCKETS_PER_ADDRESS: '0',
};

/**
 * Rank rewards change balances, inventories and nonces as openings cross the thresholds, so they are off
 * (same thresholds, no rewards) unless a test turns them on (tests/api/retention.test.ts does).
 */
const RANK_REWARDS_OFF: NodeJS.ProcessEnv = {
  RANK_TABLE: '1:none,5:none,15:none,40:none,100:none,250:none',
};

export interface TestServer {
  built: BuiltApp;
  baseUrl: string;
  config: Config;
  /** a fetch against /api with JSON in and out; never throws on HTTP errors */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; rawBody?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T }>;
  /** signs launch data for a user, logs in and returns the token */
  login(user?: Partial<LaunchUser>): Promise<string>;
  close(): Promise<void>;
}

export interface LaunchUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  /** the player allowed the bot to write to them */
  allows_write_to_pm?: boolean;
}

export function signLaunchData(
  user: Partial<LaunchUser> = {},
  botToken = BOT_TOKEN,
  authDate = new Date(),
  startParam?: string,
): string {
  const full = { id: 5000 + Math.floor(Math.random() * 1e6), first_name: 'Test', ...user };
  const data = { user: full, ...(startParam ? { start_param: startParam } : {}) };
  return sign(data as Parameters<typeof sign>[0], botToken, authDate);
}

/** Starts a server in-process on a random port. Pass `database` to share one between instances. */
export async function startServer(
  options: { database?: OpenedDatabase; config?: Partial<Config>; env?: NodeJS.ProcessEnv } = {},
): Promise<TestServer> {
  const config = loadConfig(
    {
      BOT_TOKEN,
      JWT_SECRET: 'test-secret-test-secret-test-secret',
      LOG_LEVEL: 'silent',
      // no bot against the real Telegram: the bot's tests point it at the stand-in (tests/stand-ins/telegram.ts)
      TELEGRAM_BOT: 'off',
      ...RATE_LIMITS_OFF,
      ...RANK_REWARDS_OFF,
      ...options.env,
    },
    { port: 0, host: '127.0.0.1', clientDir: '/nonexistent', ...options.config },
  );
  const owned = options.database ? null : await createTestDatabase();
  const database = options.database ?? owned!.database;
  const built = await buildApp(config, { database, logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const address = built.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  const call: TestServer['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}/api${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { nonJson: text };
    }
    return { status: res.status, body: parsed as never };
  };

  return {
    built,
    baseUrl,
    config,
    call,
    async login(user = {}) {
      const res = await call<{ token: string }>('POST', '/auth/login', {
        body: { initData: signLaunchData(user) },
      });
      if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token;
    },
    async close() {
      await built.close();
      await owned?.drop();
    },
  };
}

/** Sets a user's balance directly in the database (test setup only), with a ledger row like any change. */
export async function setBalance(
  server: { built: { ctx: { db: OpenedDatabase['db'] } } },
  userId: number | bigint,
  balanceNano: bigint,
): Promise<void> {
  await server.built.ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select('balance_nano')
      .where('id', '=', BigInt(userId))
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('users')
      .set({ balance_nano: balanceNano })
      .where('id', '=', BigInt(userId))
      .execute();
    await trx
      .insertInto('ledger')
      .values({
        user_id: BigInt(userId),
        delta_nano: balanceNano - before.balance_nano,
        balance_after_nano: balanceNano,
        kind: 'test_setup',
        ref: null,
        external_id: null,
      })
      .execute();
  });
}

/** Adds items to a player's inventory directly in the database (test setup only). */
export async function grantItems(
  server: TestServer,
  userId: number,
  items: Record<string, number>,
): Promise<void> {
  const db = server.built.ctx.db;
  for (const [itemId, quantity] of Object.entries(items)) {
    await db
      .insertInto('inventory')
      .values({ user_id: BigInt(userId), item_id: itemId, quantity })
      .onConflict((oc) =>
        oc.columns(['user_id', 'item_id']).doUpdateSet((eb) => ({
          quantity: eb('inventory.quantity', '+', eb.ref('excluded.quantity')),
        })),
      )
      .execute();
  }
}
