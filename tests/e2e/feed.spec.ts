import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The live drops feed in real browsers: two browser contexts are two viewers (the e2e server is in demo
// mode with one demo player; the feed is public, so the second context watches like anyone else). A drop
// opened in one shows in the other within 2 s; the feed pauses while the app is hidden and catches up;
// and it survives a server restart without repeats (a server of its own, started and stopped here).

const DROP_WITHIN_MS = 2000;

async function viewerAt(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 400, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/');
  await expect(page.getByTestId('drop-feed')).toHaveAttribute('data-status', 'live', { timeout: 30_000 });
  return { context, page };
}

async function tokenOf(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}

/** POST /api/cases/open as the page's player: the opening id. */
async function openCase(page: Page, caseId = 'starter'): Promise<string> {
  const answer = await page.request.post('/api/cases/open', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { caseId },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { openingId: string }).openingId;
}

/** Demo deposit (the e2e server credits it shortly after) when the balance is below `amount` TON. */
async function topUp(page: Page, amount: string): Promise<void> {
  const headers = { authorization: `Bearer ${await tokenOf(page)}` };
  const balance = async () =>
    Number(
      ((await (await page.request.get('/api/deposit/balance', { headers })).json()) as { balance: string })
        .balance,
    );
  const before = await balance();
  if (before >= Number(amount)) return;
  const answer = await page.request.post('/api/deposit/demo', {
    headers,
    data: { amount: '20', method: 'cryptobot' },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  await expect.poll(balance, { timeout: 20_000 }).toBeGreaterThan(before);
}

const card = (page: Page, id: string) => page.locator(`[data-testid="drop-card"][data-drop-id="${id}"]`);

/** The drop ids on the page, as many times as they are there. */
function shownIds(page: Page): Promise<string[]> {
  return page
    .getByTestId('drop-card')
    .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-drop-id') ?? ''));
}

async function expectNoRepeats(page: Page): Promise<void> {
  const ids = await shownIds(page);
  expect(ids.length).toBeGreaterThan(0);
  expect(new Set(ids).size, `repeated drops: ${ids.join(', ')}`).toBe(ids.length);
}

function setVisibility(page: Page, state: 'visible' | 'hidden') {
  return page.evaluate((value) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

test('a drop opened in one browser shows in the other browser within 2 s', async ({ browser, baseURL }) => {
  const viewer = await viewerAt(browser, baseURL!);
  const opener = await viewerAt(browser, baseURL!);
  try {
    // the opener opens a case through the UI
    await opener.page.goto('/case/starter');
    const answered = opener.page.waitForResponse(
      (r) =>
        r.request().method() === 'POST' && /\/api\/cases\/open(-multiple)?$/.test(new URL(r.url()).pathname),
    );
    await opener.page.getByTestId('quick-open-button').click();
    const body = (await (await answered).json()) as { openingId?: string; results?: { openingId: string }[] };
    const id = body.openingId ?? body.results![0]!.openingId;
    await expect(card(viewer.page, id)).toBeVisible({ timeout: DROP_WITHIN_MS });
    const shown = card(viewer.page, id);
    await expect(shown.locator('.drop-card__user')).toHaveText('@demo_player');
    await expect(shown.locator('.drop-card__name')).not.toBeEmpty();
    // and on the opener's own case page, below the win screen
    await expect(card(opener.page, id)).toHaveCount(1);

    // newest first
    const next = await openCase(opener.page);
    await expect(card(viewer.page, next)).toBeVisible({ timeout: DROP_WITHIN_MS });
    expect((await shownIds(viewer.page)).slice(0, 2)).toEqual([next, id]);
    await expectNoRepeats(viewer.page);
    await expect.poll(() => viewer.page.getByTestId('drop-card').count()).toBeLessThanOrEqual(30);
  } finally {
    await viewer.context.close();
    await opener.context.close();
  }
});

test('your own drop enters your feed when your reel settles; another page sees it at once', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const viewer = await viewerAt(browser, baseURL!);
  const opener = await viewerAt(browser, baseURL!);
  try {
    await opener.page.bringToFront();
    await opener.page.goto('/case/starter');
    await expect(opener.page.getByTestId('drop-feed')).toHaveAttribute('data-status', 'live', {
      timeout: 30_000,
    });
    await topUp(opener.page, '5');
    // the opener's page notes whether any of its own drop cards showed before the win screen, and when
    await opener.page.evaluate(() => {
      const marks: { win?: number; card?: number; cardBeforeWin: boolean; ids: string[] } = {
        cardBeforeWin: false,
        ids: [],
      };
      (window as unknown as { __marks: typeof marks }).__marks = marks;
      const look = () => {
        const now = performance.now();
        if (marks.win === undefined && document.querySelector('[data-testid="win-screen"]')) marks.win = now;
        const shown = marks.ids.some((id) =>
          document.querySelector(`[data-testid="drop-card"][data-drop-id="${id}"]`),
        );
        if (shown && marks.card === undefined) {
          marks.card = now;
          if (marks.win === undefined) marks.cardBeforeWin = true;
        }
      };
      new MutationObserver(look).observe(document.body, { childList: true, subtree: true });
    });
    const answered = opener.page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/cases/open-multiple',
    );
    await opener.page.getByTestId('open-button').click();
    const body = (await (await answered).json()) as { results: { openingId: string }[] };
    const id = body.results[0]!.openingId;
    await opener.page.evaluate((own) => {
      (window as unknown as { __marks: { ids: string[] } }).__marks.ids.push(own);
    }, id);

    // another page sees it at once, while the opener's reel still spins without it
    await expect(card(viewer.page, id)).toBeVisible({ timeout: DROP_WITHIN_MS });
    await expect(opener.page.getByTestId('case-page')).toHaveAttribute('data-phase', 'spinning');
    await expect(card(opener.page, id)).toHaveCount(0);

    // the reel lands: the win screen, then the drop in the opener's own feed
    // (the scene runtime may still be loading on a slow machine: its watchdog gives up after 2 minutes)
    await expect(opener.page.getByTestId('win-screen')).toBeVisible({ timeout: 150_000 });
    await expect(card(opener.page, id)).toHaveCount(1);
    const marks = await opener.page.evaluate(
      () => (window as unknown as { __marks: { win: number; card: number; cardBeforeWin: boolean } }).__marks,
    );
    expect(marks.cardBeforeWin, 'the own drop showed before the win screen').toBe(false);
    expect(marks.card - marks.win, 'the own drop follows the win screen within a second').toBeLessThan(1000);
  } finally {
    await viewer.context.close();
    await opener.context.close();
  }
});

test('the feed pauses while the app is hidden and catches up when it shows again', async ({
  browser,
  baseURL,
}) => {
  const viewer = await viewerAt(browser, baseURL!);
  try {
    const feed = viewer.page.getByTestId('drop-feed');
    await setVisibility(viewer.page, 'hidden');
    await expect(feed).toHaveAttribute('data-status', 'paused');
    const missed = await openCase(viewer.page);
    await viewer.page.waitForTimeout(500);
    await expect(card(viewer.page, missed)).toHaveCount(0); // nothing arrives while paused

    await setVisibility(viewer.page, 'visible');
    await expect(card(viewer.page, missed)).toBeVisible({ timeout: DROP_WITHIN_MS });
    await expect(feed).toHaveAttribute('data-status', 'live');
    await expectNoRepeats(viewer.page);
  } finally {
    await viewer.context.close();
  }
});

// ── a server of this test's own, to restart ────────────────────────────────────────────────────────

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface AppProcess {
  child: ChildProcess;
  output: string[];
}

async function startApp(port: number, dataDir: string): Promise<AppProcess> {
  // demo mode (no bot token), embedded database in its own folder, the built client
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TMPDIR: process.env.TMPDIR ?? tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CLIENT_DIR: 'dist',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(String(d)));
  child.stderr?.on('data', (d: Buffer) => output.push(String(d)));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output.join('')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.ok) return { child, output };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function stopApp(app: AppProcess | undefined): Promise<void> {
  if (!app || app.child.exitCode !== null || app.child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
  app.child.kill('SIGTERM');
  const timer = setTimeout(() => app.child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

test('after the server restarts, the feed recovers and shows every drop once', async ({ browser }) => {
  test.setTimeout(240_000);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'giftcases-feed-e2e-'));
  const base = `http://127.0.0.1:${port}`;
  let app: AppProcess | undefined = await startApp(port, dataDir);
  const contexts: BrowserContext[] = [];
  try {
    const viewer = await viewerAt(browser, base);
    const opener = await viewerAt(browser, base);
    contexts.push(viewer.context, opener.context);
    const feed = viewer.page.getByTestId('drop-feed');

    const before = await openCase(opener.page);
    await expect(card(viewer.page, before)).toBeVisible({ timeout: DROP_WITHIN_MS });

    // stop: the page sees the connection go and keeps trying
    await stopApp(app);
    app = undefined;
    await expect(feed).toHaveAttribute('data-status', 'connecting');

    // start again on the same port and data; a drop right away (likely before the page is back: catch-up)
    app = await startApp(port, dataDir);
    const whileAway = await openCase(opener.page);
    await expect(card(viewer.page, whileAway)).toBeVisible({ timeout: 30_000 });
    await expect(feed).toHaveAttribute('data-status', 'live');

    // and live again
    const after = await openCase(opener.page);
    await expect(card(viewer.page, after)).toBeVisible({ timeout: DROP_WITHIN_MS });

    await expectNoRepeats(viewer.page);
    expect((await shownIds(viewer.page)).slice(0, 3)).toEqual([after, whileAway, before]);
    for (const id of [before, whileAway, after]) await expect(card(viewer.page, id)).toHaveCount(1);
  } finally {
    for (const context of contexts) await context.close();
    await stopApp(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
