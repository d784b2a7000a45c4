import { expect, test, type Page, type Request } from '@playwright/test';
import { setBalance } from '../api/harness.ts';
import { openAs, startAppServer, type TestServer } from './players.ts';

// The money buttons act as the tap is released (before the browser's click, which a phone sends only after
// drawing a frame): one tap is one request, a finger that slides off the button before lifting does nothing,
// and the keyboard still acts through the click. On the case page's Quick open, on a touch screen.

const PLAYER = { id: 7_500_001, first_name: 'Presser' };

let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer();
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, 500_000_000_000n);
});

test.afterAll(async () => {
  await server?.close();
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
}

test('a tap opens once, a finger slid off opens nothing, the keyboard opens once', async ({ browser }) => {
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

    // a touch that begins on the button and lifts far from it: no tap of the button, no request
    const box = (await quick.boundingBox())!;
    const cdp = await context.newCDPSession(page);
    const at = (x: number, y: number) => [{ x, y, id: 1 }];
    const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(start.x, start.y) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(start.x, 120) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(1_500);
    expect(sent).toHaveLength(1);
    await expect(page.getByTestId('win-screen')).toHaveCount(0);
    await expect(quick).toBeEnabled();

    // the keyboard: no pointer at all, the click runs it
    await quick.focus();
    await page.keyboard.press('Enter');
    await keep(page);
    expect(sent).toHaveLength(2);
  } finally {
    await context.close();
  }
});
