import { expect, test } from '@playwright/test';
import type { Case } from '../../contract/cases.ts';
import { parseTon } from '../../contract/money.ts';
import { grantItems } from '../api/harness.ts';
import { shownPrice } from './money.ts';
import { openAs, startAppServer, type TestServer } from './players.ts';

// When the catalogue has no gift to aim at (nothing is dearer than the stake), 'Desired gift' shows the
// spec's grid of 56 placeholder cases (name, image, price 5 to 54 TON), not playable: Upgrade stays off.
// The player holds the dearest gift of the catalogue, given on a server of this test's own.

const PLAYER = { id: 7_300_001, first_name: 'Topper' };
let server: TestServer;

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(180_000);
  server = await startAppServer();
  await server.login(PLAYER);
});

test.afterAll(async () => {
  await server?.close();
});

for (const lang of ['en', 'ru'] as const) {
  test(`the dearest gift has no target: Desired gift shows the 56 placeholder cases (${lang})`, async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
    const items = cases.flatMap((c) => c.items.map((e) => e.item));
    const dearest = items.reduce((a, b) => (parseTon(b.price) > parseTon(a.price) ? b : a));
    await grantItems(server, PLAYER.id, { [dearest.id]: 1 });

    const context = await browser.newContext();
    try {
      const page = await openAs(context, server, PLAYER, '/upgrade', lang);
      const stake = page.locator(`[data-testid="upgrade-item"][data-item-id="${dearest.id}"]`);
      await stake.click();
      await page.getByTestId('multiplier-2').click();
      await page.getByTestId('upgrade-tab-target').click();

      await expect(page.getByTestId('upgrade-no-targets')).toHaveText(
        lang === 'en'
          ? 'Nothing is worth more than this item: it cannot be upgraded. Gift cases coming soon:'
          : 'Дороже этого предмета ничего нет: его нельзя улучшить. Скоро в кейсах:',
      );
      const placeholders = page.getByTestId('upgrade-placeholder');
      await expect(placeholders).toHaveCount(56);
      for (const [i, card] of (await placeholders.all()).entries()) {
        const price = (await card.getAttribute('data-price'))!;
        expect(Number(price)).toBeGreaterThanOrEqual(5);
        expect(Number(price)).toBeLessThanOrEqual(54);
        await expect(card).toHaveText(
          `${lang === 'en' ? 'Case' : 'Кейс'} ${i + 1}${shownPrice(price, 1, lang)}`,
        );
        await expect(card.locator('img')).toHaveAttribute('src', /^\/assets\/cases\/[a-z]+\.svg$/);
        await expect(card).toHaveAttribute('aria-disabled', 'true');
      }
      // nothing to win: Upgrade stays off
      await expect(page.getByTestId('upgrade-button')).toBeDisabled();
    } finally {
      await context.close();
    }
  });
}
