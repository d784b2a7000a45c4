import { expect, test, type Page, type Route } from '@playwright/test';
import { parseTon } from '../../contract/money.ts';
import { shownBalance, shownPrice } from './money.ts';

// The inventory (its actions' shared pending state and refusals too), the profile's level, achievements and
// language switch, and the fairness page's seed form and verifier, against the real server in demo mode.
// Every e2e file shares one server and database (and the demo player), so nothing here assumes a fresh
// balance or an empty inventory: it reads them from the API first. Items are won by opening cases through
// the API with the page's own session token.

interface ApiItem {
  id: string;
  name: string;
  price: string;
}
interface InventoryEntry {
  id: string;
  quantity: number;
  item: ApiItem;
}
interface OpenResult {
  openingId: string;
  betId: string;
  item: ApiItem;
  proof: { serverSeedHash: string; clientSeed: string; nonce: number; roll: number };
}
interface Withdrawal {
  id: string;
  item: ApiItem;
  quantity: number;
  status: 'pending' | 'sending' | 'completed' | 'failed';
}

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));

/** A client for the API with the page's session (the token the app keeps under 'token'). */
async function apiOf(page: Page) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  const headers = { authorization: `Bearer ${token}` };
  const get = async <T>(path: string): Promise<T> => {
    const answer = await page.request.get(`/api${path}`, { headers });
    expect(answer.ok(), `GET ${path}`).toBe(true);
    return (await answer.json()) as T;
  };
  const post = async <T>(path: string, data: unknown): Promise<T> => {
    const answer = await page.request.post(`/api${path}`, { headers, data });
    expect(answer.ok(), `POST ${path}: ${await answer.text()}`).toBe(true);
    return (await answer.json()) as T;
  };
  const balance = async () => parseTon((await get<{ balance: string }>('/deposit/balance')).balance);
  const inventory = async () => (await get<{ inventory: InventoryEntry[] }>('/inventory')).inventory;
  return {
    get,
    post,
    balance,
    inventory,
    /** opens `count` starter cases (0.5 TON each), topping the balance up with a demo deposit if needed */
    async openStarter(count: number): Promise<OpenResult[]> {
      if ((await balance()) < parseTon('0.5') * BigInt(count) + parseTon('1')) {
        const before = await balance();
        await post('/deposit/demo', { amount: '20', method: 'cryptobot' });
        await expect.poll(balance, { timeout: 20_000 }).toBeGreaterThan(before);
      }
      const results: OpenResult[] = [];
      for (let left = count; left > 0; left -= 3) {
        const answer = await post<{ results: OpenResult[] }>('/cases/open-multiple', {
          caseId: 'starter',
          amount: Math.min(left, 3),
        });
        results.push(...answer.results);
      }
      return results;
    },
  };
}

/** The header shows the server's balance with 2 decimals (it is refreshed after every inventory action). */
async function expectHeaderBalance(page: Page, api: Awaited<ReturnType<typeof apiOf>>, expected: bigint) {
  await expect.poll(api.balance).toBe(expected);
  await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(expected));
}

const card = (page: Page, itemId: string) =>
  page.locator(`[data-testid="inventory-item"][data-item-id="${itemId}"]`);

test('sell one and sell all update the inventory and the header balance', async ({ page }) => {
  await english(page);
  await page.goto('/inventory');
  const api = await apiOf(page);
  await api.openStarter(3);
  await page.reload();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
  const entries = await api.inventory();
  expect(entries.length).toBeGreaterThan(0);
  // the grid lists what the API lists, in its order (dearest first), two columns
  await expect(page.getByTestId('inventory-item')).toHaveCount(entries.length);
  const ids = await page.getByTestId('inventory-item').evaluateAll((els) => els.map((e) => e.dataset.itemId));
  expect(ids).toEqual(entries.map((e) => e.id));
  expect(
    await page
      .getByTestId('inventory-grid')
      .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length),
  ).toBe(2);

  const first = entries[0]!;
  const one = card(page, first.id);
  await expect(one.getByText(first.item.name)).toBeVisible();
  await expect(one.getByTestId('inventory-quantity')).toHaveText(`Quantity: ${first.quantity}`);
  await expect(one.getByTestId('inventory-price')).toHaveText(shownPrice(first.item.price, 1));
  const before = await api.balance();
  await expectHeaderBalance(page, api, before);

  // sell one
  await one.getByTestId('inventory-sell').click();
  if (first.quantity > 1) {
    await expect(one.getByTestId('inventory-quantity')).toHaveText(`Quantity: ${first.quantity - 1}`);
  } else {
    await expect(one).toHaveCount(0);
  }
  await expectHeaderBalance(page, api, before + parseTon(first.item.price));
  const remaining = await api.inventory();
  expect(remaining.reduce((s, e) => s + e.quantity, 0)).toBe(entries.reduce((s, e) => s + e.quantity, 0) - 1);

  // sell all
  const afterOne = await api.balance();
  const worth = remaining.reduce((s, e) => s + BigInt(e.quantity) * parseTon(e.item.price), 0n);
  const sellAll = page.getByTestId('inventory-sell-all');
  await expect(sellAll).toHaveText('Sell all');
  await expect(sellAll).toBeEnabled();
  // it asks first, with the count and the exact total at the server's prices
  await sellAll.click();
  const dialog = page.getByTestId('sell-all-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading')).toHaveText('Sell everything?');
  const count = remaining.reduce((s, e) => s + e.quantity, 0);
  await expect(page.getByTestId('sell-all-total')).toHaveText(
    `Items: ${count}. Your balance gets ${shownPrice(worth, 2)} TON.`,
  );
  await expect(page.getByTestId('sell-all-dialog-confirm')).toHaveText(
    `Sell for ${shownPrice(worth, 2)} TON`,
  );
  // Cancel sells nothing
  await page.getByTestId('sell-all-dialog-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('inventory-item')).toHaveCount(remaining.length);
  expect(await api.inventory()).toEqual(remaining);
  expect(await api.balance()).toBe(afterOne);
  // confirmed, it sells everything
  await sellAll.click();
  await page.getByTestId('sell-all-dialog-confirm').click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('inventory-empty')).toHaveText('Inventory empty');
  await expect(page.getByTestId('inventory-item')).toHaveCount(0);
  await expect(sellAll).toBeDisabled();
  await expectHeaderBalance(page, api, afterOne + worth);
  expect(await api.inventory()).toEqual([]);
});

test('withdraw asks first, then the request goes through its timeline to delivered', async ({ page }) => {
  await english(page);
  await page.goto('/inventory');
  const api = await apiOf(page);
  // a won item that is a Telegram gift (in demo mode every item but the TON ones is)
  let itemId: string | undefined;
  for (let tries = 0; !itemId && tries < 10; tries++) {
    const won = await api.openStarter(3);
    itemId = won.map((w) => w.item.id).find((id) => !id.startsWith('ton_'));
  }
  expect(itemId).toBeDefined();
  const withdrawalsOf = async () =>
    (await api.get<{ withdrawals: Withdrawal[] }>('/inventory/withdrawals')).withdrawals.filter(
      (w) => w.item.id === itemId,
    );
  const before = (await withdrawalsOf()).length;
  const entry = (await api.inventory()).find((e) => e.id === itemId)!;
  const held = entry.quantity;
  await page.reload();

  const balance = await api.balance();
  const item = card(page, itemId!);
  await expect(item.getByTestId('inventory-quantity')).toHaveText(`Quantity: ${held}`);
  await expect(item.getByTestId('inventory-withdraw')).toHaveText('Withdraw');

  // the confirm says where the gift goes; cancelling changes nothing
  await item.getByTestId('inventory-withdraw').click();
  const dialog = page.getByTestId('withdraw-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('withdraw-dialog-text')).toHaveText(
    `${entry.item.name} will be sent to your Telegram profile.`,
  );
  await page.getByTestId('withdraw-dialog-cancel').click();
  await expect(dialog).toHaveCount(0);
  expect((await withdrawalsOf()).length).toBe(before);

  await item.getByTestId('inventory-withdraw').click();
  await page.getByTestId('withdraw-dialog-confirm').click();
  if (held > 1) await expect(item.getByTestId('inventory-quantity')).toHaveText(`Quantity: ${held - 1}`);
  else await expect(item).toHaveCount(0);

  // the newest request of this item, watched from requested to delivered (the simulated Telegram)
  await expect.poll(async () => (await withdrawalsOf()).length).toBe(before + 1);
  const id = (await withdrawalsOf())[0]!.id;
  await expect(page.getByRole('heading', { name: 'Withdrawals' })).toBeVisible();
  const request = page.locator('[data-testid="withdrawal"]').first();
  await expect(request).toHaveAttribute('data-item-id', itemId!);
  await expect(request.getByTestId('withdrawal-step-requested')).toHaveAttribute('data-done', 'true');
  await expect(request.getByTestId('withdrawal-step-requested').locator('time')).toBeVisible();
  await expect(request).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  await expect(request.getByTestId('withdrawal-status')).toHaveText('Delivered');
  for (const step of ['requested', 'sending', 'delivered']) {
    await expect(request.getByTestId(`withdrawal-step-${step}`)).toHaveAttribute('data-done', 'true');
    await expect(request.getByTestId(`withdrawal-step-${step}`).locator('time')).toBeVisible();
  }
  expect((await withdrawalsOf()).find((w) => w.id === id)?.status).toBe('completed');
  // withdrawing moves items, not money
  await expectHeaderBalance(page, api, balance);
});

test('an item that is not a Telegram gift cannot be withdrawn and says to sell it', async ({ page }) => {
  await english(page);
  await page.goto('/inventory');
  const api = await apiOf(page);
  // TON Balance drops from the starter case about one time in eleven: 120 openings miss it about once in
  // 80,000 runs, so the test always runs (it never skips)
  for (let tries = 0; tries < 40; tries++) {
    if ((await api.inventory()).some((e) => e.id === 'ton_balance')) break;
    await api.openStarter(3);
  }
  expect((await api.inventory()).some((e) => e.id === 'ton_balance'), 'TON Balance won').toBe(true);
  await page.reload();
  const item = card(page, 'ton_balance');
  await expect(item.getByTestId('inventory-withdraw')).toBeDisabled();
  await expect(item.getByTestId('inventory-not-withdrawable')).toHaveText(
    'Not a Telegram gift: sell it instead',
  );
  await expect(item.getByTestId('inventory-sell')).toBeEnabled();
});

/**
 * Holds the page's requests to `pathname` while held (the real server answers each once released), so a
 * test can look at the screen while an action is pending.
 */
async function holdRequests(page: Page, pathname: string) {
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  await page.route(
    (url) => url.pathname === pathname,
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  return {
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      open();
    },
  };
}

// (a withdraw button of an item that is not a Telegram gift stays disabled: it is described as such)
const INVENTORY_BUTTONS =
  '[data-testid="inventory-sell"], [data-testid="inventory-withdraw"]:not([aria-describedby]), [data-testid="inventory-sell-all"]';

/**
 * Every inventory button on the screen (Sell and Withdraw on each card, and Sell all) is `state`, once the
 * grid lists what the server holds.
 */
async function expectInventoryButtons(
  page: Page,
  api: Awaited<ReturnType<typeof apiOf>>,
  state: 'enabled' | 'disabled',
) {
  await expect(page.getByTestId('inventory-item')).toHaveCount((await api.inventory()).length);
  const buttons = page.locator('main').locator(INVENTORY_BUTTONS);
  const count = await buttons.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    if (state === 'enabled') await expect(buttons.nth(i)).toBeEnabled();
    else await expect(buttons.nth(i)).toBeDisabled();
  }
}

test('while one inventory action runs every inventory button waits, on the profile and the inventory alike', async ({
  page,
}) => {
  await english(page);
  await page.goto('/profile');
  const api = await apiOf(page);
  await api.openStarter(3);
  const sells = await holdRequests(page, '/api/inventory/sell');
  await page.reload();
  const [first, second] = await api.inventory();

  // a sale on the profile holds every button there
  await expect(page.getByRole('heading', { name: 'Inventory' })).toBeVisible();
  await expectInventoryButtons(page, api, 'enabled');
  sells.hold();
  await card(page, first!.id).getByTestId('inventory-sell').click();
  await expectInventoryButtons(page, api, 'disabled');
  // and still holds the inventory screen's, Sell all included, once the player moves there
  await page.getByTestId('profile-inventory-link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
  await expect(page.getByTestId('inventory-sell-all')).toBeDisabled();
  await expectInventoryButtons(page, api, 'disabled');
  const sold = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/inventory/sell');
  sells.release();
  expect((await sold).ok()).toBe(true);
  await expectInventoryButtons(page, api, 'enabled');

  // a sale that ends while no inventory is on screen leaves no button waiting
  const other = card(page, (second ?? first)!.id);
  sells.hold();
  await other.getByTestId('inventory-sell').click();
  await expectInventoryButtons(page, api, 'disabled');
  await page.getByTestId('tab-cases').click();
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  // the sale ends once the balance it changed is fetched again after its answer (the case list watches
  // nothing else it refreshes): only then back to the inventory. Both waits start before the release, so
  // neither answer can come before it is watched for.
  let saleAnswered = false;
  const again = page.waitForResponse((r) => {
    const sale = new URL(r.url()).pathname === '/api/inventory/sell';
    if (sale) saleAnswered = true;
    return sale;
  });
  const refreshed = page.waitForResponse(
    (r) => saleAnswered && new URL(r.url()).pathname === '/api/deposit/balance',
  );
  sells.release();
  await again;
  await refreshed;
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
  await expectInventoryButtons(page, api, 'enabled');
});

test("a refused inventory action shows the server's reason, translated, and frees the buttons", async ({
  page,
}) => {
  await english(page);
  await page.goto('/inventory');
  const api = await apiOf(page);
  const [won] = await api.openStarter(1);
  const itemId = won!.item.id;
  await page.reload();
  const item = card(page, itemId);
  await expect(item.getByTestId('inventory-sell')).toBeEnabled();

  // the item is sold elsewhere (another device) while this screen still shows it
  const held = (await api.inventory()).find((e) => e.id === itemId)!.quantity;
  await api.post('/inventory/sell', { itemId, quantity: held });
  const balance = await api.balance();

  await item.getByTestId('inventory-sell').click();
  await expect(page.getByTestId('inventory-action-error')).toHaveText('This item is not in your inventory.');
  await expect(item.getByTestId('inventory-sell')).toBeEnabled();
  await expect(page.getByTestId('inventory-sell-all')).toBeEnabled();
  expect(await api.balance()).toBe(balance);
});

test('the language switch on the profile changes every visible label', async ({ page }) => {
  await page.goto('/profile');
  const api = await apiOf(page);
  // something in the inventory, so its grid and buttons show
  await api.openStarter(1);
  await page.reload();

  const main = page.locator('main');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Профиль');
  // the demo player has opened cases: a rank above the first (the rank table's thresholds 1, 5, 15, ...)
  await expect(page.getByTestId('level-title')).toHaveText(/^Уровень [2-7]$/);
  await expect(page.getByTestId('level-rank')).toHaveText(
    /^(Исследователь|Охотник за дропом|Мастер кейсов|Охотник за бонусами|Сокровище|Эпический открыватель)$/,
  );
  await expect(page.getByTestId('next-rank-title')).toHaveText('Награды следующего ранга');
  await expect(page.getByTestId('rank-list')).toContainText('Исследователь');
  await expect(page.getByRole('heading', { name: 'Достижения' })).toBeVisible();
  await expect(page.locator('[data-testid="achievement"][data-id="first_case"]')).toContainText(
    'Первый кейс',
  );
  await expect(page.locator('[data-testid="achievement"][data-id="high_roller"]')).toContainText('Закрыто');
  await expect(page.getByRole('heading', { name: 'Инвентарь' })).toBeVisible();
  await expect(main.getByTestId('inventory-sell').first()).toHaveText('Продать');
  await expect(main.getByTestId('inventory-withdraw').first()).toHaveText('Вывести');
  await expect(main.getByTestId('inventory-quantity').first()).toHaveText(/^Количество: \d+$/);
  await expect(page.getByTestId('fairness-link')).toContainText('Честная игра');
  await expect(page.getByTestId('tab-profile')).toHaveAccessibleName('Профиль');

  await page.getByTestId('lang-en').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('level-title')).toHaveText(/^Level [2-7]$/);
  await expect(page.getByTestId('level-rank')).not.toHaveText('Rookie');
  await expect(page.getByTestId('level-progress-text')).toHaveText(
    /^(\d+ \/ \d+ openings|You have reached the highest rank)$/,
  );
  await expect(page.getByTestId('next-rank-title')).toHaveText('Next rank rewards');
  for (const rank of ['Explorer', 'Drop Hunter', 'Case Master', 'Bonus Raider', 'Treasure', 'Epic Opener']) {
    await expect(page.getByTestId('rank-list')).toContainText(rank);
  }
  await expect(page.getByRole('heading', { name: 'Achievements' })).toBeVisible();
  for (const title of ['First Case', 'Lucky Strike', 'Case Collector', 'High Roller']) {
    await expect(page.getByTestId('achievements')).toContainText(title);
  }
  // the demo player has opened cases: First Case is unlocked
  await expect(page.locator('[data-testid="achievement"][data-id="first_case"]')).toHaveAttribute(
    'data-unlocked',
    'true',
  );
  await expect(page.getByRole('heading', { name: 'Inventory' })).toBeVisible();
  await expect(main.getByTestId('inventory-sell').first()).toHaveText('Sell');
  await expect(main.getByTestId('inventory-withdraw').first()).toHaveText('Withdraw');
  await expect(main.getByTestId('inventory-quantity').first()).toHaveText(/^Quantity: \d+$/);
  await expect(page.getByTestId('fairness-link')).toContainText('Provably fair');
  await expect(page.getByTestId('tab-profile')).toHaveAccessibleName('Profile');

  // and no Russian is left on the screen but the name of the Russian language on its own button
  const leftovers = await main.evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('[data-testid="lang-ru"]').forEach((n) => n.remove());
    return (copy.innerText.match(/[^\n]*[А-Яа-яЁё][^\n]*/g) ?? []).join(' | ');
  });
  expect(leftovers).toBe('');
});

test('the verifier confirms a real opening after a rotate', async ({ page }) => {
  await english(page);
  await page.goto('/fairness');
  const api = await apiOf(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Provably fair');

  // choose a client seed, then open with it
  const seed = `e2e-${Date.now()}`;
  await page.getByTestId('fairness-client-seed').fill(seed);
  await page.getByTestId('fairness-save').click();
  await expect(page.getByText('Client seed saved')).toBeVisible();
  await expect.poll(async () => (await api.get<{ clientSeed: string }>('/fairness')).clientSeed).toBe(seed);
  const hash = (await api.get<{ serverSeedHash: string }>('/fairness')).serverSeedHash;
  await expect(page.getByTestId('fairness-hash')).toHaveText(hash);

  const [opened] = await api.openStarter(1);
  expect(opened!.proof).toMatchObject({ serverSeedHash: hash, clientSeed: seed, nonce: 0 });
  await page.reload();
  await expect(page.getByTestId('fairness-nonce')).toHaveText('1');

  // before the rotation the seed is secret: nothing to verify with yet
  const row = page.locator(`[data-testid="history-entry"][data-bet-id="${opened!.betId}"]`);
  await expect(row).toContainText(opened!.item.name);
  await expect(row.getByTestId('verify-button')).toBeDisabled();

  await page.getByTestId('fairness-rotate').click();
  await expect(page.getByTestId('fairness-revealed-seed')).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId('fairness-revealed')).toContainText(hash);
  await expect(page.getByTestId('fairness-nonce')).toHaveText('0');
  await expect(page.getByTestId('fairness-hash')).not.toHaveText(hash);

  const verify = row.getByTestId('verify-button');
  await expect(verify).toBeEnabled();
  await verify.click();
  const result = row.getByTestId('verify-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('✓ Verified');
  // numbers read in the interface's locale (English groups thousands with a comma)
  await expect(result).toContainText(`Roll ${opened!.proof.roll.toLocaleString('en-US')} of`);
  await expect(result).toContainText(`The roll picks ${opened!.item.name}`);
});

test('the seed form waits while saving or rotating, and shows why the server refused', async ({ page }) => {
  await english(page);
  await page.goto('/fairness');
  const api = await apiOf(page);
  const before = await api.get<{ clientSeed: string; serverSeedHash: string }>('/fairness');
  await expect(page.getByTestId('fairness-hash')).toHaveText(before.serverSeedHash);
  const save = page.getByTestId('fairness-save');
  const rotate = page.getByTestId('fairness-rotate');
  const alert = page.getByTestId('fairness-page').getByRole('alert');

  // The refusals are made by the test's routing (a rate limit, a busy server): the real server would
  // accept both. Each is held until `answer` is called, so the screen's pending state can be looked at.
  const refusal = (status: number, code: string, headers: Record<string, string> = {}) => {
    let answer = () => {};
    const gate = new Promise<void>((resolve) => (answer = resolve));
    return {
      answer: () => answer(),
      handler: async (route: Route) => {
        await gate;
        await route.fulfill({
          status,
          headers,
          contentType: 'application/json',
          body: JSON.stringify({ statusCode: status, error: 'Refused', code, message: 'Refused' }),
        });
      },
    };
  };

  // saving: 'Saving...', neither button can be pressed; refused with a rate limit
  const limited = refusal(429, 'RATE_LIMITED', { 'retry-after': '7' });
  await page.route('**/api/fairness/client-seed', limited.handler);
  const seed = `e2e-refused-${Date.now()}`;
  await page.getByTestId('fairness-client-seed').fill(seed);
  await save.click();
  await expect(save).toHaveText('Saving...');
  await expect(save).toBeDisabled();
  await expect(rotate).toBeDisabled();
  limited.answer();
  await expect(alert).toHaveText('Too many requests. Try again in 7 s.');
  // nothing changed: the seed typed is kept to try again, and both buttons are back
  await expect(page.getByTestId('fairness-client-seed')).toHaveValue(seed);
  await expect(save).toHaveText('Save');
  await expect(save).toBeEnabled();
  await expect(rotate).toBeEnabled();
  await expect(page.getByText('Client seed saved')).toHaveCount(0);
  expect((await api.get<{ clientSeed: string }>('/fairness')).clientSeed).toBe(before.clientSeed);

  // rotating, on a fresh page: 'Rotating...', neither button can be pressed; refused, the server busy
  await page.unroute('**/api/fairness/client-seed');
  const busy = refusal(503, 'SERVICE_BUSY');
  await page.route('**/api/fairness/rotate', busy.handler);
  await page.reload();
  await expect(page.getByTestId('fairness-hash')).toHaveText(before.serverSeedHash);
  await expect(alert).toHaveCount(0);
  await rotate.click();
  await expect(rotate).toHaveText('Rotating...');
  await expect(rotate).toBeDisabled();
  await expect(save).toBeDisabled();
  busy.answer();
  await expect(alert).toHaveText('The server is busy. Try again in a minute.');
  await expect(rotate).toHaveText('Rotate seed');
  await expect(rotate).toBeEnabled();
  await expect(page.getByTestId('fairness-revealed')).toHaveCount(0);
  await expect(page.getByTestId('fairness-hash')).toHaveText(before.serverSeedHash);
  expect((await api.get<{ serverSeedHash: string }>('/fairness')).serverSeedHash).toBe(before.serverSeedHash);
});
