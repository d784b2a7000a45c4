// First-screen load against a freshly started production server (built client, fresh embedded database):
//  - bytes on the wire (encoded, as sent: CDP Network.loadingFinished encodedDataLength) of JavaScript, CSS
//    and images until the first case picture is visible, listed by file;
//  - console errors and warnings while loading home and opening a case page;
//  - Lighthouse (mobile preset) performance, accessibility and best practices, median of BENCH_LH_RUNS (3);
//  - GET /api/cases throughput and p99 at 50 connections (autocannon) on PGlite and, when reachable, Postgres.
// Targets print PASS/FAIL. "Before" figures (today's code measured with this same bench) are read from
// bench/load-baseline.json when present, and the catalogue speed-up is computed against them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from '@playwright/test';
import { createTestDatabase, postgresUrl } from '../tests/api/harness.ts';
import { report } from './report.ts';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.BENCH_LOAD_PORT ?? 8824);
const LH_RUNS = Number(process.env.BENCH_LH_RUNS ?? 3);
const CANNON_SECONDS = Number(process.env.BENCH_CANNON_SECONDS ?? 10);
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
];

/** Markers that identify a chunk's library by its contents (chunk names are hashes). */
const LIBRARIES: Record<string, RegExp> = {
  tonconnect: /TonConnectUI|TonConnectError|tc-widget-root|@tonconnect\//,
  pixi: /PixiJS|__PIXI_|@pixi\//,
};

const TARGETS = {
  firstScreenJsKB: 150,
  lighthouse: 95,
  catalogueSpeedup: 10,
};

if (!existsSync('dist/index.html') || process.env.BENCH_LOAD_BUILD === '1') {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function startProductionServer(port: number, env: Record<string, string> = {}): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-load-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 600) throw new Error('the server did not come up in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface Transfer {
  url: string;
  type: string;
  encoding: string;
  bytes: number;
  finishedAt: number;
}

function fileOf(url: string): string {
  const u = new URL(url);
  return u.pathname + (u.search ? u.search : '');
}

function libraryOf(file: string): string[] {
  const path = join('dist', new URL(file, 'http://x').pathname);
  if (!existsSync(path) || !path.endsWith('.js')) return [];
  const text = readFileSync(path, 'utf8');
  return Object.entries(LIBRARIES)
    .filter(([, marker]) => marker.test(text))
    .map(([name]) => name);
}

/** Loads home in a fresh browser, stops the clock when the first case picture shows, then opens a case. */
async function firstScreen(url: string) {
  const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS.slice(1) });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const consoleMessages: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleMessages.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => consoleMessages.push(`pageerror: ${e.message}`));

    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const seen = new Map<string, { url: string; type: string; encoding: string }>();
    const transfers: Transfer[] = [];
    const external = new Set<string>();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (!e.request.url.startsWith(url) && /^https?:/.test(e.request.url)) external.add(e.request.url);
    });
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      seen.set(e.requestId, {
        url: e.response.url,
        type: e.type ?? 'Other',
        encoding: String(headers['content-encoding'] ?? 'none'),
      });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = seen.get(e.requestId);
      if (r) transfers.push({ ...r, bytes: e.encodedDataLength, finishedAt: performance.now() });
    });

    const started = performance.now();
    await page.goto(url + '/');
    const picture = page.locator('[data-testid="case-card"] img').first();
    await picture.waitFor({ state: 'visible', timeout: 60_000 });
    await page.waitForFunction(
      () => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="case-card"] img');
        return !!img && img.complete && img.naturalWidth > 0;
      },
      undefined,
      { timeout: 60_000 },
    );
    const visibleAt = performance.now();
    const before = transfers.filter((t) => t.finishedAt <= visibleAt);
    const homeConsole = [...consoleMessages];

    // the case page: Pixi and the scene load here, and must print nothing either
    await page.locator('a[data-testid="case-card"]').first().click();
    await page.waitForURL(/\/case\//);
    await page.waitForTimeout(3000);
    await cdp.detach().catch(() => {});

    const byKind = (types: string[]) => before.filter((t) => types.includes(t.type));
    const kb = (list: Transfer[]) => +(list.reduce((s, t) => s + t.bytes, 0) / 1024).toFixed(1);
    const js = byKind(['Script']);
    const files = before
      .filter((t) => ['Script', 'Stylesheet', 'Image', 'Document', 'Fetch', 'XHR'].includes(t.type))
      .map((t) => ({
        file: fileOf(t.url),
        type: t.type,
        encoding: t.encoding,
        KB: +(t.bytes / 1024).toFixed(1),
        libraries: t.type === 'Script' ? libraryOf(fileOf(t.url)) : [],
      }));
    const libraries = [...new Set(files.flatMap((f) => f.libraries))];
    return {
      firstPictureMs: Math.round(visibleAt - started),
      jsKB: kb(js),
      cssKB: kb(byKind(['Stylesheet'])),
      imageKB: kb(byKind(['Image'])),
      jsFiles: js.length,
      uncompressedTextFiles: files
        .filter((f) => ['Script', 'Stylesheet', 'Document'].includes(f.type) && f.encoding === 'none')
        .map((f) => f.file),
      librariesOnFirstScreen: libraries,
      externalRequests: [...external],
      files,
      consoleHome: homeConsole,
      consoleCasePage: consoleMessages.slice(homeConsole.length),
    };
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function lighthouseRuns(url: string) {
  const runs: Record<string, number>[] = [];
  const audits: Record<string, unknown>[] = [];
  for (let i = 0; i < LH_RUNS; i++) {
    const chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: CHROME_FLAGS });
    try {
      const result = await lighthouse(url + '/', {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      if (!result) throw new Error('lighthouse gave no result');
      const { categories, audits: a } = result.lhr;
      runs.push({
        performance: Math.round((categories.performance?.score ?? 0) * 100),
        accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
        bestPractices: Math.round((categories['best-practices']?.score ?? 0) * 100),
        fcpMs: Math.round(a['first-contentful-paint']?.numericValue ?? NaN),
        lcpMs: Math.round(a['largest-contentful-paint']?.numericValue ?? NaN),
        tbtMs: Math.round(a['total-blocking-time']?.numericValue ?? NaN),
        transferKB: Math.round((a['total-byte-weight']?.numericValue ?? NaN) / 1024),
      });
      // what is holding the scores down, for the report
      audits.push(
        Object.fromEntries(
          Object.values(a)
            .filter(
              (x) =>
                x.score !== null &&
                x.score < 0.9 &&
                x.scoreDisplayMode !== 'informative' &&
                x.scoreDisplayMode !== 'notApplicable' &&
                x.scoreDisplayMode !== 'manual',
            )
            .map((x) => [x.id, x.displayValue ?? x.score]),
        ),
      );
    } finally {
      chrome.kill();
    }
  }
  const keys = Object.keys(runs[0] ?? {});
  return {
    runs,
    median: Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]!))])),
    failingAuditsLastRun: audits.at(-1) ?? {},
  };
}

/**
 * GET /api/cases from 50 connections: catalogue answers (2xx) per second. Anything else is counted apart
 * and not as throughput: a 429 is the rate limiter's answer, not the catalogue's (the servers here raise
 * the limit, since every connection comes from one address).
 */
async function catalogueThroughput(url: string) {
  const result = await autocannon({
    url: `${url}/api/cases`,
    connections: 50,
    duration: CANNON_SECONDS,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
  });
  return {
    requestsPerSecond: Math.round(result['2xx'] / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** One client address floods the catalogue here: the per-address API limit would answer most of it 429. */
const FLOOD_LIMITS = { RATE_LIMIT_API_PER_ADDRESS: '100000000' };

async function postgresReachable(): Promise<boolean> {
  if (!postgresUrl) return false;
  try {
    const db = await createTestDatabase(postgresUrl);
    await db.drop();
    return true;
  } catch {
    return false;
  }
}

const server = await startProductionServer(PORT, FLOOD_LIMITS);
let load, lh, pglite;
try {
  load = await firstScreen(server.url);
  lh = await lighthouseRuns(server.url);
  pglite = await catalogueThroughput(server.url);
} finally {
  await server.stop();
}

let postgres: Awaited<ReturnType<typeof catalogueThroughput>> | string =
  'skipped: set TEST_DATABASE_URL to a reachable Postgres';
if (await postgresReachable()) {
  const db = await createTestDatabase(postgresUrl);
  const pgServer = await startProductionServer(PORT + 1, { ...FLOOD_LIMITS, DATABASE_URL: db.url! });
  try {
    postgres = await catalogueThroughput(pgServer.url);
  } finally {
    await pgServer.stop();
    await db.drop();
  }
}

const baselinePath = 'bench/load-baseline.json';
const baseline = existsSync(baselinePath)
  ? (JSON.parse(readFileSync(baselinePath, 'utf8')) as {
      measuredAt: string;
      catalogue: { pglite: { requestsPerSecond: number }; postgres?: { requestsPerSecond: number } };
    })
  : null;
const speedup = baseline
  ? +(pglite.requestsPerSecond / baseline.catalogue.pglite.requestsPerSecond).toFixed(1)
  : null;
const pgSpeedup =
  baseline?.catalogue.postgres && typeof postgres === 'object'
    ? +(postgres.requestsPerSecond / baseline.catalogue.postgres.requestsPerSecond).toFixed(1)
    : null;

const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
const targets = {
  firstScreenJs: `${verdict(load.jsKB <= TARGETS.firstScreenJsKB)} ${load.jsKB} KB on the wire (≤ ${TARGETS.firstScreenJsKB})`,
  noPixiNoTonConnect: `${verdict(load.librariesOnFirstScreen.length === 0 && load.externalRequests.length === 0)} libraries on the first screen: [${load.librariesOnFirstScreen.join(', ')}], requests elsewhere: ${load.externalRequests.length}`,
  lighthousePerformance: `${verdict(lh.median.performance! >= TARGETS.lighthouse)} ${lh.median.performance}`,
  lighthouseAccessibility: `${verdict(lh.median.accessibility! >= TARGETS.lighthouse)} ${lh.median.accessibility}`,
  lighthouseBestPractices: `${verdict(lh.median.bestPractices! >= TARGETS.lighthouse)} ${lh.median.bestPractices}`,
  consoleClean: `${verdict(load.consoleHome.length + load.consoleCasePage.length === 0)} ${load.consoleHome.length} on home, ${load.consoleCasePage.length} on the case page`,
  catalogueSpeedup:
    speedup === null
      ? 'UNKNOWN: no bench/load-baseline.json to compare with'
      : `${verdict(speedup >= TARGETS.catalogueSpeedup && pglite.non2xx === 0 && pglite.errors === 0)} ${speedup}x the baseline's req/s on PGlite (≥ ${TARGETS.catalogueSpeedup}x), ${pglite.non2xx} non-2xx, ${pglite.errors} errors`,
};

report('load', {
  targets,
  firstScreen: load,
  lighthouse: lh,
  catalogue: { connections: 50, seconds: CANNON_SECONDS, pglite, postgres },
  baseline: baseline
    ? {
        measuredAt: baseline.measuredAt,
        ...baseline.catalogue,
        speedupPglite: speedup,
        speedupPostgres: pgSpeedup,
      }
    : null,
});
console.log('\nTargets:');
for (const [name, line] of Object.entries(targets)) console.log(`  ${name.padEnd(26)} ${line}`);
