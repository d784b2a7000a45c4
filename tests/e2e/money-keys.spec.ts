import { expect, test, type Page, type Request } from '@playwright/test';

// Finding 9 of the hostile-traffic review, from the screens' side: every money request the app sends (an
// opening, normal or quick, the win screen's sell, the inventory's sell and withdraw) carries an
// Idempotency-Key of its own, and a request whose answer was lost is sent again with the same key, so the
// server applies it once. The requests are the app's own, read off the wire; nothing here calls the API.

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const QUICK_COPY_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:\d$/;
const MONEY = [
  '/api/cases/open',
  '/api/cases/open-multiple',
  '/api/inventory/sell',
  '/api/inventory/withdraw',
];

interface Sent {
  path: string;
  key: string | undefined;
}

function recordMoney(page: Page): Sent[] {
  const sent: Sent[] = [];
  page.on('request', (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && MONEY.includes(path))
      sent.push({ path, key: request.headers()['idempotency-key'] });
  });
  return sent;
}

async function fundedCasePage(page: Page): Promise<void> {
  await english(page);
  await page.goto('/case/starter');
  // the demo player's balance is shared with other tests: top it up when it is low
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const balance = (await (await page.request.get('/api/deposit/balance', { headers })).json()) as {
    balance: string;
  };
  if (Number(balance.balance) < 5) {
    await page.request.post('/api/deposit/demo', { headers, data: { amount: '20', method: 'cryptobot' } });
    await expect
      .poll(
        async () =>
          Number(
            (
              (await (await page.request.get('/api/deposit/balance', { headers })).json()) as {
                balance: string;
              }
            ).balance,
          ),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThan(5);
    await page.reload();
  }
  await expect(page.locator('[data-testid="open-button"]:not([disabled])')).toBeVisible({ timeout: 30_000 });
}

test('every money request of the screens carries its own Idempotency-Key', async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ reducedMotion: 'reduce' }); // a short spin
  await fundedCasePage(page);
  const sent = recordMoney(page);

  // a normal open, then the win screen's sell
  await page.getByTestId('open-button').click();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });
  const won = page.getByTestId('win-item').first();
  await won.getByTestId('sell-button').click();
  // its one item sold, the win screen closes by itself
  await expect(page.getByTestId('win-screen')).toHaveCount(0, { timeout: 20_000 });

  // a quick open x2 (one request per copy)
  await page.getByTestId('count-x2').click();
  await page.getByTestId('quick-open-button').click();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('keep-button').click();

  // the inventory's sell and withdraw
  await page.goto('/inventory');
  const first = page.getByTestId('inventory-item').first();
  await expect(first).toBeVisible({ timeout: 30_000 });
  await first.getByTestId('inventory-sell').click();
  await expect(page.getByTestId('inventory-sell')).not.toHaveCount(0);
  // (a Telegram gift: TON items cannot be withdrawn) asked first, then sent
  const gift = page
    .getByTestId('inventory-item')
    .filter({ hasNot: page.getByTestId('inventory-not-withdrawable') })
    .first();
  await expect(gift.getByTestId('inventory-withdraw')).toBeEnabled();
  await gift.getByTestId('inventory-withdraw').click();
  await page.getByTestId('withdraw-dialog-confirm').click();
  await expect.poll(() => sent.filter((s) => s.path === '/api/inventory/withdraw').length).toBe(1);

  expect(sent.map((s) => s.path)).toEqual([
    '/api/cases/open-multiple',
    '/api/inventory/sell',
    '/api/cases/open',
    '/api/cases/open',
    '/api/inventory/sell',
    '/api/inventory/withdraw',
  ]);
  // a quick open's copies share their tap's key, each with its copy's number
  for (const s of sent) expect(s.key, s.path).toMatch(s.path === '/api/cases/open' ? QUICK_COPY_KEY : UUID);
  expect(new Set(sent.map((s) => s.key)).size).toBe(sent.length);
});

test("the win screen's sell whose answer is lost is sent again with the same key and sells once", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await fundedCasePage(page);
  const sent = recordMoney(page);
  await page.getByTestId('count-x1').click();
  await page.getByTestId('quick-open-button').click();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 30_000 });
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const inventory = async () =>
    (
      (await (
        await page.request.get('/api/inventory', { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { inventory: { item: { id: string }; quantity: number }[] }
    ).inventory;
  const itemId = (await page.getByTestId('win-item').first().getAttribute('data-item-id')) ?? null;
  const held = async () => (await inventory()).find((e) => e.item.id === itemId)?.quantity ?? 0;
  const before = await held();

  // the first sell reaches the server and is applied, but its answer never arrives
  let cut = false;
  await page.route('**/api/inventory/sell', async (route) => {
    if (cut) return route.continue();
    cut = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  const won = page.getByTestId('win-item').first();
  await won.getByTestId('sell-button').click();
  // sold (the retry's answer came): its one item sold, the win screen closes by itself
  await expect(page.getByTestId('win-screen')).toHaveCount(0, { timeout: 20_000 });

  const sells = sent.filter((s) => s.path === '/api/inventory/sell');
  expect(sells).toHaveLength(2);
  expect(sells[0]!.key).toMatch(UUID);
  expect(sells[1]!.key).toBe(sells[0]!.key);
  // sold once: one unit fewer, not two
  expect(await held()).toBe(before - 1);
});
