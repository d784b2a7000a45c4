import { expect, test } from '@playwright/test';

// A player's first minute on the console: loading the home page and opening a case page (with its scene
// runtime started and the roulette prepared) logs no error and no warning, from the app or the browser.

test('home and a case page log no console error or warning', async ({ page }) => {
  test.setTimeout(120_000); // the roulette's first bake, on a machine that may be busy
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      messages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));

  await page.goto('/');
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  await page.getByTestId('case-card').first().click();
  await expect(page.getByTestId('case-page')).toBeVisible();
  await expect(page.getByTestId('open-button')).toBeEnabled();
  // the roulette is mounted and its cards are baked: it has drawn its rest pose
  await expect
    .poll(() => page.evaluate(() => window.__scenes?.stats().then((s) => s.frames) ?? 0), {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);

  expect(messages).toEqual([]);
});
