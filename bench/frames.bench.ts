// Roulette frame cost in headless Chromium with the CPU throttled (a cheap Android phone stands in), for each
// renderer and for a 200- and a 2000-card track, in one run so the ratios hold. Drives the debug scene
// switcher by URL (autoplay + loop), reads frame times from window.__sceneDebug and main-thread busy time
// from the DevTools protocol. Also checks that an idle page draws no frames.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { percentile, report } from './report.ts';

const THROTTLE = Number(process.env.BENCH_CPU_THROTTLE ?? 6);
const SECONDS = Number(process.env.BENCH_FRAME_SECONDS ?? 6);
const PORT = Number(process.env.BENCH_PORT ?? 8791);
const renderers = (process.env.BENCH_RENDERERS ?? 'webgl,canvas').split(',');
const tracks = [200, 2000];

if (!existsSync('dist/index.html')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-bench-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: {
    ...process.env,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEBUG_SCENES: '1',
    LOG_LEVEL: 'warn',
  },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${PORT}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch {
    /* not up yet */
  }
  if (i > 120) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 500));
}

const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'],
});

async function busyShare(page: Page, run: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metric = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (n: string) => metrics.find((m) => m.name === n)?.value ?? 0;
    return { task: get('TaskDuration'), at: get('Timestamp') };
  };
  const before = await metric();
  await run();
  const after = await metric();
  return (after.task - before.task) / (after.at - before.at);
}

async function measure(renderer: string, track: number) {
  const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
  const cdp = await page.context().newCDPSession(page);
  await page.goto(
    `${base}/debug?scene=roulette&reels=1&track=${track}&renderer=${renderer}&autoplay=1&loop=1`,
  );
  await page.waitForFunction(() => (window.__sceneDebug?.frames.length ?? 0) > 30, null, { timeout: 60_000 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  const start = await page.evaluate(() => window.__sceneDebug!.frames.length);
  const busy = await busyShare(page, () => page.waitForTimeout(SECONDS * 1000));
  const frames = await page.evaluate((from) => window.__sceneDebug!.frames.slice(from), start);
  await page.close();
  return {
    frames: frames.length,
    fps: +(frames.length / SECONDS).toFixed(1),
    p50FrameMs: +percentile(frames, 50).toFixed(1),
    p99FrameMs: +percentile(frames, 99).toFixed(1),
    mainThreadBusy: +busy.toFixed(3),
  };
}

async function idleFrames() {
  // the case list with nothing moving: count animation frames the page asks for over 2 s
  const page = await browser.newPage({ viewport: { width: 400, height: 800 } });
  await page.goto(`${base}/`);
  await page.waitForSelector('[data-testid="case-list"]', { timeout: 60_000 });
  await page.waitForTimeout(1500);
  const count = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let n = 0;
        const orig = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (cb) => {
          n++;
          return orig(cb);
        };
        setTimeout(() => resolve(n), 2000);
      }),
  );
  await page.close();
  return count;
}

const results: Record<string, unknown> = {};
try {
  for (const renderer of renderers)
    for (const track of tracks) results[`${renderer}-${track}`] = await measure(renderer, track);
  results.idleCaseListAnimationFrames = await idleFrames();
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

type R = { mainThreadBusy: number; p99FrameMs: number };
const r = results as Record<string, R>;
report('frames', {
  cpuThrottle: THROTTLE,
  secondsPerRun: SECONDS,
  ...results,
  track2000Over200Busy:
    r['webgl-2000'] && r['webgl-200']
      ? +(r['webgl-2000'].mainThreadBusy / r['webgl-200'].mainThreadBusy).toFixed(2)
      : null,
  canvasOverWebglBusy:
    r['canvas-200'] && r['webgl-200']
      ? +(r['canvas-200'].mainThreadBusy / r['webgl-200'].mainThreadBusy).toFixed(2)
      : null,
});
