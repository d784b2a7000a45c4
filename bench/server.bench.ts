// Server throughput and latency of the hot paths (catalogue read, case opening) over real HTTP, on embedded
// PGlite and, when a Postgres server is reachable, on Postgres, measured in the same run so the ratio holds.
//
// The server runs in a process of its own (server/main.ts, as in production); this process only sends the
// load: BENCH_CONCURRENCY (200) clients, each on one kept-alive HTTP connection (node:http with a keep-alive
// agent: no per-request connection, no fetch machinery), every one from this machine's one address.
// The rate limits stay on, so their cost is in the figures, but are raised far above what the run sends
// (the defaults would rightly refuse one address sending this much); the report states the values used.
//
// Scenarios: the catalogue read; an x3 opening (the target's request); the same opening as the app sends it,
// with its own Idempotency-Key and asking for a compressed answer. Latency p99 is also given for the requests
// sent after the first second (the first wave of 200 at once meets a cold server); the target uses all.
//
// Besides throughput and latency, each scenario reports what one request cost the server, read from the
// server itself over the operator route (GET /api/admin/metrics) before and after: its CPU time, how busy
// its event loop was, and the database layer's statements, round trips, transactions and the time spent
// waiting for and holding a pooled connection (server/db/stats.ts). CPU ms per request moves less with
// other load on the machine than throughput does. This process's own event-loop use is reported too: near
// 1 would mean the load generator, not the server, set the pace.
//
// BENCH_SERVER_MS (4000) per scenario, BENCH_PLAYERS (16; 200 gives each client a player of its own),
// DB_POOL_MAX (the server's default when unset), BENCH_CPU_PROF=<dir>: the server writes a CPU profile there
// (node --cpu-prof; one file per thread, in <dir>/<database>/) when it stops. BENCH_PORT (8840) is where the server listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { AdminMetricsResponse } from '../contract/metrics.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { statsSince, type DatabaseStats } from '../server/db/stats.ts';
import { BOT_TOKEN, createTestDatabase, postgresUrl, signLaunchData } from '../tests/api/harness.ts';
import { benchServerEnv, seedFundedPlayers } from './players.ts';
import { percentile, report } from './report.ts';

const DURATION_MS = Number(process.env.BENCH_SERVER_MS ?? 4000);
/** Reported apart: p99 of the requests sent after this long (the target is on all of them). */
const STEADY_AFTER_MS = 1000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
/**
 * Players the clients sign in as (each client is one of them, in turn). One player's money requests run one
 * after another (the player's row is locked first on every money path), so with few players the openings
 * measure that queue; BENCH_PLAYERS=200 gives every client a player of its own.
 */
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 16);
const PORT = Number(process.env.BENCH_PORT ?? 8840);
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF || null;
const ADMIN_KEY = 'server-bench-operator-key-0123456789';
const FIRST_ID = 900_000;
const GRANT_NANO = 1_000_000n * 1_000_000_000n;

/** The rate limits of the run: on, and far above what one address sends here in a window. */
const RATE_LIMITS = {
  RATE_LIMIT_WINDOW_MS: '60000',
  RATE_LIMIT_API_PER_ADDRESS: '100000000',
  RATE_LIMIT_SIGNIN_PER_ADDRESS: '100000000',
  RATE_LIMIT_MONEY_PER_PLAYER: '100000000',
  RATE_LIMIT_MONEY_PER_ADDRESS: '100000000',
  RATE_LIMIT_SOCKETS_PER_ADDRESS: '100000000',
};

/**
 * A long wait for a free pooled connection: 200 clients on a smaller pool queue on purpose (the run measures
 * throughput at saturation); with the default wait (10 s) a request queued longer would get 503 instead,
 * which is load shedding, not what is measured.
 */
const DB_CONNECTION_TIMEOUT_MS = '120000';

/** The openings target (issue 26): on Postgres, with a player per connection. */
const TARGET = { openThreePerSecond: 1000, openThreeP99Ms: 300 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ── the client: kept-alive connections, one per concurrent client ─────────────────────────────────────

const agent = new http.Agent({
  keepAlive: true,
  maxSockets: CONCURRENCY + 8,
  maxFreeSockets: CONCURRENCY + 8,
});

interface Answer {
  status: number;
  body: string;
}

function request(
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const req = http.request({ host: '127.0.0.1', port: PORT, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

// ── the server ─────────────────────────────────────────────────────────────────────────────────────

function seedPlayers(db: Db): Promise<void> {
  return seedFundedPlayers(db, { firstId: FIRST_ID, count: PLAYERS, grantNano: GRANT_NANO, label: 'Bench' });
}

interface Target {
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

async function prepareDatabase(url: string | null): Promise<Target> {
  if (url) {
    const test = await createTestDatabase(url);
    await seedPlayers(test.database.db);
    await test.database.close();
    return { env: { DATABASE_URL: test.url! }, cleanup: () => test.drop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-server-bench-'));
  const opened = await openDatabase({ databaseUrl: null, pgliteDir: join(dataDir, 'pglite') });
  await seedPlayers(opened.db);
  await opened.close();
  return {
    env: { DATA_DIR: dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

function startServer(env: Record<string, string>, label: string): ChildProcess {
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROFILE_DIR, label)}`] : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', 'server/main.ts'], {
    env: benchServerEnv({
      port: PORT,
      jwtSecret: 'server-bench-secret-server-bench-secret',
      adminKey: ADMIN_KEY,
      rateLimits: RATE_LIMITS,
      database: env,
      extra: {
        DB_CONNECTION_TIMEOUT_MS,
        ...(process.env.DB_POOL_MAX ? { DB_POOL_MAX: process.env.DB_POOL_MAX } : {}),
      },
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function waitReady(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    const ok = await request('GET', '/api/health/ready').then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error('the server did not get ready in 3 minutes');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function metrics(): Promise<AdminMetricsResponse> {
  const res = await request('GET', '/api/admin/metrics', { headers: { 'x-admin-key': ADMIN_KEY } });
  if (res.status !== 200) throw new Error(`metrics: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as AdminMetricsResponse;
}

// ── the load ───────────────────────────────────────────────────────────────────────────────────────

interface Figures {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** p99 of the requests sent after the first second (null: none) */
  steadyP99Ms: number | null;
  errors: number;
  /** failed requests by HTTP status ('network' when there was no answer) */
  errorsByStatus: Record<string, number>;
  /** what one request cost the server, on average */
  perRequest: {
    /** CPU time of the server process (user + system), ms */
    serverCpuMs: number;
    statements: number;
    roundTrips: number;
    transactions: number;
    /** waiting for a pooled connection, ms */
    poolWaitMs: number;
    /** holding a pooled connection, ms */
    connectionHeldMs: number;
  };
  /** the share of the run the server's event loop was busy (0 to 1) */
  serverEventLoopUtilization: number;
  /** the server's CPU time over the run's wall time (1 = one core busy all along) */
  serverCpuCores: number;
  /** the share of the run this (load) process's event loop was busy */
  clientEventLoopUtilization: number;
}

/** One request's outcome: its HTTP status, or 'network' when it got no answer. */
type Outcome = number | 'network';

async function load(run: (worker: number) => Promise<Outcome>, ok: number): Promise<Figures> {
  const latencies: number[] = [];
  /** the latencies of requests sent after the first STEADY_AFTER_MS (the 200 clients' first wave, a cold start) */
  const steady: number[] = [];
  let errors = 0;
  const errorsByStatus: Record<string, number> = {};
  const before = await metrics();
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const outcome = await run(worker).catch((): Outcome => 'network');
        latencies.push(performance.now() - t0);
        if (t0 - started >= STEADY_AFTER_MS) steady.push(performance.now() - t0);
        if (outcome !== ok) {
          errors++;
          errorsByStatus[String(outcome)] = (errorsByStatus[String(outcome)] ?? 0) + 1;
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  const loop = performance.eventLoopUtilization(loopBefore);
  const after = await metrics();
  const cost = statsSince(before.database as DatabaseStats, after.database as DatabaseStats);
  const cpuMs = after.cpu.userMs + after.cpu.systemMs - (before.cpu.userMs + before.cpu.systemMs);
  const active = after.eventLoopTime.activeMs - before.eventLoopTime.activeMs;
  const idle = after.eventLoopTime.idleMs - before.eventLoopTime.idleMs;
  const per = (n: number, digits = 2) => +(n / Math.max(1, latencies.length)).toFixed(digits);
  return {
    requests: latencies.length,
    perSecond: +(latencies.length / (elapsedMs / 1000)).toFixed(1),
    p50Ms: +percentile(latencies, 50).toFixed(2),
    p99Ms: +percentile(latencies, 99).toFixed(2),
    steadyP99Ms: steady.length > 0 ? +percentile(steady, 99).toFixed(2) : null,
    errors,
    errorsByStatus,
    perRequest: {
      serverCpuMs: per(cpuMs, 3),
      statements: per(cost.statements),
      roundTrips: per(cost.roundTrips),
      transactions: per(cost.transactions),
      poolWaitMs: per(cost.acquireWaitMs),
      connectionHeldMs: per(cost.heldMs),
    },
    serverEventLoopUtilization: +(active / Math.max(1, active + idle)).toFixed(3),
    serverCpuCores: +(cpuMs / elapsedMs).toFixed(2),
    clientEventLoopUtilization: +loop.utilization.toFixed(3),
  };
}

async function signIn(i: number): Promise<string> {
  const id = FIRST_ID + i;
  const initData = signLaunchData({ id, first_name: `Bench${id}` }, BOT_TOKEN);
  const res = await request('POST', '/api/auth/login', { body: JSON.stringify({ initData }) });
  if (res.status !== 200) throw new Error(`sign-in of player ${id}: ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { token: string }).token;
}

async function measure() {
  const tokens = await Promise.all(Array.from({ length: PLAYERS }, (_, i) => signIn(i)));
  // one opening per player before the clock starts: a player's first roll also creates their seed pair,
  // a one-time cost that would otherwise be most of what a short run on a busy machine measures
  const one = JSON.stringify({ caseId: 'starter', amount: 1 });
  await Promise.all(tokens.map((token) => request('POST', '/api/cases/open-multiple', { token, body: one })));
  const catalogue = await load(async () => {
    const res = await request('GET', '/api/cases', { headers: { 'accept-encoding': 'br, gzip' } });
    return res.status;
  }, 200);
  const three = JSON.stringify({ caseId: 'starter', amount: 3 });
  const openThree = await load(async (worker) => {
    const res = await request('POST', '/api/cases/open-multiple', {
      token: tokens[worker % PLAYERS],
      body: three,
    });
    return res.status;
  }, 200);
  // the same opening as the app sends it: its own Idempotency-Key (the key's claim and stored answer cost
  // the server more statements) and asking for a compressed answer
  let keys = 0;
  const openThreeAsApp = await load(async (worker) => {
    const res = await request('POST', '/api/cases/open-multiple', {
      token: tokens[worker % PLAYERS],
      body: three,
      headers: { 'idempotency-key': `bench-${process.pid}-${++keys}`, 'accept-encoding': 'br, gzip' },
    });
    return res.status;
  }, 200);
  return { catalogue, openThree, openThreeAsApp };
}

async function postgresReachable(url: string | null): Promise<boolean> {
  if (!url) return false;
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

async function onDatabase(url: string | null, label: string) {
  const target = await prepareDatabase(url);
  const child = startServer(target.env, label);
  try {
    await waitReady(child);
    return await measure();
  } finally {
    agent.destroy(); // the server goes: its kept connections with it
    await stopServer(child);
    await target.cleanup();
  }
}

const pglite = await onDatabase(null, 'pglite');
const postgres = (await postgresReachable(postgresUrl)) ? await onDatabase(postgresUrl, 'postgres') : null;

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const openingTarget = postgres
  ? `${verdict(
      postgres.openThree.perSecond >= TARGET.openThreePerSecond &&
        postgres.openThree.p99Ms < TARGET.openThreeP99Ms &&
        postgres.openThree.errors === 0,
    )} ${postgres.openThree.perSecond} x3-openings/s (≥ ${TARGET.openThreePerSecond}), p99 ${postgres.openThree.p99Ms} ms (< ${TARGET.openThreeP99Ms}), ${postgres.openThree.errors} errors` +
    (PLAYERS === CONCURRENCY
      ? ''
      : ` (the target is for BENCH_PLAYERS=${CONCURRENCY}; this run had ${PLAYERS})`)
  : 'UNKNOWN: no Postgres';

report('server', {
  targets: { postgresOpenings: openingTarget },
  durationMsPerScenario: DURATION_MS,
  concurrency: CONCURRENCY,
  connections: `${CONCURRENCY} concurrent clients (one kept-alive HTTP connection each), all from one address; the server in a process of its own`,
  players: PLAYERS,
  postgresPool: {
    max: process.env.DB_POOL_MAX ? Number(process.env.DB_POOL_MAX) : 'the server default (DB_POOL_MAX)',
    connectionTimeoutMs: Number(DB_CONNECTION_TIMEOUT_MS),
    note: 'a long wait for a free connection: saturation queues (default 10 s, then 503)',
  },
  rateLimits: {
    note: 'on, raised above what the run sends from its one address (defaults: see README)',
    ...Object.fromEntries(Object.entries(RATE_LIMITS).map(([k, v]) => [k, Number(v)])),
  },
  pglite,
  postgres: postgres ?? 'skipped: set TEST_DATABASE_URL to a reachable Postgres',
  postgresOverPgliteOpenThroughput: postgres
    ? +(postgres.openThree.perSecond / pglite.openThree.perSecond).toFixed(2)
    : null,
  openOverCatalogueLatencyP50Pglite: +(pglite.openThree.p50Ms / pglite.catalogue.p50Ms).toFixed(2),
});

const line = (name: string, f: Figures) =>
  `  ${name.padEnd(20)} ${String(f.perSecond).padStart(8)}/s  p50 ${String(f.p50Ms).padStart(8)} ms  p99 ${String(f.p99Ms).padStart(8)} ms (after 1 s ${f.steadyP99Ms ?? '-'})  ` +
  `server CPU ${f.perRequest.serverCpuMs} ms, ${f.perRequest.statements} statements, ${f.perRequest.roundTrips} round trips, ` +
  `${f.perRequest.transactions} transactions, pool wait ${f.perRequest.poolWaitMs} ms, held ${f.perRequest.connectionHeldMs} ms per request; ` +
  `server loop ${f.serverEventLoopUtilization}, server cores ${f.serverCpuCores}, client loop ${f.clientEventLoopUtilization}` +
  (f.errors ? `; errors ${JSON.stringify(f.errorsByStatus)}` : '');
console.log(`\nPer scenario (${CONCURRENCY} connections, ${PLAYERS} players):`);
console.log(line('pglite catalogue', pglite.catalogue));
console.log(line('pglite open x3', pglite.openThree));
console.log(line('pglite open x3, app', pglite.openThreeAsApp));
if (postgres) {
  console.log(line('postgres catalogue', postgres.catalogue));
  console.log(line('postgres open x3', postgres.openThree));
  console.log(line('postgres open x3, app', postgres.openThreeAsApp));
}
console.log(`Target: ${openingTarget}`);
