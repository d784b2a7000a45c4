import { expect, test, type Page, type Request } from '@playwright/test';
import { parseTon } from '../../contract/money.ts';
import { addTestCase, books } from '../api/holdings.ts';
import { setBalance } from '../api/harness.ts';
import { readShown } from './money.ts';
import { openAs, startAppServer, type TestServer } from './players.ts';

// The win screen's reveal steps up with the win (rarity, or value against the price), skipped under reduced
// motion; multiplier badges; Sell all in one request with a total that follows every sale; Open again. And the
// money buttons act as the tap is released (before the browser's click, which a phone sends only after drawing a
// frame): one tap is one request, two quick taps whose first click comes late are one request, a finger slid
// off the button before lifting does nothing, the keyboard still acts through the click.
// Cases made for this test make the tier certain: 'jackpot' (0.1 TON) always drops a 45 TON diamond (450×),
// 'dud' (5 TON) always a 0.1 TON lollipop (a common item worth less than the price).

const PLAYER = { id: 7_400_001, first_name: 'Winner', username: 'winner_e2e' };

let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer();
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, 500_000_000_000n);
  await addTestCase(server, 'jackpot', 100_000_000n, { diamond: 1 });
  await addTestCase(server, 'dud', 5_000_000_000n, { lollipop: 1 });
});

test.afterAll(async () => {
  await server?.close();
});

async function quickOpen(page: Page, count: 1 | 2 | 3) {
  await page.getByTestId(`count-x${count}`).tap();
  await page.getByTestId('quick-open-button').tap();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 20_000 });
}

test('a big win gets the top reveal and its multiplier; a small one none', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
  try {
    const page = await openAs(context, server, PLAYER, '/case/jackpot');
    await quickOpen(page, 1);
    const win = page.getByTestId('win-screen');
    await expect(win).toHaveAttribute('data-reveal-tier', '4');
    // drawn by the scene runtime on its own canvas behind the panel
    await expect(page.getByTestId('win-reveal').locator('canvas')).toHaveCount(1);
    await expect(page.getByTestId('win-multiplier')).toHaveText('×450');
    await page.getByTestId('keep-button').tap();
    await expect(win).toHaveCount(0);

    await page.goto(`${server.baseUrl}/case/dud`);
    await quickOpen(page, 1);
    await expect(page.getByTestId('win-screen')).toHaveAttribute('data-reveal-tier', '0');
    await expect(page.getByTestId('win-reveal')).toHaveCount(0);
    await expect(page.getByTestId('win-multiplier')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('reduced motion skips the reveal, the win is shown all the same', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ hasTouch: true, reducedMotion: 'reduce' });
  try {
    const page = await openAs(context, server, PLAYER, '/case/jackpot');
    await quickOpen(page, 1);
    await expect(page.getByTestId('win-screen')).toHaveAttribute('data-reveal-tier', '4');
    await expect(page.getByTestId('win-item')).toHaveCount(1);
    await expect(page.getByTestId('win-reveal')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('the total follows sales, Sell all sells the rest in one request, Open again opens the same way', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 360, height: 740 } });
  try {
    const page = await openAs(context, server, PLAYER, '/case/dud');
    await quickOpen(page, 3);
    const total = () =>
      page
        .getByTestId('win-total')
        .textContent()
        .then((t) => readShown(t!));
    const price = parseTon('0.1');
    await expect.poll(total).toBe(3n * price);

    // one sold: the total is what is still the player's
    await page.getByTestId('sell-button').first().tap();
    await expect.poll(total).toBe(2n * price);

    // Sell all: one request for the two left, then the screen closes
    const sells: unknown[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/inventory/sell')) sells.push(r.postDataJSON());
    });
    const before = await books(server, PLAYER.id);
    await page.getByTestId('win-sell-all').tap();
    await expect(page.getByTestId('win-screen')).toHaveCount(0);
    expect(sells).toEqual([{ items: [{ itemId: 'lollipop', quantity: 2 }] }]);
    expect((await books(server, PLAYER.id)).balanceNano - before.balanceNano).toBe(2n * price);

    // Open again: three more, quick, once however quickly it is tapped twice
    await quickOpen(page, 3);
    const opened = (await books(server, PLAYER.id)).openingsCount;
    // two taps 60 ms apart on the button, once the screen has come in (taps during its entrance were aimed
    // at what stood there before and are ignored): one more opening of three, not two
    await page.waitForTimeout(600);
    const box = (await page.getByTestId('win-open-again').boundingBox())!;
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.touchscreen.tap(x, y);
    await page.waitForTimeout(60);
    await page.touchscreen.tap(x, y);
    await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('win-item')).toHaveCount(3);
    await expect.poll(async () => (await books(server, PLAYER.id)).openingsCount).toBe(opened + 3);
    await page.waitForTimeout(1500);
    expect((await books(server, PLAYER.id)).openingsCount).toBe(opened + 3);
  } finally {
    await context.close();
  }
});

function openings(page: Page): Request[] {
  const sent: Request[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname.startsWith('/api/cases/open')) sent.push(r);
  });
  return sent;
}

async function keep(page: Page): Promise<void> {
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('win-screen')).toHaveCount(0);
  // the closed screen's tap shield catches touches for a moment: the next touch must reach the page
  await expect(page.getByTestId('tap-shield')).toHaveCount(0);
}

test('a tap opens once, a finger slid off opens nothing, two quick taps open once, the keyboard opens once', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 390, height: 844 } });
  try {
    const page = await openAs(context, server, PLAYER, '/case/starter');
    const sent = openings(page);
    const quick = page.getByTestId('quick-open-button');
    await expect(quick).toBeEnabled();

    // a tap: one request (the release ran it; its click, which follows, is swallowed)
    await quick.tap();
    await keep(page);
    expect(sent).toHaveLength(1);

    // a touch that begins on the button and lifts far from it: no tap of the button, no request. The button
    // takes no panning for that touch (touch-action: none), so the browser cannot make it a scroll and cancel
    // it: the release is a pointerup, off the button's box (what onPointerUp must refuse)
    const box = (await quick.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const at = (x: number, y: number) => [{ x, y, id: 1 }];
    const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await quick.evaluate((button) => {
      const seen: { type: string; y: number }[] = [];
      const record = (event: Event) => seen.push({ type: event.type, y: (event as PointerEvent).clientY });
      button.addEventListener('pointerup', record);
      button.addEventListener('pointercancel', record);
      button.style.touchAction = 'none';
      Object.assign(window, {
        slideOff: () => {
          button.removeEventListener('pointerup', record);
          button.removeEventListener('pointercancel', record);
          button.style.touchAction = '';
          return seen;
        },
      });
    });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(start.x, start.y) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(start.x, 120) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(1_500);
    const seen = await page.evaluate(() => (window as unknown as { slideOff(): unknown }).slideOff());
    expect(seen).toEqual([{ type: 'pointerup', y: 120 }]);
    expect(sent).toHaveLength(1);
    await expect(page.getByTestId('win-screen')).toHaveCount(0);
    await expect(quick).toBeEnabled();

    // two quick taps, the second begun and ended before the page has had the first one's click (the four
    // touch events are sent at once): one opening, the second tap's release and the first tap's late click
    // add none
    const touch = (type: 'touchStart' | 'touchEnd') =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchStart' ? at(start.x, start.y) : [],
      });
    await Promise.all([touch('touchStart'), touch('touchEnd'), touch('touchStart'), touch('touchEnd')]);
    await keep(page);
    await page.waitForTimeout(1_500);
    expect(sent).toHaveLength(2);

    // the keyboard: no pointer at all, the click runs it
    await quick.focus();
    await page.keyboard.press('Enter');
    await keep(page);
    expect(sent).toHaveLength(3);
  } finally {
    await context.close();
  }
});
