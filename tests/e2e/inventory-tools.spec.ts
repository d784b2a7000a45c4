import { expect, test, type Page } from '@playwright/test';
import type { InventoryEntry } from '../../contract/inventory.ts';
import { parseTon } from '../../contract/money.ts';
import { giveToInventory } from '../../server/inventory/inventory.ts';
import { books } from '../api/holdings.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import { readShown, shownPrice } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// The inventory's tools: what it is worth, its three orders, and select mode selling several items in one
// request with one confirmation of the exact total. A player of this test's own server holds known items.

const PLAYER = { id: 7_300_001, first_name: 'Sorter', username: 'sorter_e2e' };

let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer();
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, 1_000_000_000n);
});

test.afterAll(async () => {
  await server?.close();
});

async function held(page: Page): Promise<InventoryEntry[]> {
  const answer = await server.call<{ inventory: InventoryEntry[] }>('GET', '/inventory', {
    token: await tokenOf(page),
  });
  return answer.body.inventory;
}

const shownIds = (page: Page) =>
  page.getByTestId('inventory-item').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-item-id')));

test('worth, price / rarity / newest orders, and a selection sold in one request', async ({ browser }) => {
  test.setTimeout(120_000);
  await grantItems(server, PLAYER.id, { diamond: 1, candy: 3, lollipop: 2 });
  // the newest item comes in last, through the path a win takes
  await new Promise((r) => setTimeout(r, 30));
  await server.built.ctx.db
    .transaction()
    .execute((trx) => giveToInventory(trx, BigInt(PLAYER.id), 'cake', 1));

  const context = await browser.newContext({ hasTouch: true, viewport: { width: 360, height: 740 } });
  try {
    const page = await openAs(context, server, PLAYER, '/inventory');
    const entries = await held(page);
    const worth = entries.reduce((s, e) => s + parseTon(e.item.price) * BigInt(e.quantity), 0n);
    await expect(page.getByTestId('inventory-worth')).toContainText(shownPrice(worth, 2));

    // dearest first by default; rarity puts the rarest first; newest the item that came in last
    await expect.poll(() => shownIds(page)).toEqual(['diamond', 'cake', 'candy', 'lollipop']);
    await page.getByTestId('inventory-sort-newest').tap();
    await expect.poll(async () => (await shownIds(page))[0]).toBe('cake');
    await page.getByTestId('inventory-sort-rarity').tap();
    const rank = { common: 0, uncommon: 1, rare: 2, epic: 3, legendary: 4 } as const;
    const byRarity = [...entries]
      .sort(
        (a, b) =>
          rank[b.item.rarity] - rank[a.item.rarity] ||
          Number(parseTon(b.item.price) - parseTon(a.item.price)),
      )
      .map((e) => e.id);
    await expect.poll(() => shownIds(page)).toEqual(byRarity);
    // the order is kept for the next visit
    await page.reload();
    await expect.poll(() => shownIds(page)).toEqual(byRarity);

    // select two kinds: the bar counts their units and their exact worth
    await page.getByTestId('inventory-select').tap();
    const pick = (id: string) => page.locator(`[data-item-id="${id}"]`).getByTestId('inventory-pick').tap();
    await pick('candy');
    await pick('diamond');
    const diamond = entries.find((e) => e.id === 'diamond')!;
    const candy = entries.find((e) => e.id === 'candy')!;
    const total = parseTon(diamond.item.price) + 3n * parseTon(candy.item.price);
    await expect(page.getByTestId('inventory-selection-count')).toHaveText('4 items selected');
    expect(readShown((await page.getByTestId('inventory-selection-total').textContent())!)).toBe(total);

    // a second tap on a card takes it out again, and back in
    await pick('candy');
    await expect(page.getByTestId('inventory-selection-count')).toHaveText('1 item selected');
    await pick('candy');

    // one confirmation with the exact total, then one request selling both
    const sells: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/inventory/sell')) sells.push(r.postDataJSON());
    });
    const before = await books(server, PLAYER.id);
    await page.getByTestId('inventory-sell-selected').tap();
    await expect(page.getByTestId('sell-selected-total')).toContainText(shownPrice(total, 2));
    await page.getByTestId('sell-selected-dialog-confirm').tap();
    await expect(page.getByTestId('inventory-selection')).toHaveCount(0);
    await expect
      .poll(() => shownIds(page))
      .toEqual(byRarity.filter((id) => id !== 'candy' && id !== 'diamond'));
    expect(sells).toEqual([
      {
        items: expect.arrayContaining([
          { itemId: 'candy', quantity: 3 },
          { itemId: 'diamond', quantity: 1 },
        ]),
      },
    ]);
    const after = await books(server, PLAYER.id);
    expect(after.balanceNano - before.balanceNano).toBe(total);
  } finally {
    await context.close();
  }
});
