// Server throughput and latency of the hot paths (catalogue read, case opening) over real HTTP, on embedded
// PGlite and, when a Postgres server is reachable, on Postgres, measured in the same run so the ratio holds.
// 200 concurrent connections by default (BENCH_CONCURRENCY), every one from this machine's one address.
// The rate limits stay on, so their cost is in the figures, but are raised far above what the run sends
// (the defaults would rightly refuse one address sending this much); the report states the values used.
// Besides throughput and latency, each scenario reports what one request cost the database layer (statements,
// round trips, transactions, time waiting for and holding a pooled connection: server/db/stats.ts) and how
// busy the event loop was (clients and server share this process, as one machine shares its cores).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { statsSince, type DatabaseStats } from '../server/db/stats.ts';
import {
  createTestDatabase,
  setBalance,
  startServer,
  postgresUrl,
  type TestServer,
} from '../tests/api/harness.ts';
import { percentile, report } from './report.ts';

const DURATION_MS = Number(process.env.BENCH_SERVER_MS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
/**
 * Players the clients sign in as (each client is one of them, in turn). One player's money requests run one
 * after another (the player's row is locked first on every money path), so with few players the openings
 * measure that queue; BENCH_PLAYERS=200 gives every client a player of its own.
 */
const PLAYERS = Number(process.env.BENCH_PLAYERS ?? 16);
/** The rate limits of the run: on, and far above what one address sends here in a window. */
const RATE_LIMITS = {
  RATE_LIMIT_WINDOW_MS: '60000',
  RATE_LIMIT_API_PER_ADDRESS: '100000000',
  RATE_LIMIT_SIGNIN_PER_ADDRESS: '100000000',
  RATE_LIMIT_MONEY_PER_PLAYER: '100000000',
  RATE_LIMIT_MONEY_PER_ADDRESS: '100000000',
  RATE_LIMIT_SOCKETS_PER_ADDRESS: '100000000',
};

/** The openings target (issue 26): on Postgres, with a player per connection. */
const TARGET = { openThreePerSecond: 1000, openThreeP99Ms: 300 };

interface Figures {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** failed requests by HTTP status ('network' when there was no answer) */
  errorsByStatus: Record<string, number>;
  /** what one request cost the database layer, on average */
  perRequest: {
    statements: number;
    roundTrips: number;
    transactions: number;
    /** waiting for a pooled connection, ms per request */
    poolWaitMs: number;
    /** holding a pooled connection, ms per request */
    connectionHeldMs: number;
  };
  /** the share of the run the event loop was busy (0 to 1), clients and server together */
  eventLoopUtilization: number;
}

/** One request's outcome: its HTTP status, or 'network' when it got no answer. */
type Outcome = number | 'network';

async function load(
  stats: DatabaseStats,
  run: (worker: number) => Promise<Outcome>,
  ok: number,
): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const errorsByStatus: Record<string, number> = {};
  const statsBefore = { ...stats };
  const loopBefore = performance.eventLoopUtilization();
  const started = performance.now();
  const deadline = started + DURATION_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const outcome = await run(worker).catch((): Outcome => 'network');
        latencies.push(performance.now() - t0);
        if (outcome !== ok) {
          errors++;
          errorsByStatus[String(outcome)] = (errorsByStatus[String(outcome)] ?? 0) + 1;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const loop = performance.eventLoopUtilization(loopBefore);
  const cost = statsSince(statsBefore, stats);
  const per = (n: number, digits = 2) => +(n / Math.max(1, latencies.length)).toFixed(digits);
  return {
    requests: latencies.length,
    perSecond: +(latencies.length / elapsed).toFixed(1),
    p50Ms: +percentile(latencies, 50).toFixed(2),
    p99Ms: +percentile(latencies, 99).toFixed(2),
    errors,
    errorsByStatus,
    perRequest: {
      statements: per(cost.statements),
      roundTrips: per(cost.roundTrips),
      transactions: per(cost.transactions),
      poolWaitMs: per(cost.acquireWaitMs),
      connectionHeldMs: per(cost.heldMs),
    },
    eventLoopUtilization: +loop.utilization.toFixed(3),
  };
}

async function measure(server: TestServer, stats: DatabaseStats) {
  const tokens: string[] = [];
  for (let i = 0; i < PLAYERS; i++) {
    const id = 900_000 + i;
    tokens.push(await server.login({ id, first_name: `Bench${i}` }));
    await setBalance(server, id, 1_000_000n * 1_000_000_000n);
  }
  // one opening per player before the clock starts: a player's first roll also creates their seed pair,
  // a one-time cost that would otherwise be most of what a short run on a busy machine measures
  await Promise.all(
    tokens.map((token) =>
      server.call('POST', '/cases/open-multiple', { token, body: { caseId: 'starter', amount: 1 } }),
    ),
  );
  const catalogue = await load(
    stats,
    async () => {
      const res = await fetch(`${server.baseUrl}/api/cases`);
      await res.arrayBuffer();
      return res.status;
    },
    200,
  );
  const open = await load(
    stats,
    async (worker) => {
      const res = await server.call('POST', '/cases/open-multiple', {
        token: tokens[worker % PLAYERS],
        body: { caseId: 'starter', amount: 3 },
      });
      return res.status;
    },
    200,
  );
  return { catalogue, openThree: open };
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

/**
 * The Postgres pool of the run: the server's default size (DB_POOL_MAX, 10; BENCH_POOL_MAX tries another),
 * and a long wait for a free connection. 200 connections on a 10-connection pool queue on purpose (the run
 * measures throughput at saturation); with the default wait (10 s) a request queued longer would get 503
 * instead, which is load shedding, not what is measured.
 */
const POOL = { max: Number(process.env.BENCH_POOL_MAX ?? 10), connectionTimeoutMs: 120_000 };

async function onDatabase(url: string | null) {
  const db = await createTestDatabase(url, POOL);
  const server = await startServer({ database: db.database, env: RATE_LIMITS });
  try {
    return await measure(server, db.database.stats);
  } finally {
    await server.close();
    await db.drop();
  }
}

const pglite = await onDatabase(null);
const postgres = (await postgresReachable(postgresUrl)) ? await onDatabase(postgresUrl) : null;

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
  connections: `${CONCURRENCY} concurrent clients (one HTTP connection each), all from one address`,
  players: PLAYERS,
  postgresPool: {
    ...POOL,
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
  `  ${name.padEnd(22)} ${String(f.perSecond).padStart(8)}/s  p50 ${String(f.p50Ms).padStart(8)} ms  p99 ${String(f.p99Ms).padStart(8)} ms  ` +
  `${f.perRequest.statements} statements, ${f.perRequest.roundTrips} round trips, ${f.perRequest.transactions} transactions, ` +
  `pool wait ${f.perRequest.poolWaitMs} ms, held ${f.perRequest.connectionHeldMs} ms per request; loop ${f.eventLoopUtilization}`;
console.log(`\nPer scenario (${CONCURRENCY} connections, ${PLAYERS} players):`);
console.log(line('pglite catalogue', pglite.catalogue));
console.log(line('pglite open x3', pglite.openThree));
if (postgres) {
  console.log(line('postgres catalogue', postgres.catalogue));
  console.log(line('postgres open x3', postgres.openThree));
}
console.log(`Target: ${openingTarget}`);
