import { expect, test, type Page } from '@playwright/test';

// Gift deposits in demo mode (no BOT_TOKEN: the built-in simulated Telegram): the deposit sheet's Gifts step
// shows the account to send a gift to and the collections it takes, waits, and resolves over the deposit
// socket once the (simulated) gift has arrived and been credited as its item.

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
});

async function heldOf(page: Page, itemId: string): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const answer = await page.request.get('/api/inventory', { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBe(true);
  const { inventory } = (await answer.json()) as { inventory: { id: string; quantity: number }[] };
  return inventory.find((e) => e.id === itemId)?.quantity ?? 0;
}

test("the Gifts step waits for the player's gift and resolves when it is credited", async ({ page }) => {
  await page.goto('/profile');
  await expect(page.getByTestId('profile-balance')).toHaveText(/\d+\.\d{2}/);
  const before = await heldOf(page, 'nft_1');
  await page.getByRole('button', { name: 'Deposit', exact: true }).click();
  const sheet = page.getByTestId('deposit-sheet');
  await expect(page.getByTestId('deposit-method-gifts')).toContainText('Demo');
  await page.getByTestId('deposit-method-gifts').click();
  await expect(sheet).toHaveAttribute('data-step', 'gifts');

  const step = page.getByTestId('deposit-gifts');
  await expect(step).toContainText('Send a Telegram gift from one of these collections to @giftcases_demo.');
  const gift = step.locator('[data-testid="deposit-gift"][data-item-id="nft_1"]');
  await expect(gift).toContainText('NFT Gift #1');
  await expect(gift).toContainText('Demo Collection One');
  await expect(page.getByTestId('deposit-gifts-waiting')).toContainText('Waiting for your gift...');

  await gift.getByTestId('deposit-gift-simulate').click();
  const credited = page.getByTestId('deposit-credited');
  await expect(credited).toContainText('Gift received!', { timeout: 20_000 });
  await expect(credited).toContainText('NFT Gift #1');
  await expect(sheet).toHaveCount(0, { timeout: 5000 });
  expect(await heldOf(page, 'nft_1')).toBe(before + 1);
});
