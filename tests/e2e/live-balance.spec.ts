import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { readShown } from './money';

// The app's one socket in a real browser against the real server (demo mode, one demo player): an idle app
// asks nothing (no balance polls, not a single socket message sent) while the socket is up; a balance
// change made outside the page (a demo deposit through the API) reaches the header with no poll; when the
// socket drops the 5-second poll takes over, and when it comes back the poll stops again.

/** The balance requests the page makes. */
function countBalancePolls(page: Page): { count(): number } {
  let n = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/deposit/balance') n += 1;
  });
  return { count: () => n };
}

/** Watches the page's app sockets: messages sent by the page, and whether one is signed in now. */
function watchSocket(page: Page): { sent(): number; signedIn(): boolean } {
  let sent = 0;
  let signedIn = false;
  page.on('websocket', (ws) => {
    if (new URL(ws.url()).pathname !== '/api/ws') return;
    ws.on('framesent', () => (sent += 1));
    ws.on('framereceived', (frame) => {
      if (typeof frame.payload === 'string' && frame.payload.includes('"type":"auth_ok"')) signedIn = true;
    });
    ws.on('close', () => (signedIn = false));
  });
  return { sent: () => sent, signedIn: () => signedIn };
}

async function tokenOf(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}

async function serverBalance(page: Page): Promise<bigint> {
  const answer = await page.request.get('/api/deposit/balance', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
  });
  return readShown(((await answer.json()) as { balance: string }).balance);
}

const headerBalance = async (page: Page) => readShown(await page.getByTestId('header-balance').innerText());

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
});

test('an idle app with its socket up sends nothing and polls no balance for 15 s', async ({ page }) => {
  test.setTimeout(90_000);
  const socket = watchSocket(page);
  await page.goto('/');
  await expect(page.getByTestId('header-balance')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => socket.signedIn(), { timeout: 30_000 }).toBe(true);
  await page.waitForTimeout(1000); // the start's own requests are done
  const polls = countBalancePolls(page);
  const sentBefore = socket.sent();
  await page.waitForTimeout(15_000);
  expect(polls.count(), 'balance requests while the socket is up').toBe(0);
  expect(socket.sent() - sentBefore, 'socket messages sent by the idle app').toBe(0);
});

test('a balance change made through the API shows in the header without a poll', async ({ page }) => {
  test.setTimeout(90_000);
  const socket = watchSocket(page);
  await page.goto('/');
  await expect(page.getByTestId('header-balance')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => socket.signedIn(), { timeout: 30_000 }).toBe(true);
  const polls = countBalancePolls(page);
  const before = await serverBalance(page);
  await expect.poll(() => headerBalance(page)).toBe((before / 10_000_000n) * 10_000_000n);

  const answer = await page.request.post('/api/deposit/demo', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { amount: '3.5', method: 'cryptobot' },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  // the credit lands after the demo delay; the header follows it from the socket alone
  await expect.poll(() => headerBalance(page), { timeout: 20_000 }).toBeGreaterThan(before);
  const after = await serverBalance(page);
  await expect.poll(() => headerBalance(page)).toBe((after / 10_000_000n) * 10_000_000n);
  expect(polls.count(), 'balance requests').toBe(0);
});

test('socket dropped: the balance poll resumes; socket back: the poll stops', async ({ page }) => {
  test.setTimeout(120_000);
  let down = false;
  const routes = new Set<WebSocketRoute>();
  await page.routeWebSocket(/\/api\/ws(\?|$)/, (ws) => {
    if (down) {
      void ws.close({ code: 1011, reason: 'down' });
      return;
    }
    routes.add(ws);
    ws.connectToServer();
  });
  const socket = watchSocket(page);
  await page.goto('/');
  await expect(page.getByTestId('header-balance')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => socket.signedIn(), { timeout: 30_000 }).toBe(true);
  const polls = countBalancePolls(page);
  await page.waitForTimeout(6000);
  expect(polls.count(), 'no poll while the socket is up').toBe(0);

  // the socket goes down and stays down: the 5-second poll takes over
  down = true;
  for (const ws of routes) await ws.close({ code: 1011, reason: 'down' });
  routes.clear();
  await expect.poll(() => polls.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);

  // it comes back (the client retries with backoff): signed in again, the poll stops
  down = false;
  await expect.poll(() => routes.size > 0 && socket.signedIn(), { timeout: 30_000 }).toBe(true);
  await page.waitForTimeout(500); // a poll already in flight may still land
  const settled = polls.count();
  await page.waitForTimeout(12_000);
  expect(polls.count() - settled, 'no poll once the socket is back').toBe(0);
});

test('a case opening holds the pushed balance only until its reels move: a later credit shows', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const socket = watchSocket(page);
  await page.goto('/case/starter');
  await expect(page.getByTestId('open-button')).toBeEnabled({ timeout: 30_000 });
  await expect.poll(() => socket.signedIn(), { timeout: 30_000 }).toBe(true);
  const polls = countBalancePolls(page);

  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/cases/open-multiple' && r.request().method() === 'POST',
  );
  await page.getByTestId('open-button').click();
  const opened = (await (await answer).json()) as { balance: string };
  // the opening's own balance (from its answer and its push) shows as the reels move
  await expect(page.getByTestId('roulette')).toHaveAttribute('data-spinning', 'true');
  const paid = readShown(opened.balance);
  await expect.poll(() => headerBalance(page)).toBe((paid / 10_000_000n) * 10_000_000n);

  // a credit during the spin waits for its end (the header holds still while a scene plays), then shows
  const credit = await page.request.post('/api/deposit/demo', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { amount: '2', method: 'cryptobot' },
  });
  expect(credit.ok(), await credit.text()).toBe(true);
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => headerBalance(page), { timeout: 20_000 }).toBeGreaterThan(paid);
  const after = await serverBalance(page);
  await expect.poll(() => headerBalance(page)).toBe((after / 10_000_000n) * 10_000_000n);

  // and one after the win screen closed, with nothing playing
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('win-screen')).toHaveCount(0);
  const second = await page.request.post('/api/deposit/demo', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { amount: '1.5', method: 'cryptobot' },
  });
  expect(second.ok(), await second.text()).toBe(true);
  await expect.poll(() => headerBalance(page), { timeout: 20_000 }).toBeGreaterThan(after);
  expect(polls.count(), 'balance requests').toBe(0);
});
