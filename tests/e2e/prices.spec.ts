import { expect, test, type Page } from '@playwright/test';
import type { Case, OpenCaseResponse } from '../../contract/cases.ts';
import type { InventoryEntry } from '../../contract/inventory.ts';
import { parseTon } from '../../contract/money.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import { readShown, shownBalance, shownPrice, type Lang } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// Exact money on screen: for every item of the catalogue, the price the inventory shows is what selling it
// credits, to the nanoTON; and on the win screen of real openings (one per case), the price and the
// "Sell for" offer are what the sale credits. The player holds one of every item, given with the API
// tests' seeding helper, on a server of this test's own (the shared e2e server's demo player cannot be
// given items without playing for them).

const PLAYER = { id: 7_200_001, first_name: 'Pricer', username: 'pricer_e2e' };
const START_NANO = 10_000_000_000_000n;

let server: TestServer;

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(180_000);
  server = await startAppServer();
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, START_NANO);
});

test.afterAll(async () => {
  await server?.close();
});

async function get<T>(page: Page, path: string): Promise<T> {
  const answer = await server.call<T>('GET', path, { token: await tokenOf(page) });
  expect(answer.status, path).toBe(200);
  return answer.body;
}

const balanceOf = async (page: Page) =>
  parseTon((await get<{ balance: string }>(page, '/deposit/balance')).balance);

for (const lang of ['en', 'ru'] as const satisfies readonly Lang[]) {
  test(`every catalogue item's price in the inventory is exactly what selling it credits (${lang})`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases;
    const catalogue = new Map(cases.flatMap((c) => c.items.map((e) => [e.item.id, e.item] as const)));
    expect(catalogue.size).toBeGreaterThan(10);
    await grantItems(server, PLAYER.id, Object.fromEntries([...catalogue.keys()].map((id) => [id, 1])));

    const context = await browser.newContext();
    try {
      const page = await openAs(context, server, PLAYER, '/inventory', lang);
      const held = (await get<{ inventory: InventoryEntry[] }>(page, '/inventory')).inventory;
      for (const id of catalogue.keys()) expect(held.find((e) => e.id === id)?.quantity).toBe(1);
      await expect(page.getByTestId('inventory-item')).toHaveCount(held.length);

      for (const entry of held) {
        const price = parseTon(catalogue.get(entry.id)!.price);
        expect(parseTon(entry.item.price)).toBe(price);
        const card = page.locator(`[data-testid="inventory-item"][data-item-id="${entry.id}"]`);
        const shown = card.getByTestId('inventory-price');
        await expect(shown).toHaveText(shownPrice(price, 1, lang));
        const displayed = readShown((await shown.textContent()) ?? '', lang);
        expect(displayed, `${entry.id}: the shown price has every decimal`).toBe(price);

        const before = await balanceOf(page);
        await card.getByTestId('inventory-sell').click();
        await expect(card).toHaveCount(0);
        expect(await balanceOf(page), `${entry.id}: selling credits the shown price`).toBe(
          before + displayed,
        );
        await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(before + displayed, lang));
      }
      await expect(page.getByTestId('inventory-empty')).toBeVisible();
    } finally {
      await context.close();
    }
  });
}

test('on the win screen of a real opening of every case, the price and the offer are what the sale credits', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const cases = (await server.call<{ cases: Case[] }>('GET', '/cases')).body.cases.filter(
    (c) => c.isActive && !c.isLocked && c.items.length > 0,
  );
  expect(cases.length).toBeGreaterThan(3);
  const context = await browser.newContext();
  try {
    for (const [i, box] of cases.entries()) {
      const lang: Lang = i % 2 === 0 ? 'en' : 'ru';
      const page = await openAs(context, server, PLAYER, `/case/${box.id}`, lang);
      const opened = page.waitForResponse(
        (r) => r.url().endsWith('/api/cases/open') && r.request().method() === 'POST',
      );
      await page.getByTestId('quick-open-button').click();
      const won = ((await (await opened).json()) as OpenCaseResponse).item;
      const price = parseTon(won.price);

      const card = page.getByTestId('win-item');
      await expect(card).toHaveCount(1);
      const shown = card.getByTestId('win-item-price');
      await expect(shown).toHaveText(shownPrice(price, 1, lang));
      expect(readShown((await shown.textContent()) ?? '', lang), `${won.id}: every decimal shown`).toBe(
        price,
      );
      const offer = card.getByTestId('sell-button');
      await expect(offer).toHaveText(
        `${lang === 'en' ? 'Sell for' : 'Продать за'} ${shownPrice(price, 1, lang)} TON`,
      );

      const before = await balanceOf(page);
      const sold = page.waitForResponse(
        (r) => r.url().endsWith('/api/inventory/sell') && r.request().method() === 'POST',
      );
      await offer.click();
      expect((await sold).status()).toBe(200);
      // the one item sold: nothing is left to keep, the win screen closes
      await expect(page.getByTestId('win-screen')).toHaveCount(0);
      expect(await balanceOf(page), `${won.id}: the sale credits the offer`).toBe(before + price);
      await page.close();
    }
  } finally {
    await context.close();
  }
});
