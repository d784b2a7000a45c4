import { expect, test, type Page } from '@playwright/test';
import { blockExternalRequests } from './wallet-fixture.ts';

// The real server's security headers, enforced by a real browser: a player's path through the app (the
// case list, a case opening to its win screen, the deposit sheet, the TON Connect wallet modal) runs under
// the Content-Security-Policy without a single violation, in the page or in the scene worker. And no page
// preloads a picture it does not show.

interface Watch {
  /** violations and CSP console errors, from the page and its workers */
  violations: string[];
  /** "preloaded but not used" warnings */
  unusedPreloads: string[];
}

/** Records CSP violations (the document's securitypolicyviolation events and console errors) and preload warnings. */
async function watch(page: Page): Promise<Watch> {
  const found: Watch = { violations: [], unusedPreloads: [] };
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  page.on('console', (message) => {
    const text = message.text();
    if (
      /Content Security Policy|CSP violation|Refused to (load|connect|execute|evaluate|apply|frame|create)/i.test(
        text,
      )
    )
      found.violations.push(`${message.type()}: ${text}`);
    if (/preloaded using link preload but not used/i.test(text)) found.unusedPreloads.push(text);
  });
  page.on('pageerror', (error) => {
    if (/Content Security Policy|unsafe-eval/i.test(error.message))
      found.violations.push(`pageerror: ${error.message}`);
  });
  // the scene runtime's worker: its own console (a worker's violation never reaches the document)
  page.on('worker', (worker) => {
    worker.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text()))
        found.violations.push(`worker: ${message.text()}`);
    });
  });
  return found;
}

test('home, a case opening, the deposit sheet and the wallet modal run under the CSP without a violation', async ({
  page,
}) => {
  test.setTimeout(240_000); // the roulette's first bakes and two 10 s spins, on a machine that may be busy
  const found = await watch(page);
  // the public wallets list and wallet icons cannot be fetched here: cut off at the network, after the
  // browser has checked them against the policy
  await blockExternalRequests(page);

  // the page is served with the policy enforced (not report-only)
  const home = await page.goto('/');
  const policy = home?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain('frame-ancestors');
  expect(home?.headers()['content-security-policy-report-only']).toBeUndefined();
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  // the list's pictures were preloaded and shown
  await expect(page.locator('link[rel="preload"][as="image"]')).not.toHaveCount(0);

  // a case opening, to its win screen (the scene runtime, its worker, the baked cards, the sounds)
  await page.getByTestId('case-card').first().click();
  await expect(page.getByTestId('case-page')).toBeVisible();
  const open = page.getByTestId('open-button');
  await expect(open).toBeEnabled();
  await open.click();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });
  // the runtime drew the spin (in the worker or on the main thread: both under the policy)
  expect(await page.evaluate(() => window.__scenes?.stats().then((s) => s.frames) ?? 0)).toBeGreaterThan(0);

  // the same on the main-thread path: the compositor's strips are blob: images scrolled by Web Animations
  await page.goto('/case/starter?scenes=main');
  expect(await page.evaluate(() => window.__scenes?.mode)).toBe('main');
  await expect(open).toBeEnabled();
  await open.click();
  await expect(page.locator('.scene-strip').first()).toBeAttached();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });

  // the deposit sheet and its CryptoBot step
  await page.goto('/profile');
  await expect(page.getByTestId('profile-balance')).toHaveText(/\d+[.,]\d{2}/);
  await page.getByRole('button', { name: /^(Deposit|Пополнить)$/ }).click();
  await expect(page.getByTestId('deposit-sheet')).toBeVisible();
  await page.getByTestId('deposit-method-cryptobot').click();
  await expect(page.getByTestId('deposit-amount')).toBeVisible();
  await page.keyboard.press('Escape');

  // the TON Connect modal: its lazily loaded UI, its styles, its wallets list and icons
  await page.getByTestId('wallet-button').click();
  const modal = page.locator('[data-tc-modal]');
  await expect(modal).toBeVisible();
  await expect(modal.locator('[data-tc-wallet-item]').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);

  expect(found.violations).toEqual([]);
});

test('pages other than the case list preload no picture they do not show', async ({ page }) => {
  test.setTimeout(120_000);
  const found = await watch(page);
  for (const path of [
    '/profile',
    '/inventory',
    '/upgrade',
    '/race',
    '/battle',
    '/fairness',
    '/case/starter',
    '/',
  ]) {
    await page.goto(path);
    await expect(page.getByTestId('header-balance')).toHaveText(/\d/);
    if (path !== '/') {
      // this page has none of the list's preloads
      await expect(page.locator('link[rel="preload"][as="image"]'), path).toHaveCount(0);
    }
    // the browser warns about an unused preload a few seconds after the load event: stay on the page past
    // that (this waits for the browser's own timer; it measures nothing)
    await page.waitForTimeout(3_500);
  }
  expect(found.unusedPreloads).toEqual([]);
  expect(found.violations).toEqual([]);
});
