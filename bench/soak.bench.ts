// Soak: many simulated players against one server instance (a child process) for a long time. Each player
// signs in with launch data signed here, holds one app socket (GET /api/ws, signed in: balance pushes and
// the live feed) and acts about once every SOAK_ACTION_EVERY_S seconds (uniformly spread): an x1 opening,
// an x3 opening or the sale of an item it won. The server reports its event-loop delay and memory over the
// operator API (GET /api/admin/metrics); the bench reports them with the answers by status, p50/p99 per
// route and the socket messages received, and prints PASS/FAIL against the targets: 10,000 players for 10
// minutes, event-loop delay p99 < 50 ms, memory at the end within 10% of after the warm-up, zero 5xx.
//
// SOAK_PLAYERS (10000), SOAK_SECONDS (600), SOAK_ACTION_EVERY_S (20), SOAK_WARMUP_SECONDS (60, at most a
// fifth of the run). On Postgres when TEST_DATABASE_URL is set (a database created and dropped for the run),
// on embedded PGlite otherwise. The rate limits stay on, raised above one address's load, and are reported.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { AdminMetricsResponse } from '../contract/metrics.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { BOT_TOKEN, createTestDatabase, postgresUrl, signLaunchData } from '../tests/api/harness.ts';
import { percentile, report } from './report.ts';

const PLAYERS = Number(process.env.SOAK_PLAYERS ?? 10_000);
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const ACTION_EVERY_S = Number(process.env.SOAK_ACTION_EVERY_S ?? 20);
const WARMUP_SECONDS = Math.min(Number(process.env.SOAK_WARMUP_SECONDS ?? 60), SECONDS / 5);
const PORT = Number(process.env.SOAK_PORT ?? 8831);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_KEY = 'soak-bench-operator-key-0123456789';
const FIRST_ID = 7_000_000_000;
/** Each player starts with this much (nanoTON): enough for the run, never the limit. */
const GRANT_NANO = 100_000n * 1_000_000_000n;
const SIGNIN_CONCURRENCY = 32;
const SOCKET_CONCURRENCY = 200;
/** How often memory is sampled for the timeline. */
const SAMPLE_EVERY_MS = 10_000;

const TARGETS = { players: 10_000, seconds: 600, lagP99Ms: 50, memoryGrowth: 0.1, errors5xx: 0 };

/** The rate limits of the run: on, and far above what one address (this bench) sends. */
const RATE_LIMITS = {
  RATE_LIMIT_WINDOW_MS: '60000',
  RATE_LIMIT_API_PER_ADDRESS: '100000000',
  RATE_LIMIT_SIGNIN_PER_ADDRESS: '100000000',
  RATE_LIMIT_MONEY_PER_PLAYER: '100000',
  RATE_LIMIT_MONEY_PER_ADDRESS: '100000000',
  RATE_LIMIT_SOCKETS_PER_ADDRESS: '100000000',
};

// `ws` (installed with @fastify/websocket) implements the standard WebSocket interface; no types of its own
const requireCjs = createRequire(import.meta.url);
const WS = requireCjs('ws') as typeof WebSocket;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs task(i) for i in [0, n) with at most `limit` at once. */
async function pool(n: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

// ── the database: players with funds, made before the server starts ─────────────────────────────────

async function seedPlayers(db: Db): Promise<void> {
  for (let start = 0; start < PLAYERS; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, PLAYERS - start) }, (_, i) =>
      BigInt(FIRST_ID + start + i),
    );
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values(ids.map((id) => ({ id, first_name: `Soak ${id}`, balance_nano: GRANT_NANO })))
        .execute();
      await trx
        .insertInto('ledger')
        .values(
          ids.map((id) => ({
            user_id: id,
            delta_nano: GRANT_NANO,
            balance_after_nano: GRANT_NANO,
            kind: 'bench_grant',
            ref: null,
            external_id: `soak:${id}`,
          })),
        )
        .execute();
    });
  }
}

interface Target {
  env: Record<string, string>;
  label: string;
  cleanup(): Promise<void>;
}

async function prepareDatabase(): Promise<Target> {
  if (postgresUrl) {
    const test = await createTestDatabase(postgresUrl);
    await seedPlayers(test.database.db);
    return { env: { DATABASE_URL: test.url! }, label: 'postgres', cleanup: () => test.drop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-soak-'));
  const opened = await openDatabase({ databaseUrl: null, pgliteDir: join(dataDir, 'pglite') });
  await seedPlayers(opened.db);
  await opened.close();
  return {
    env: { DATA_DIR: dataDir },
    label: 'pglite',
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

// ── the server ─────────────────────────────────────────────────────────────────────────────────────

function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...env,
      ...RATE_LIMITS,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      BOT_TOKEN,
      TELEGRAM_BOT: 'off', // no Telegram to reach from the bench
      JWT_SECRET: 'soak-bench-secret-soak-bench-secret',
      ADMIN_KEY,
      DB_POOL_MAX: process.env.DB_POOL_MAX ?? '20',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

async function waitReady(child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    const ok = await fetch(`${BASE}/api/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error('the server did not get ready in 3 minutes');
}

/**
 * The server's own figures. A server too busy to accept a connection in time is itself a finding: the
 * reading is retried (up to 3 tries, 30 s each) and counted as missed, never ending the run.
 */
let metricsMissed = 0;
async function metrics(query: string): Promise<AdminMetricsResponse | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(`${BASE}/api/admin/metrics?${query}`, {
        headers: { 'x-admin-key': ADMIN_KEY },
        signal: AbortSignal.timeout(30_000),
      });
      if (res.ok) return (await res.json()) as AdminMetricsResponse;
      console.warn(`metrics: ${res.status} ${await res.text()}`);
    } catch (err) {
      console.warn(`metrics: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  metricsMissed++;
  return null;
}

/** A reading that must exist (start, warm-up, end): a run without it has nothing to compare. */
async function mustMetrics(query: string): Promise<AdminMetricsResponse> {
  const m = await metrics(query);
  if (!m) throw new Error('the server did not answer its metrics within 3 tries of 30 s');
  return m;
}

// ── the players ────────────────────────────────────────────────────────────────────────────────────

interface Player {
  id: number;
  token: string;
  socket: WebSocket | null;
  /** items won and not sold yet */
  items: string[];
  timer: NodeJS.Timeout | null;
  balanceVersion: bigint;
  /** when the last money request was answered / its balance was pushed (ms, performance.now) */
  answeredAt: number | null;
  pushedAt: number | null;
}

const latencies = new Map<string, number[]>();
const statuses = new Map<string, Record<string, number>>();
const messages: Record<string, number> = {};
let socketsClosedEarly = 0;
let staleBalances = 0;
/** ms from a money answer to its balance push (negative: the push came first) */
const pushAfterAnswer: number[] = [];

/** Pairs an answer with its push, whichever comes second. */
function pair(player: Player, what: 'answered' | 'pushed'): void {
  const now = performance.now();
  if (what === 'answered') player.answeredAt = now;
  else player.pushedAt = now;
  if (player.answeredAt !== null && player.pushedAt !== null) {
    if (measuring) pushAfterAnswer.push(player.pushedAt - player.answeredAt);
    player.answeredAt = player.pushedAt = null;
  }
}
let measuring = false;

function record(route: string, ms: number, status: number | 'network'): void {
  if (!measuring && route !== 'POST /api/auth/login') return;
  let l = latencies.get(route);
  if (!l) latencies.set(route, (l = []));
  l.push(ms);
  let s = statuses.get(route);
  if (!s) statuses.set(route, (s = {}));
  s[String(status)] = (s[String(status)] ?? 0) + 1;
}

async function call<T>(
  route: string,
  path: string,
  init: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T | null }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${BASE}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    record(route, performance.now() - t0, res.status);
    return { status: res.status, body: res.ok && text ? (JSON.parse(text) as T) : null };
  } catch {
    record(route, performance.now() - t0, 'network');
    return { status: 0, body: null };
  }
}

async function signIn(i: number): Promise<Player> {
  const id = FIRST_ID + i;
  const initData = signLaunchData({ id, first_name: `Soak ${id}` }, BOT_TOKEN);
  for (let attempt = 0; ; attempt++) {
    const res = await call<{ token: string }>('POST /api/auth/login', '/api/auth/login', {
      method: 'POST',
      body: { initData },
    });
    if (res.body?.token) {
      const player: Player = {
        id,
        token: res.body.token,
        socket: null,
        items: [],
        timer: null,
        balanceVersion: 0n,
        answeredAt: null,
        pushedAt: null,
      };
      return player;
    }
    if (attempt >= 3) throw new Error(`sign-in of player ${id} failed (${res.status})`);
    await sleep(500);
  }
}

function connect(player: Player): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WS(`${BASE.replace('http', 'ws')}/api/ws`);
    player.socket = socket;
    let signedIn = false;
    socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'auth', token: player.token })));
    socket.addEventListener('message', (event) => {
      const text = String(event.data);
      // every message starts with {"type":"<type>": read the type without parsing the whole message
      const type = text.startsWith('{"type":"') ? text.slice(9, text.indexOf('"', 9)) : 'other';
      messages[type] = (messages[type] ?? 0) + 1;
      if (type === 'auth_ok' && !signedIn) {
        signedIn = true;
        resolve();
      } else if (type === 'balance') {
        const version = BigInt((JSON.parse(text) as { version: string }).version);
        if (version <= player.balanceVersion) staleBalances++;
        player.balanceVersion = version;
        if (signedIn && measuring) pair(player, 'pushed');
      }
    });
    socket.addEventListener('close', () => {
      if (!signedIn) reject(new Error(`the socket of player ${player.id} closed before sign-in`));
      else if (measuring) socketsClosedEarly++;
    });
    socket.addEventListener('error', () => {
      if (!signedIn) reject(new Error(`the socket of player ${player.id} failed`));
    });
  });
}

let caseId = 'starter';

async function act(player: Player): Promise<void> {
  player.answeredAt = player.pushedAt = null;
  await acted(player);
  pair(player, 'answered');
}

async function acted(player: Player): Promise<void> {
  const roll = Math.random();
  if (roll < 0.35 && player.items.length > 0) {
    const itemId = player.items.pop()!;
    await call('POST /api/inventory/sell', '/api/inventory/sell', {
      method: 'POST',
      token: player.token,
      body: { itemId, quantity: 1 },
    });
  } else if (roll < 0.5) {
    const res = await call<{ results: { item: { id: string } }[] }>(
      'POST /api/cases/open-multiple',
      '/api/cases/open-multiple',
      { method: 'POST', token: player.token, body: { caseId, amount: 3 } },
    );
    for (const r of res.body?.results ?? []) player.items.push(r.item.id);
  } else {
    const res = await call<{ item: { id: string } }>('POST /api/cases/open', '/api/cases/open', {
      method: 'POST',
      token: player.token,
      body: { caseId },
    });
    if (res.body) player.items.push(res.body.item.id);
  }
}

function schedule(player: Player, until: number): void {
  const wait = Math.random() * 2 * ACTION_EVERY_S * 1000;
  if (Date.now() + wait > until) return;
  player.timer = setTimeout(() => {
    void act(player).finally(() => schedule(player, until));
  }, wait);
}

// ── the run ────────────────────────────────────────────────────────────────────────────────────────

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);

async function main(): Promise<void> {
  console.log(
    `soak: ${PLAYERS} players, ${SECONDS} s (warm-up ${WARMUP_SECONDS} s), an action per player every ` +
      `${ACTION_EVERY_S} s on average`,
  );
  const target = await prepareDatabase();
  const child = startServer(target.env);
  const players: Player[] = [];
  try {
    await waitReady(child);
    const atStart = await mustMetrics('gc=1');
    const cases = await call<{ cases: { id: string; price: string; isLocked?: boolean }[] }>(
      'GET /api/cases',
      '/api/cases',
    );
    const open = (cases.body?.cases ?? []).filter((c) => !c.isLocked);
    open.sort((a, b) => Number(a.price) - Number(b.price));
    caseId = open[0]?.id ?? caseId;

    let t0 = performance.now();
    const signedIn: Player[] = new Array<Player>(PLAYERS);
    await pool(PLAYERS, SIGNIN_CONCURRENCY, async (i) => {
      signedIn[i] = await signIn(i);
    });
    players.push(...signedIn);
    const signInSeconds = (performance.now() - t0) / 1000;
    console.log(`signed in ${PLAYERS} players in ${signInSeconds.toFixed(1)} s`);
    t0 = performance.now();
    await pool(PLAYERS, SOCKET_CONCURRENCY, (i) => connect(players[i]!));
    const connectSeconds = (performance.now() - t0) / 1000;
    console.log(`opened and signed in ${PLAYERS} sockets in ${connectSeconds.toFixed(1)} s`);

    const started = Date.now();
    const until = started + SECONDS * 1000;
    measuring = true;
    for (const p of players) schedule(p, until);
    const timeline: { atSeconds: number; rssMB: number; heapUsedMB: number; lagP99Ms: number }[] = [];
    let afterWarmup: AdminMetricsResponse | null = null;
    while (Date.now() < until) {
      await sleep(Math.min(SAMPLE_EVERY_MS, until - Date.now()));
      const elapsed = (Date.now() - started) / 1000;
      if (!afterWarmup && elapsed >= WARMUP_SECONDS) {
        // the measured phase starts: memory after collection, and a fresh event-loop delay window
        afterWarmup = await mustMetrics('gc=1&reset=1');
        timeline.push(sample(elapsed, afterWarmup));
        console.log(
          `warm-up over: rss ${mb(afterWarmup.memory.rss)} MB, heap ${mb(afterWarmup.memory.heapUsed)} MB`,
        );
        continue;
      }
      const m = await metrics('');
      if (!m) continue;
      timeline.push(sample(elapsed, m));
      console.log(
        `${elapsed.toFixed(0)} s: lag p99 ${m.eventLoop.p99Ms.toFixed(1)} ms, rss ${mb(m.memory.rss)} MB, ` +
          `heap ${mb(m.memory.heapUsed)} MB, sockets ${m.appSockets}`,
      );
    }
    for (const p of players) if (p.timer) clearTimeout(p.timer);
    await sleep(2000); // the last actions answer
    measuring = false;
    const atEnd = await mustMetrics('gc=1');
    afterWarmup ??= atEnd;

    const byRoute: Record<string, unknown> = {};
    const byStatus: Record<string, number> = {};
    let answers = 0;
    for (const [route, l] of latencies) {
      const s = statuses.get(route) ?? {};
      byRoute[route] = {
        requests: l.length,
        p50Ms: +percentile(l, 50).toFixed(1),
        p99Ms: +percentile(l, 99).toFixed(1),
        byStatus: s,
      };
      if (route === 'POST /api/auth/login') continue;
      for (const [status, n] of Object.entries(s)) {
        byStatus[status] = (byStatus[status] ?? 0) + n;
        answers += n;
      }
    }
    const errors5xx = Object.entries(byStatus)
      .filter(([s]) => /^5\d\d$/.test(s))
      .reduce((sum, [, n]) => sum + n, 0);
    const rssGrowth = afterWarmup.memory.rss > 0 ? atEnd.memory.rss / afterWarmup.memory.rss - 1 : 0;
    const heapGrowth =
      afterWarmup.memory.heapUsed > 0 ? atEnd.memory.heapUsed / afterWarmup.memory.heapUsed - 1 : 0;
    const measuredSeconds = SECONDS - WARMUP_SECONDS;
    const figures = {
      database: target.label,
      players: PLAYERS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      actionEverySeconds: ACTION_EVERY_S,
      caseId,
      rateLimits: RATE_LIMITS,
      signInSeconds: +signInSeconds.toFixed(1),
      socketConnectSeconds: +connectSeconds.toFixed(1),
      eventLoopLag: {
        p50Ms: +atEnd.eventLoop.p50Ms.toFixed(2),
        p99Ms: +atEnd.eventLoop.p99Ms.toFixed(2),
        maxMs: +atEnd.eventLoop.maxMs.toFixed(2),
        over: `the ${measuredSeconds} s after the warm-up`,
      },
      memoryMB: {
        collected: atEnd.collected,
        start: { rss: mb(atStart.memory.rss), heapUsed: mb(atStart.memory.heapUsed) },
        afterWarmup: { rss: mb(afterWarmup.memory.rss), heapUsed: mb(afterWarmup.memory.heapUsed) },
        end: { rss: mb(atEnd.memory.rss), heapUsed: mb(atEnd.memory.heapUsed) },
        rssGrowthPct: +(rssGrowth * 100).toFixed(1),
        heapGrowthPct: +(heapGrowth * 100).toFixed(1),
      },
      answers,
      answersPerSecond: +(answers / SECONDS).toFixed(1),
      answersByStatus: byStatus,
      routes: byRoute,
      socketMessages: messages,
      socketsClosedDuringRun: socketsClosedEarly,
      metricsReadingsMissed: metricsMissed,
      balancePushesOutOfOrder: staleBalances,
      balancePushAfterAnswerMs: {
        pairs: pushAfterAnswer.length,
        p50: +percentile(pushAfterAnswer, 50).toFixed(1),
        p99: +percentile(pushAfterAnswer, 99).toFixed(1),
      },
      timeline,
    };
    const lines = [
      pass(
        PLAYERS >= TARGETS.players && SECONDS >= TARGETS.seconds,
        `scale: ${PLAYERS} players for ${SECONDS} s (target ${TARGETS.players} for ${TARGETS.seconds} s)`,
      ),
      pass(
        atEnd.eventLoop.p99Ms < TARGETS.lagP99Ms,
        `event-loop lag p99 ${atEnd.eventLoop.p99Ms.toFixed(1)} ms (target < ${TARGETS.lagP99Ms} ms)`,
      ),
      pass(
        Math.abs(rssGrowth) <= TARGETS.memoryGrowth && Math.abs(heapGrowth) <= TARGETS.memoryGrowth,
        `memory at the end vs after warm-up: rss ${pct(rssGrowth)}, heap ${pct(heapGrowth)} (target within 10%)`,
      ),
      pass(errors5xx === TARGETS.errors5xx, `5xx answers: ${errors5xx} of ${answers} (target 0)`),
      pass(
        (byStatus.network ?? 0) === 0,
        `requests without an answer (timeouts, resets): ${byStatus.network ?? 0} of ${answers} (target 0)`,
      ),
      pass(socketsClosedEarly === 0, `sockets lost during the run: ${socketsClosedEarly}`),
    ];
    report('soak', { ...figures, verdict: lines });
    for (const line of lines) console.log(line);
    if (lines.some((l) => l.startsWith('FAIL'))) process.exitCode = 1;
  } finally {
    measuring = false;
    for (const p of players) {
      if (p.timer) clearTimeout(p.timer);
      p.socket?.close();
    }
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await target.cleanup();
  }
}

function sample(atSeconds: number, m: AdminMetricsResponse) {
  return {
    atSeconds: Math.round(atSeconds),
    rssMB: mb(m.memory.rss),
    heapUsedMB: mb(m.memory.heapUsed),
    lagP99Ms: +m.eventLoop.p99Ms.toFixed(2),
  };
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const pass = (ok: boolean, text: string) => `${ok ? 'PASS' : 'FAIL'} ${text}`;

await main();
// keep-alive connections and closing sockets would hold the process a while longer
process.exit(process.exitCode ?? 0);
