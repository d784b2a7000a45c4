// Soak: many simulated players against one server instance (a child process) for a long time. Each player
// signs in with launch data signed here, holds one app socket (GET /api/ws, signed in: balance pushes and
// the live feed) and acts about once every SOAK_ACTION_EVERY_S seconds (uniformly spread): an x1 opening,
// an x3 opening or the sale of an item it won, each with a fresh Idempotency-Key as the app sends. The
// players are spread over SOAK_CLIENTS client processes (bench/soak-client.ts; one per 2,500 players by
// default), each with keep-alive HTTP connections and, on
// Linux, its own loopback source address (its own range of ephemeral ports). The clock starts once every
// player is signed in and connected; the warm-up (SOAK_WARMUP_SECONDS) is left out of every figure: the
// server's event-loop delay window is reset and its memory read after a collection when it ends, and the
// clients count answers only after it.
//
// The server reports its event-loop delay and memory over the operator API (GET /api/admin/metrics); the
// bench reports them with the answers by status, p50/p99 per route, requests that got no answer (counted
// apart from the server's answers), the socket messages and bytes received, the CPU of the server, of the
// clients and of the rest of the machine, and prints PASS/FAIL against the targets: 10,000 players for 10
// minutes, event-loop delay p99 < 50 ms, memory at the end within 10% of after the warm-up, zero 5xx. A
// client process whose own event loop lagged is reported as a FAIL of the bench itself (its figures would
// be the client's).
//
// SOAK_PLAYERS (10000), SOAK_SECONDS (600), SOAK_ACTION_EVERY_S (20), SOAK_WARMUP_SECONDS (60, at most a
// fifth of the run), SOAK_CLIENTS, SOAK_PORT (8831), SOAK_CPU_PROF=<dir> (the server writes a CPU profile
// there when it stops), SOAK_HEAP_SNAPSHOTS=<dir> (the server writes a heap snapshot there after the warm-up
// and at the end, outside the measured window, to compare them). On Postgres when TEST_DATABASE_URL is set (a database created and dropped for the
// run), on embedded PGlite otherwise. The rate limits stay on, raised above one address's load, and are
// reported. Open files: the server holds one per player and each client one per its players; the soft
// limit is raised to the hard one for them, and a hard limit too low stops the bench before it starts
// (raise it with `ulimit -Hn` / limits.conf).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AdminMetricsResponse } from '../contract/metrics.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { createTestDatabase, postgresUrl } from '../tests/api/harness.ts';
import { otherCores, sampleCpu } from './cpu.ts';
import { benchServerEnv, seedFundedPlayers } from './players.ts';
import { percentile, report } from './report.ts';
import type { ClientConfig, ClientResult, FromClient, ToClient } from './soak-client.ts';

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
const CLIENTS = Math.max(1, Number(process.env.SOAK_CLIENTS ?? Math.ceil(PLAYERS / 2500)));
const CPU_PROF = process.env.SOAK_CPU_PROF ? resolve(process.env.SOAK_CPU_PROF) : null;
/** A directory: the server writes a heap snapshot there after the warm-up and at the end (to diff them). */
const HEAP_SNAPSHOTS = process.env.SOAK_HEAP_SNAPSHOTS ? resolve(process.env.SOAK_HEAP_SNAPSHOTS) : null;
if (HEAP_SNAPSHOTS) mkdirSync(HEAP_SNAPSHOTS, { recursive: true });
/** A client process whose event-loop delay p99 passes this was itself a bottleneck. */
const CLIENT_LAG_LIMIT_MS = 100;
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a command with the soft open-file limit raised to the hard one (a socket is a file; the default
 * soft limit is often 1024).
 */
function spawnWithFiles(args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  return spawn('/bin/sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$0" "$@"', ...args], options);
}

/** The hard open-file limit of this machine's processes (null when it cannot be read). */
function hardFileLimit(): number | null {
  try {
    const text = execFileSync('/bin/sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim();
    return text === 'unlimited' ? Infinity : Number(text);
  } catch {
    return null;
  }
}

// ── the database: players with funds, made before the server starts ─────────────────────────────────

function seedPlayers(db: Db): Promise<void> {
  return seedFundedPlayers(db, { firstId: FIRST_ID, count: PLAYERS, grantNano: GRANT_NANO, label: 'Soak' });
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

/**
 * Has the server write a heap snapshot (SOAK_HEAP_SNAPSHOTS) and waits until it is written; returns its
 * path. The server stops while it writes (seconds for a few hundred MB): taken outside the measured window.
 */
async function heapSnapshot(child: ChildProcess): Promise<string> {
  const dir = HEAP_SNAPSHOTS!;
  const before = new Set(readdirSync(dir));
  child.kill('SIGUSR2');
  for (let size = -1; ; await sleep(1000)) {
    const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.heapsnapshot'));
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    if (now > 0 && now === size) return join(dir, file);
    size = now;
  }
}

// ── the server ─────────────────────────────────────────────────────────────────────────────────────

function startServer(env: Record<string, string>): ChildProcess {
  const profile = [
    ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : []),
    ...(HEAP_SNAPSHOTS ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${HEAP_SNAPSHOTS}`] : []),
  ];
  const node = [process.execPath, '--expose-gc', ...profile, '--import', 'tsx', 'server/main.ts'];
  const child = spawnWithFiles(node, {
    env: benchServerEnv({
      port: PORT,
      jwtSecret: 'soak-bench-secret-soak-bench-secret',
      adminKey: ADMIN_KEY,
      rateLimits: RATE_LIMITS,
      database: env,
      extra: { DB_POOL_MAX: process.env.DB_POOL_MAX ?? '20' },
    }),
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return child;
}

// ── the clients ────────────────────────────────────────────────────────────────────────────────────

interface Client {
  child: ChildProcess;
  ready: Promise<{ signInSeconds: number; connectSeconds: number }>;
  result: Promise<ClientResult>;
  tell(message: ToClient): void;
}

function startClient(index: number, firstIndex: number, count: number, caseId: string): Client {
  const config: ClientConfig = {
    base: BASE,
    firstId: FIRST_ID,
    firstIndex,
    count,
    actionEveryS: ACTION_EVERY_S,
    caseId,
    // every 127.x address is this machine on Linux: each client gets its own ~28,000 ephemeral ports
    localAddress: process.platform === 'linux' ? `127.0.1.${index + 1}` : null,
  };
  const child = spawnWithFiles([process.execPath, '--import', 'tsx', 'bench/soak-client.ts'], {
    env: { ...process.env, SOAK_CLIENT_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let onReady: (v: { signInSeconds: number; connectSeconds: number }) => void = () => {};
  let onResult: (v: ClientResult) => void = () => {};
  let onFail: (err: Error) => void = () => {};
  const ready = new Promise<{ signInSeconds: number; connectSeconds: number }>((res, rej) => {
    onReady = res;
    onFail = rej;
  });
  const result = new Promise<ClientResult>((res, rej) => {
    onResult = res;
    const previous = onFail;
    onFail = (err) => {
      previous(err);
      rej(err);
    };
  });
  result.catch(() => {}); // awaited later; a failure before then ends the run through `ready`
  child.on('message', (message: FromClient) => {
    if (message.type === 'ready') onReady(message);
    else if (message.type === 'failed') onFail(new Error(`client ${index}: ${message.error}`));
    else if (message.type === 'result') onResult(message);
  });
  child.on('exit', (code) => onFail(new Error(`client ${index} exited (${code})`)));
  // a client that is exiting (its run over, or failed: its 'exit' ends the run) may no longer take a message:
  // the send's error goes to its callback instead of an unhandled 'error' event that would end the bench
  const tell = (message: ToClient) => child.connected && child.send(message, () => undefined);
  return { child, ready, result, tell };
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

// ── the run ────────────────────────────────────────────────────────────────────────────────────────

const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);

async function fetchCases(): Promise<string> {
  const res = await fetch(`${BASE}/api/cases`);
  const body = (await res.json()) as { cases: { id: string; price: string; isLocked?: boolean }[] };
  const open = body.cases.filter((c) => !c.isLocked);
  open.sort((a, b) => Number(a.price) - Number(b.price));
  return open[0]?.id ?? 'starter';
}

async function main(): Promise<void> {
  console.log(
    `soak: ${PLAYERS} players over ${CLIENTS} client processes, ${SECONDS} s (warm-up ${WARMUP_SECONDS} s), ` +
      `an action per player every ${ACTION_EVERY_S} s on average`,
  );
  const files = hardFileLimit();
  const perClient = Math.ceil(PLAYERS / CLIENTS);
  if (files !== null && files < PLAYERS + 1024) {
    throw new Error(
      `the open-file limit (hard ${files}) is too low for ${PLAYERS} sockets on the server: raise it to at ` +
        `least ${PLAYERS + 1024} (ulimit -Hn, /etc/security/limits.conf)`,
    );
  }
  const target = await prepareDatabase();
  const child = startServer(target.env);
  const clients: Client[] = [];
  try {
    await waitReady(child);
    const atStart = await mustMetrics('gc=1');
    const caseId = await fetchCases();

    const t0 = Date.now();
    for (let k = 0; k < CLIENTS; k++) {
      const first = k * perClient;
      const count = Math.min(perClient, PLAYERS - first);
      if (count > 0) clients.push(startClient(k, first, count, caseId));
    }
    const ready = await Promise.all(clients.map((c) => c.ready));
    const readySeconds = (Date.now() - t0) / 1000;
    console.log(
      `${PLAYERS} players signed in and connected in ${readySeconds.toFixed(1)} s (sign-in ` +
        `${Math.max(...ready.map((r) => r.signInSeconds)).toFixed(1)} s, sockets ` +
        `${Math.max(...ready.map((r) => r.connectSeconds)).toFixed(1)} s, slowest client)`,
    );

    const started = Date.now();
    const until = started + SECONDS * 1000;
    for (const c of clients) c.tell({ type: 'go', until });
    const timeline: {
      atSeconds: number;
      rssMB: number;
      heapUsedMB: number;
      lagP99Ms: number;
      serverCores: number | null;
    }[] = [];
    let afterWarmup: AdminMetricsResponse | null = null;
    let warmupReadingLate = 0;
    let snapshotAtWarmup: string | null = null;
    let cpuAtWarmup: ReturnType<typeof sampleCpu> = null;
    let serverCpuAtWarmup: ReturnType<typeof sampleCpu> = null;
    let lastServerCpu = sampleCpu(child.pid);
    while (Date.now() < until) {
      await sleep(Math.min(SAMPLE_EVERY_MS, until - Date.now()));
      const elapsed = (Date.now() - started) / 1000;
      const serverCpu = sampleCpu(child.pid);
      const serverCores = cores(lastServerCpu, serverCpu);
      lastServerCpu = serverCpu;
      if (!afterWarmup && elapsed >= WARMUP_SECONDS) {
        // the measured phase starts: memory after collection, a fresh event-loop delay window, and the
        // clients count from now
        // a server too busy to answer is itself a finding: the measured phase then starts at the first
        // reading it answers (reported as warmupReadingLateSeconds), and the run goes on
        if (HEAP_SNAPSHOTS && !snapshotAtWarmup) snapshotAtWarmup = await heapSnapshot(child);
        afterWarmup = await metrics('gc=1&reset=1');
        if (!afterWarmup) continue;
        warmupReadingLate = Math.round(elapsed - WARMUP_SECONDS);
        for (const c of clients) c.tell({ type: 'measure' });
        cpuAtWarmup = sampleCpu();
        serverCpuAtWarmup = sampleCpu(child.pid);
        timeline.push(sample(elapsed, afterWarmup, serverCores));
        console.log(
          `warm-up over: rss ${mb(afterWarmup.memory.rss)} MB, heap ${mb(afterWarmup.memory.heapUsed)} MB`,
        );
        continue;
      }
      const m = await metrics('');
      if (!m) continue;
      timeline.push(sample(elapsed, m, serverCores));
      console.log(
        `${elapsed.toFixed(0)} s: lag p99 ${m.eventLoop.p99Ms.toFixed(1)} ms, rss ${mb(m.memory.rss)} MB, ` +
          `heap ${mb(m.memory.heapUsed)} MB, sockets ${m.appSockets}, server ${serverCores ?? '?'} cores`,
      );
    }
    // the clients stop acting and wait for their last answers; the sockets stay open for the last reading
    for (const c of clients) c.tell({ type: 'stop' });
    const results = await Promise.all(clients.map((c) => c.result));
    const cpuAtEnd = sampleCpu();
    const serverCpuAtEnd = sampleCpu(child.pid);
    const atEnd = await mustMetrics('gc=1');
    afterWarmup ??= atEnd;
    if (HEAP_SNAPSHOTS) console.log(`heap snapshots: ${snapshotAtWarmup}, ${await heapSnapshot(child)}`);
    for (const c of clients) c.tell({ type: 'close' });

    // the clients' figures together
    const latencies = new Map<string, number[]>();
    const statuses = new Map<string, Record<string, number>>();
    const clientErrors: Record<string, Record<string, number>> = {};
    const messages: Record<string, number> = {};
    let socketBytes = 0;
    let socketsClosed = 0;
    let socketErrors = 0;
    let staleBalances = 0;
    const pushAfterAnswer: number[] = [];
    for (const r of results) {
      for (const [route, l] of Object.entries(r.latencies)) {
        const all = latencies.get(route) ?? [];
        for (const v of l) all.push(v);
        latencies.set(route, all);
      }
      for (const [route, s] of Object.entries(r.statuses)) {
        const all = statuses.get(route) ?? {};
        for (const [k, n] of Object.entries(s)) all[k] = (all[k] ?? 0) + n;
        statuses.set(route, all);
      }
      for (const [route, e] of Object.entries(r.clientErrors)) {
        const all = (clientErrors[route] ??= {});
        for (const [k, n] of Object.entries(e)) all[k] = (all[k] ?? 0) + n;
      }
      for (const [k, n] of Object.entries(r.messages)) messages[k] = (messages[k] ?? 0) + n;
      socketBytes += r.socketBytes;
      socketsClosed += r.socketsClosed;
      socketErrors += r.socketErrors;
      staleBalances += r.staleBalances;
      for (const v of r.pushAfterAnswer) pushAfterAnswer.push(v);
    }

    const byRoute: Record<string, unknown> = {};
    const byStatus: Record<string, number> = {};
    let answers = 0;
    for (const [route, l] of latencies) {
      const s = statuses.get(route) ?? {};
      byRoute[route] = {
        answers: l.length,
        p50Ms: +percentile(l, 50).toFixed(1),
        p99Ms: +percentile(l, 99).toFixed(1),
        byStatus: s,
        noAnswer: clientErrors[route] ?? {},
      };
      if (route === 'POST /api/auth/login') continue;
      for (const [status, n] of Object.entries(s)) {
        byStatus[status] = (byStatus[status] ?? 0) + n;
        answers += n;
      }
    }
    const noAnswer = Object.values(clientErrors)
      .flatMap((e) => Object.values(e))
      .reduce((a, b) => a + b, 0);
    const errors5xx = Object.entries(byStatus)
      .filter(([s]) => /^5\d\d$/.test(s))
      .reduce((sum, [, n]) => sum + n, 0);
    const rssGrowth = afterWarmup.memory.rss > 0 ? atEnd.memory.rss / afterWarmup.memory.rss - 1 : 0;
    const heapGrowth =
      afterWarmup.memory.heapUsed > 0 ? atEnd.memory.heapUsed / afterWarmup.memory.heapUsed - 1 : 0;
    const measuredSeconds = SECONDS - WARMUP_SECONDS - warmupReadingLate;
    const clientLagP99 = Math.max(...results.map((r) => r.lagP99Ms));
    const figures = {
      database: target.label,
      players: PLAYERS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      warmupReadingLateSeconds: warmupReadingLate,
      actionEverySeconds: ACTION_EVERY_S,
      caseId,
      rateLimits: RATE_LIMITS,
      clientProcesses: clients.length,
      readySeconds: +readySeconds.toFixed(1),
      signInSeconds: +Math.max(...ready.map((r) => r.signInSeconds)).toFixed(1),
      socketConnectSeconds: +Math.max(...ready.map((r) => r.connectSeconds)).toFixed(1),
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
      answersPerSecond: +(answers / measuredSeconds).toFixed(1),
      answersByStatus: byStatus,
      requestsWithoutAnswer: noAnswer,
      routes: byRoute,
      socketMessages: messages,
      socketMBPerSecond: +(socketBytes / 1024 / 1024 / measuredSeconds).toFixed(2),
      socketsClosedDuringRun: socketsClosed,
      socketErrors,
      metricsReadingsMissed: metricsMissed,
      balancePushesOutOfOrder: staleBalances,
      balancePushAfterAnswerMs: {
        pairs: pushAfterAnswer.length,
        p50: +percentile(pushAfterAnswer, 50).toFixed(1),
        p99: +percentile(pushAfterAnswer, 99).toFixed(1),
      },
      /** the database work of the measured phase, per answer (the balance reads and the catch-ups included) */
      databasePerAnswer:
        answers > 0 && atEnd.database && afterWarmup.database // (a server from before the figure: none)
          ? {
              statements: +((atEnd.database.statements - afterWarmup.database.statements) / answers).toFixed(
                2,
              ),
              pooledConnections: +(
                (atEnd.database.acquisitions - afterWarmup.database.acquisitions) /
                answers
              ).toFixed(2),
              poolWaitMs: +(
                (atEnd.database.acquireWaitMs - afterWarmup.database.acquireWaitMs) /
                answers
              ).toFixed(1),
              connectionHeldMs: +((atEnd.database.heldMs - afterWarmup.database.heldMs) / answers).toFixed(1),
            }
          : null,
      serverCpuMsPerAnswer:
        answers > 0 && serverCpuAtWarmup && serverCpuAtEnd
          ? +((((serverCpuAtEnd.ours - serverCpuAtWarmup.ours) / TICKS) * 1000) / answers).toFixed(2)
          : null,
      cpuCores: {
        server: cores(serverCpuAtWarmup, serverCpuAtEnd),
        clients: +results.reduce((a, r) => a + r.cpuCores, 0).toFixed(2),
        restOfMachine: otherCores(cpuAtWarmup, cpuAtEnd),
        note: 'over the measured phase; the rest of the machine includes the database',
      },
      clientLag: results.map((r) => ({ p99Ms: +r.lagP99Ms.toFixed(1), maxMs: +r.lagMaxMs.toFixed(1) })),
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
      pass(noAnswer === 0, `requests without an answer (timeouts, resets): ${noAnswer} (target 0)`),
      pass(socketsClosed === 0, `sockets lost during the run: ${socketsClosed}`),
      pass(
        clientLagP99 < CLIENT_LAG_LIMIT_MS,
        `bench: client processes' event-loop lag p99 ${clientLagP99.toFixed(1)} ms (under ` +
          `${CLIENT_LAG_LIMIT_MS} ms, else the figures are partly the clients')`,
      ),
    ];
    report('soak', { ...figures, verdict: lines });
    for (const line of lines) console.log(line);
    if (lines.some((l) => l.startsWith('FAIL'))) process.exitCode = 1;
  } finally {
    for (const c of clients) {
      c.tell({ type: 'close' });
      c.child.kill('SIGTERM');
    }
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await target.cleanup();
  }
}

/** CPU of one process tree between two samples, in cores. */
function cores(a: ReturnType<typeof sampleCpu>, b: ReturnType<typeof sampleCpu>): number | null {
  if (!a || !b || b.at <= a.at) return null;
  return +((b.ours - a.ours) / TICKS / ((b.at - a.at) / 1000)).toFixed(2);
}
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

function sample(atSeconds: number, m: AdminMetricsResponse, serverCores: number | null) {
  return {
    atSeconds: Math.round(atSeconds),
    rssMB: mb(m.memory.rss),
    heapUsedMB: mb(m.memory.heapUsed),
    lagP99Ms: +m.eventLoop.p99Ms.toFixed(2),
    serverCores,
  };
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const pass = (ok: boolean, text: string) => `${ok ? 'PASS' : 'FAIL'} ${text}`;

await main();
process.exit(process.exitCode ?? 0);
