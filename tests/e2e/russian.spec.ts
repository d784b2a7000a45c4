import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

const ru = JSON.parse(readFileSync(new URL('../../src/i18n/ru.json', import.meta.url), 'utf8')) as {
  apiErrors: { ITEM_NOT_OWNED: string };
};

// The Russian interface shows no English: the catalogue's texts (case names and descriptions, item names)
// come in Russian from the server's catalogue answer, and a failed request shows the translation of the
// error code the server answered, never the server's English message. Every screen's visible text is
// scanned for Latin words outside the brand names and units the Russian interface keeps.

/**
 * Latin words the Russian interface keeps: brands, the coin, the promo code, the fairness terms (HMAC-SHA256,
 * nonce), and the language switch's "English" (each language is named in itself).
 */
const ALLOWED = new Set([
  'ton',
  'telegram',
  'giftcases',
  'cryptobot',
  'nft',
  'giftboost',
  'hmac',
  'sha',
  'nonce',
  'english',
]);

interface Me {
  user: { firstName: string; lastName: string | null; username: string | null };
}

/** Runs in the page: the visible text nodes, each with the test id of its nearest marked ancestor. */
function visibleTexts(): { text: string; where: string }[] {
  const found: { text: string; where: string }[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = (node.textContent ?? '').trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('script, style, noscript')) continue;
    // ids, seeds and hashes the app marks as not to be translated (a public bet id can be all letters)
    if (parent.closest('[translate="no"]')) continue;
    if (!parent.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const marked = parent.closest('[data-testid]');
    found.push({ text, where: marked?.getAttribute('data-testid') ?? parent.tagName.toLowerCase() });
  }
  return found;
}

/** English words on screen now: Latin words that are not allowed names, player names, hashes or seeds. */
async function englishOnScreen(page: Page, playerWords: ReadonlySet<string>): Promise<string[]> {
  const texts = await page.evaluate(visibleTexts);
  const faults: string[] = [];
  for (const { text, where } of texts) {
    for (const token of text.split(/\s+/)) {
      // hex digests, seeds and ids (letters with digits) are data, not words
      if (/\d/.test(token)) continue;
      for (const word of token.match(/[A-Za-z]{2,}/g) ?? []) {
        const lower = word.toLowerCase();
        if (ALLOWED.has(lower) || playerWords.has(lower)) continue;
        faults.push(`${where}: "${word}" in "${text.slice(0, 80)}"`);
      }
    }
  }
  return faults;
}

async function session(page: Page) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  return { authorization: `Bearer ${token}` };
}

test('the Russian interface shows no English text from the server', async ({ page }) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => localStorage.setItem('lang', 'ru'));
  await page.goto('/');
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  const headers = await session(page);
  const me = (await (await page.request.get('/api/auth/me', { headers })).json()) as Me;
  // the player's own names come from Telegram as they are
  const playerWords = new Set(
    [me.user.firstName, me.user.lastName ?? '', me.user.username ?? '']
      .join(' ')
      .toLowerCase()
      .match(/[a-z]{2,}/g) ?? [],
  );
  const problems: string[] = [];
  const scan = async (screen: string) => {
    problems.push(...(await englishOnScreen(page, playerWords)).map((p) => `${screen}: ${p}`));
  };

  await scan('home');

  await page.goto('/case/starter');
  await expect(page.getByTestId('case-item').first()).toBeVisible();
  await expect(page.getByTestId('quick-open-button')).toBeVisible();
  await scan('case');
  await page.getByTestId('quick-open-button').click();
  await expect(page.getByTestId('win-screen')).toBeVisible();
  await expect(page.getByTestId('keep-button')).toBeVisible();
  await scan('win screen');
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('win-screen')).toHaveCount(0);

  await page.goto('/inventory');
  await expect(page.getByTestId('inventory-item').first()).toBeVisible();
  await scan('inventory');

  await page.goto('/fairness');
  await expect(page.getByTestId('history-entry').first()).toBeVisible();
  await scan('history');

  await page.goto('/profile');
  await expect(page.getByTestId('inventory-item').first()).toBeVisible();
  await expect(page.getByTestId('rank').first()).toBeVisible();
  await scan('profile');

  await page.goto('/profile?openDeposit=true');
  await expect(page.getByTestId('deposit-sheet')).toBeVisible();
  await scan('deposit sheet');

  // a 4xx answer: the inventory on screen still lists an item the player no longer has (sold elsewhere),
  // so selling it here is refused with ITEM_NOT_OWNED; the screen says so in Russian
  await page.goto('/inventory');
  const sell = page.getByTestId('inventory-sell').first();
  await expect(sell).toBeEnabled();
  const sold = await page.request.post('/api/inventory/sell', { headers, data: { sellAll: true } });
  expect(sold.ok(), await sold.text()).toBe(true);
  await sell.click();
  const error = page.getByTestId('inventory-action-error');
  await expect(error).toHaveText(ru.apiErrors.ITEM_NOT_OWNED);
  await scan('sell error');

  expect(problems, problems.join('\n')).toEqual([]);
});
