import { expect, test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import type { Battle } from '../../contract/battles.ts';
import type { CaseResponse } from '../../contract/cases.ts';
import { parseTon } from '../../contract/money.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import { shownPrice } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// A player can trust every tap (issue 23): one tap is one action, nothing happens behind the player's back,
// and nothing is spoiled. Each test is a Telegram player of its own on a server of this file's own (a known
// balance and inventory), on a phone: touch taps in a 390 px wide touch context. The money requests are the
// app's own, read off the wire; nothing here calls the API for the screens.

const START_NANO = 20_000_000_000n;
const OFFLINE_TEXT = 'No connection: nothing was done. Try again when you are back online.';

let server: TestServer;
let nextPlayer = 7_230_001;
let starterItems: string[] = [];

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(240_000);
  // battle rounds every 2 s: the reels still play a while, the test does not wait 4 s a round
  server = await startAppServer({ BATTLE_ROUND_MS: '2000' });
  const box = await server.call<CaseResponse>('GET', '/cases/starter');
  starterItems = box.body.case.items.map((entry) => entry.item.id);
});

test.afterAll(async () => {
  await server?.close();
});

/** A new player with 20 TON (and `items`), in a phone-sized touch browser, at `path`. */
async function newPlayer(
  browser: Browser,
  path: string,
  items: Record<string, number> = {},
): Promise<{ context: BrowserContext; page: Page; id: number; token: string }> {
  const id = nextPlayer++;
  const user = { id, first_name: `Player ${id}`, username: `trust_${id}` };
  await server.login(user);
  await setBalance(server, id, START_NANO);
  if (Object.keys(items).length > 0) await grantItems(server, id, items);
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
  const page = await openAs(context, server, user, path);
  return { context, page, id, token: await tokenOf(page) };
}

/** The money requests the page sends to `paths`, as they leave. */
function recordPosts(page: Page, paths: readonly string[]): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && paths.includes(new URL(request.url()).pathname)) sent.push(request);
  });
  return sent;
}

/** A real touch tap on the element, once it stands still (a sheet sliding in moves its buttons). */
async function tap(page: Page, target: ReturnType<Page['getByTestId']>): Promise<void> {
  await target.tap();
}

/** Two taps 60 ms apart on the same spot: a quick double tap. */
async function doubleTap(page: Page, target: ReturnType<Page['getByTestId']>): Promise<void> {
  await tapsAt(page, target, [60]);
}

/**
 * Taps in a row on the middle of the element: the first at once, each next one `gaps` ms after the one
 * before, sent without waiting for the page to handle the previous one, as a finger does (an awaited tap
 * takes far longer than 60 ms on a busy machine).
 */
async function tapsAt(page: Page, target: ReturnType<Page['getByTestId']>, gaps: number[]): Promise<void> {
  const box = (await target.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const taps = [page.touchscreen.tap(x, y)];
  for (const gap of gaps) {
    await new Promise((resolve) => setTimeout(resolve, gap));
    taps.push(page.touchscreen.tap(x, y));
  }
  await Promise.all(taps);
}

/** Moves within the app, as a link does (a new page load would need the launch data again). */
async function go(page: Page, path: string): Promise<void> {
  // in-app navigation needs the app's router listening: the tab bar shows once it is
  await expect(page.getByTestId('tab-cases')).toBeVisible({ timeout: 30_000 });
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function balanceOf(token: string): Promise<bigint> {
  return parseTon(
    (await server.call<{ balance: string }>('GET', '/deposit/balance', { token })).body.balance,
  );
}

async function quantityOf(token: string, itemId: string): Promise<number> {
  const answer = await server.call<{ inventory: { id: string; quantity: number }[] }>('GET', '/inventory', {
    token,
  });
  return answer.body.inventory.find((e) => e.id === itemId)?.quantity ?? 0;
}

const inventoryCard = (page: Page, itemId: string) =>
  page.locator(`[data-testid="inventory-item"][data-item-id="${itemId}"]`);

test.describe('one tap, one action', () => {
  test('two taps 60 ms apart on Sell sell one unit, with one request', async ({ browser }) => {
    const item = starterItems[0]!;
    const { context, page, token } = await newPlayer(browser, '/inventory', { [item]: 3 });
    try {
      const sells = recordPosts(page, ['/api/inventory/sell']);
      const card = inventoryCard(page, item);
      await expect(card.getByTestId('inventory-quantity')).toHaveText('Quantity: 3');
      await doubleTap(page, card.getByTestId('inventory-sell'));
      await expect(card.getByTestId('inventory-quantity')).toHaveText('Quantity: 2');
      await expect.poll(() => quantityOf(token, item)).toBe(2);
      expect(sells).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  test('the closing sell-all dialog swallows the taps aimed at it: nothing beneath is tapped', async ({
    browser,
  }) => {
    const item = starterItems[0]!;
    const { context, page, token } = await newPlayer(browser, '/inventory', { [item]: 2 });
    try {
      const sells = recordPosts(page, ['/api/inventory/sell']);
      await expect(inventoryCard(page, item)).toBeVisible();
      await tap(page, page.getByTestId('inventory-sell-all'));
      const confirm = page.getByTestId('sell-all-dialog-confirm');
      await expect(confirm).toBeVisible();
      // a double tap on Confirm, then a tap on the same spot while the dialog closes
      await tapsAt(page, confirm, [60, 120]);
      await expect(page.getByTestId('inventory-empty')).toBeVisible();
      await expect.poll(() => quantityOf(token, item)).toBe(0);
      expect(sells).toHaveLength(1);
      // still on the inventory: no tap went through to the tab bar or a button beneath
      expect(new URL(page.url()).pathname).toBe('/inventory');
      await expect(page.getByTestId('sell-all-dialog')).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('joining a battle asks first with the seat price, and pays once for a double tap', async ({
    browser,
  }) => {
    const host = await newPlayer(browser, '/battle');
    const guest = await newPlayer(browser, '/battle');
    try {
      const created = await server.call<{ battle: Battle }>('POST', '/battles', {
        token: host.token,
        body: { format: '1v1', mode: 'normal', caseIds: ['starter'] },
      });
      expect(created.status).toBe(200);
      const battle = created.body.battle;
      const page = guest.page;
      const joins = recordPosts(page, [`/api/battles/${battle.id}/join`]);
      await page.reload();
      const card = page.locator(`[data-battle="${battle.id}"]`);
      await tap(page, card.getByTestId('battle-join'));
      const dialog = page.getByTestId('battle-join-dialog');
      await expect(dialog).toContainText(shownPrice(battle.cost, 2));
      // Cancel pays nothing
      await tap(page, page.getByTestId('battle-join-dialog-cancel'));
      await expect(dialog).toHaveCount(0);
      expect(joins).toHaveLength(0);
      expect(await balanceOf(guest.token)).toBe(START_NANO);

      await page.waitForTimeout(400); // past the close guard of the cancelled dialog
      await tap(page, card.getByTestId('battle-join'));
      await doubleTap(page, page.getByTestId('battle-join-dialog-confirm'));
      await expect.poll(() => balanceOf(guest.token)).toBe(START_NANO - parseTon(battle.cost));
      expect(joins).toHaveLength(1);
    } finally {
      await host.context.close();
      await guest.context.close();
    }
  });
});

test.describe("nothing behind the player's back", () => {
  test('a sale, an opening and an upgrade tapped offline fail at once and never run later', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const item = starterItems[0]!;
    const { context, page, token } = await newPlayer(browser, '/inventory', { [item]: 2 });
    const money = recordPosts(page, [
      '/api/inventory/sell',
      '/api/inventory/withdraw',
      '/api/cases/open',
      '/api/cases/open-multiple',
      '/api/upgrade/roll',
    ]);
    try {
      // the inventory: Sell offline says so at once
      const card = inventoryCard(page, item);
      await expect(card.getByTestId('inventory-quantity')).toHaveText('Quantity: 2');
      await context.setOffline(true);
      await tap(page, card.getByTestId('inventory-sell'));
      await expect(page.getByTestId('inventory-action-error')).toHaveText(OFFLINE_TEXT);
      await context.setOffline(false);

      // the case page: Open offline alerts at once
      await go(page, '/case/starter');
      await expect(page.locator('[data-testid="open-button"]:not([disabled])')).toBeVisible({
        timeout: 30_000,
      });
      await context.setOffline(true);
      // (the alert is answered as it shows: the tap that raised it waits for it)
      const alerts: string[] = [];
      page.once('dialog', (dialog) => {
        alerts.push(dialog.message());
        void dialog.accept();
      });
      await tap(page, page.getByTestId('open-button'));
      await expect.poll(() => alerts).toEqual([OFFLINE_TEXT]);
      await expect(page.getByTestId('case-page')).toHaveAttribute('data-phase', 'idle');
      await context.setOffline(false);

      // the upgrade: a roll offline is a failure sheet saying so
      await go(page, '/upgrade');
      await page.locator(`[data-testid="upgrade-item"][data-item-id="${item}"]`).click();
      await page.getByTestId('multiplier-2').click();
      await expect(page.getByTestId('upgrade-button')).toBeEnabled();
      await context.setOffline(true);
      await tap(page, page.getByTestId('upgrade-button'));
      await expect(page.getByTestId('upgrade-result')).toContainText(OFFLINE_TEXT);
      await context.setOffline(false);

      // back online, nothing is sent by itself: not now, not a while later
      await page.waitForTimeout(3000);
      expect(money).toHaveLength(0);
      expect(await quantityOf(token, item)).toBe(2);
      expect(await balanceOf(token)).toBe(START_NANO);
    } finally {
      await context.close();
    }
  });

  test('screens first opened offline recover by themselves when the connection returns', async ({
    browser,
  }) => {
    const { context, page } = await newPlayer(browser, '/', { [starterItems[0]!]: 1 });
    try {
      await expect(page.getByTestId('tab-profile')).toBeVisible();
      await context.setOffline(true);
      // (the screen's code or its data: either waits for the connection and says so)
      const offline = page.locator('[data-testid="screen-offline"], [data-testid$="-offline"]');
      await tap(page, page.getByTestId('tab-battle'));
      await expect(offline.first()).toBeVisible({ timeout: 20_000 });
      await context.setOffline(false);
      await expect(
        page.locator('[data-testid="battle-lobby"], [data-testid="battle-lobby-empty"]').first(),
      ).toBeVisible({ timeout: 20_000 });
      await expect(offline).toHaveCount(0);

      await context.setOffline(true);
      await go(page, '/inventory');
      await expect(offline.first()).toBeVisible({ timeout: 20_000 });
      await context.setOffline(false);
      await expect(page.getByTestId('inventory-grid')).toBeVisible({ timeout: 20_000 });
    } finally {
      await context.close();
    }
  });

  test('reloading or going back mid-spin shows the win screen on return', async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page } = await newPlayer(browser, '/case/starter');
    try {
      const openButton = page.locator('[data-testid="open-button"]:not([disabled])');
      for (const leave of ['reload', 'back'] as const) {
        await expect(openButton).toBeVisible({ timeout: 30_000 });
        const answered = page.waitForResponse(
          (r) => new URL(r.url()).pathname === '/api/cases/open-multiple',
        );
        await tap(page, page.getByTestId('open-button'));
        const won = ((await (await answered).json()) as { results: { item: { id: string } }[] }).results;
        await expect(page.getByTestId('case-page')).toHaveAttribute('data-phase', 'spinning');
        if (leave === 'reload') {
          await page.reload();
        } else {
          // to the case list (in Telegram the back button is the client's), then back to the case
          await go(page, '/');
          await expect(page.getByTestId('case-page')).toHaveCount(0);
          await page.goBack();
        }
        const win = page.getByTestId('win-screen');
        await expect(win).toBeVisible({ timeout: 30_000 });
        await expect(win.getByTestId('win-item')).toHaveAttribute('data-item-id', won[0]!.item.id);
        await tap(page, page.getByTestId('keep-button'));
        await expect(win).toHaveCount(0);
      }
      // seen: a reload now shows the page, not the win screen again
      await page.reload();
      await expect(openButton).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('win-screen')).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('reloading mid-roll shows the upgrade result on return', async ({ browser }) => {
    const item = starterItems[0]!;
    const { context, page } = await newPlayer(browser, '/upgrade', { [item]: 1 });
    try {
      await page.locator(`[data-testid="upgrade-item"][data-item-id="${item}"]`).click();
      await page.getByTestId('multiplier-2').click();
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upgrade/roll');
      await tap(page, page.getByTestId('upgrade-button'));
      const roll = (await (await answered).json()) as { success: boolean };
      // the wheel turns to the answer once the page has kept it
      await expect(page.getByTestId('upgrade-wheel')).toHaveAttribute('data-rolling', 'true');
      await page.reload();
      const sheet = page.getByTestId('upgrade-result');
      await expect(sheet).toBeVisible({ timeout: 30_000 });
      await expect(sheet).toHaveAttribute('data-outcome', roll.success ? 'success' : 'fail');
      await tap(page, page.getByTestId('upgrade-result-close'));
      await expect(sheet).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId('upgrade-button')).toBeVisible();
      await expect(sheet).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test('a battle left mid-way is linked from the lobby, and its room shows the result', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { context, page, token } = await newPlayer(browser, '/battle');
    try {
      await tap(page, page.getByTestId('battle-create-toggle'));
      await page.getByTestId('battle-pick-starter').click();
      await page.getByTestId('battle-pick-starter').click();
      await page.getByTestId('battle-format-1v1').click();
      await page.getByTestId('battle-create-submit').click();
      await expect(page).toHaveURL(/\/battle\/[0-9a-f]{16}$/);
      const id = page.url().split('/').pop()!;
      await page.getByTestId('battle-bots').click();
      await expect(page.getByTestId('battle-room')).toHaveAttribute('data-status', 'running');
      // the player leaves mid-battle, and the battle ends without them watching
      await tap(page, page.getByTestId('tab-cases'));
      await expect
        .poll(
          async () =>
            (await server.call<{ battle: Battle }>('GET', `/battles/${id}`, { token })).body.battle.status,
          {
            timeout: 30_000,
          },
        )
        .toBe('finished');
      await tap(page, page.getByTestId('tab-battle'));
      const link = page.getByTestId('battle-unseen-link');
      await expect(link).toHaveAttribute('href', `/battle/${id}`);
      await tap(page, link);
      await expect(page.getByTestId('battle-result')).toBeVisible({ timeout: 30_000 });
      // seen: the lobby no longer points at it
      await tap(page, page.getByTestId('tab-battle'));
      await expect(page.getByTestId('battle-page')).toBeVisible();
      await expect(page.getByTestId('battle-unseen-link')).toHaveCount(0);
    } finally {
      await context.close();
    }
  });
});

test.describe('no spoilers', () => {
  test('a battle round shows its drops and totals only once its reels have landed', async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page } = await newPlayer(browser, '/battle');
    try {
      await tap(page, page.getByTestId('battle-create-toggle'));
      await page.getByTestId('battle-pick-starter').click();
      await page.getByTestId('battle-pick-starter').click();
      await page.getByTestId('battle-pick-starter').click();
      await page.getByTestId('battle-format-1v1').click();
      await page.getByTestId('battle-create-submit').click();
      await expect(page).toHaveURL(/\/battle\/[0-9a-f]{16}$/);
      // every change of the room is checked as it happens: no seat shows a drop of a round its reel has
      // not landed yet
      await page.evaluate(() => {
        const w = window as unknown as { spoilers: string[] };
        w.spoilers = [];
        const check = () => {
          for (const side of document.querySelectorAll<HTMLElement>('[data-testid^="battle-seat-"]')) {
            const landed = Number(side.dataset.landed ?? 0);
            const drops = side.querySelectorAll('.battle__drop').length;
            if (drops > landed) w.spoilers.push(`${side.dataset.testid}: ${drops} drops, ${landed} landed`);
          }
        };
        new MutationObserver(check).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
        });
      });
      await page.getByTestId('battle-bots').click();
      await expect(page.getByTestId('battle-room')).toHaveAttribute('data-status', 'finished', {
        timeout: 60_000,
      });
      await expect(page.getByTestId('battle-drops-0').locator('li')).toHaveCount(3, { timeout: 30_000 });
      await expect(page.getByTestId('battle-result')).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { spoilers: string[] }).spoilers)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the case page feed keeps showing its drops while the player's own drop is held back", async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const { context, page, token } = await newPlayer(browser, '/');
    try {
      // the player's earlier drop is on the feed (the only one on this server's feed, maybe)
      const opened = await server.call('POST', '/cases/open', { token, body: { caseId: 'starter' } });
      expect(opened.status).toBe(200);
      await go(page, '/case/starter');
      await expect(page.getByTestId('case-page')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('drop-card').first()).toBeVisible({ timeout: 30_000 });
      await page.evaluate(() => {
        const w = window as unknown as { feedEmptied: boolean };
        w.feedEmptied = false;
        new MutationObserver(() => {
          if (document.querySelector('.drop-feed__empty')) w.feedEmptied = true;
        }).observe(document.body, { subtree: true, childList: true });
      });
      await tap(page, page.getByTestId('open-button'));
      await expect(page.getByTestId('case-page')).toHaveAttribute('data-phase', 'spinning');
      await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });
      expect(await page.evaluate(() => (window as unknown as { feedEmptied: boolean }).feedEmptied)).toBe(
        false,
      );
    } finally {
      await context.close();
    }
  });
});
