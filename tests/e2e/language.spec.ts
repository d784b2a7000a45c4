import { expect, test, type Page } from '@playwright/test';
import type { UpgradeRollResponse } from '../../contract/upgrade.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import { openAs, startAppServer, type TestServer } from './players.ts';

// The player's language: on first launch it comes from Telegram's `language_code` (Russian for ru and for
// the languages whose speakers expect it, English for every other), then the player's own choice wins and
// is kept. In Russian, item names are Russian on every screen and dialog, texts agree with the item's
// gender, and numbers are Russian numbers (a decimal comma), never half of each.

let server: TestServer;
let nextId = 7_950_001;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer();
});

test.afterAll(async () => {
  await server?.close();
});

const tabText = (page: Page) => page.getByTestId('tab-cases').textContent();

test('the first launch speaks the language Telegram gives, Russian for those who expect it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const cases: [string, 'ru' | 'en'][] = [
    ['en', 'en'],
    ['ru', 'ru'],
    ['uk', 'ru'],
    ['kk', 'ru'],
    ['de', 'en'],
    ['pt-br', 'en'],
  ];
  for (const [code, expected] of cases) {
    const context = await browser.newContext();
    try {
      const page = await openAs(
        context,
        server,
        { id: nextId++, first_name: 'Lang', language_code: code },
        '/',
        null,
      );
      await expect(page.getByTestId('case-card').first()).toBeVisible();
      await expect(page.locator('html'), `language_code ${code}`).toHaveAttribute('lang', expected);
      expect(await tabText(page), `language_code ${code}`).toContain(expected === 'ru' ? 'Кейсы' : 'Cases');
      // nothing was chosen: nothing is remembered as the player's choice
      expect(await page.evaluate(() => localStorage.getItem('lang'))).toBeNull();
    } finally {
      await context.close();
    }
  }
});

test('the player’s own choice wins over Telegram’s language and is kept', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  try {
    const user = { id: nextId++, first_name: 'Chooser', language_code: 'en' };
    const page = await openAs(context, server, user, '/profile', null);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByTestId('lang-ru').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await page.reload();
    await expect(page.getByTestId('profile-name')).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    // a new launch from Telegram (English launch data again) keeps the choice
    const again = await openAs(context, server, user, '/', null);
    await expect(again.getByTestId('case-card').first()).toBeVisible();
    await expect(again.locator('html')).toHaveAttribute('lang', 'ru');
  } finally {
    await context.close();
  }
});

test('in Russian: Russian item names, texts that agree with them, Russian numbers', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext();
  try {
    const id = nextId++;
    const user = { id, first_name: 'Русский', language_code: 'ru' };
    await server.login(user);
    await setBalance(server, id, 20n * 1_000_000_000n);
    // a candle: "Свеча", feminine
    await grantItems(server, id, { candle: 1 });

    // the case page: Russian names, chances with a decimal comma
    const page = await openAs(context, server, user, '/case/starter', null);
    await expect(page.getByTestId('case-item').first()).toBeVisible();
    const names = await page.locator('.case-item__name').allTextContents();
    expect(names.join(' ')).toMatch(/[а-яё]/i);
    expect(names.join(' ')).not.toMatch(/Lollipop|Candle|Candy/);
    const chances = await page.getByTestId('case-item-chance').allTextContents();
    for (const chance of chances) expect(chance).not.toMatch(/\d\.\d/);
    expect(chances.some((c) => /\d,\d/.test(c))).toBe(true);

    // the upgrade: the result sheet agrees with a feminine stake, the proof names both in Russian
    await page.goto(new URL('/upgrade', page.url()).href);
    await page.locator('[data-testid="upgrade-item"][data-item-id="candle"]').click();
    await page.getByTestId('multiplier-2').click();
    await expect(page.getByTestId('upgrade-chance')).toHaveText(/^\d+,\d\s%$/);
    const rolled = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upgrade/roll');
    await page.getByTestId('upgrade-button').click();
    const answer = (await (await rolled).json()) as UpgradeRollResponse;
    const sheet = page.getByTestId('upgrade-result');
    await expect(sheet).toBeVisible({ timeout: 20_000 });
    await expect(sheet).toContainText(answer.success ? 'Свеча превратилась' : 'Свеча потеряна');
    await page.getByTestId('upgrade-proof-link').click();
    await expect(page.getByTestId('verify-bet')).toContainText('Апгрейд: Свеча →');
    await expect(page.getByTestId('verify-bet')).not.toContainText('Candle');
  } finally {
    await context.close();
  }
});
