import { expect, test } from '@playwright/test';
import { formatTon, parseTon } from '../../contract/money.ts';
import { shownBalance } from './money.ts';

// The banner's promo code told truthfully: GIFTBOOST applied from the home banner, then a deposit (a demo
// CryptoBot deposit on the shared e2e server) is credited with its 7% bonus in the same step, shown on the
// credited screen and in the balance, to the nanoTON.

test('GIFTBOOST from the banner adds 7% to the next deposit, shown when it is credited', async ({ page }) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  const balance = async () =>
    parseTon(
      (
        (await (
          await page.request.get('/api/deposit/balance', { headers: { authorization: `Bearer ${token}` } })
        ).json()) as { balance: string }
      ).balance,
    );

  await page.getByTestId('promo-banner').click();
  const sheet = page.getByTestId('deposit-sheet');
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('promo-input')).toHaveValue('GIFTBOOST');
  await page.getByTestId('promo-apply').click();
  await expect(page.getByTestId('promo-pending')).toHaveText('GIFTBOOST: +7% on your next deposit');

  const before = await balance();
  await page.getByTestId('deposit-method-cryptobot').click();
  await page.getByTestId('deposit-amount').fill('2.5');
  await page.getByTestId('deposit-submit').click();
  const credited = page.getByTestId('deposit-credited');
  await expect(credited).toContainText('Deposit has been credited!', { timeout: 20_000 });
  // 7% of 2.5 TON, exact
  const bonus = parseTon('0.175');
  await expect(page.getByTestId('deposit-bonus')).toHaveText(`Bonus GIFTBOOST: +${formatTon(bonus)} TON`);
  await expect.poll(balance).toBe(before + parseTon('2.5') + bonus);
  await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(before + parseTon('2.5') + bonus));
});
