import { expect, test, type Page } from '@playwright/test';
import { formatTon, parseTon } from '../../contract/money.ts';
import {
  invoicePaidUpdate,
  signedWebhook,
  startCryptoPay,
  type CryptoPayStandIn,
} from '../stand-ins/cryptopay.ts';
import { readShown, shownBalance, shownPrice } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// Typed amounts are exact at any size: what a player types in the deposit sheet is the invoice amount
// Crypto Pay receives and, once paid, the credit, to the nanoTON, from the smallest deposit to the
// largest; amounts outside the limits (down to 1 nanoTON and up to 10^9 TON) get a readable message and
// send nothing. Crypto Pay is a local stand-in speaking its documented API; the payment arrives as its
// signed webhook. (contract/money.ts alone is checked from 0.000000001 to 10^9 TON in tests/unit/money.test.ts.)

const PLAYER = { id: 7_400_001, first_name: 'Typist' };
let cryptoPay: CryptoPayStandIn;
let server: TestServer;

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(180_000);
  cryptoPay = await startCryptoPay();
  server = await startAppServer({ CRYPTOPAY_TOKEN: cryptoPay.token, CRYPTOPAY_URL: cryptoPay.url });
});

test.afterAll(async () => {
  await server?.close();
  await cryptoPay?.close();
});

async function balanceOf(page: Page): Promise<bigint> {
  const answer = await server.call<{ balance: string }>('GET', '/deposit/balance', {
    token: await tokenOf(page),
  });
  return parseTon(answer.body.balance);
}

async function amountStep(page: Page) {
  await page.getByTestId('profile-balance').waitFor();
  await page.getByRole('button', { name: /^(Deposit|Пополнить)$/ }).click();
  await page.getByTestId('deposit-method-cryptobot').click();
  await expect(page.getByTestId('deposit-sheet')).toHaveAttribute('data-step', 'amount');
}

test('typed deposit amounts reach Crypto Pay and the balance exactly, from 0.01 to 10000 TON', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const context = await browser.newContext();
  try {
    const page = await openAs(context, server, PLAYER, '/profile', 'en');
    // the invoice opens in a new tab (outside Telegram): close it, the sheet waits for the payment
    context.on('page', (tab) => void tab.close());
    for (const typed of ['0.01', '0.123456789', '1.000000001', '8192.000000001', '9999.999999999', '10000']) {
      const before = await balanceOf(page);
      const invoicesBefore = cryptoPay.invoices.size;
      await amountStep(page);
      await page.getByTestId('deposit-amount').fill(typed);
      await page.getByTestId('deposit-submit').click();
      await expect(page.getByTestId('deposit-waiting')).toBeVisible();

      expect(cryptoPay.invoices.size).toBe(invoicesBefore + 1);
      const invoice = [...cryptoPay.invoices.values()].at(-1)!;
      expect(invoice.amount, `${typed}: the invoice is for the typed amount`).toBe(
        formatTon(parseTon(typed)),
      );
      expect(parseTon(invoice.amount)).toBe(parseTon(typed));

      const hook = signedWebhook(cryptoPay.token, invoicePaidUpdate(invoice));
      const paid = await server.call('POST', '/payments/cryptopay/webhook', {
        rawBody: hook.body,
        headers: { 'crypto-pay-api-signature': hook.signature },
      });
      expect(paid.status).toBe(200);
      const credited = page.getByTestId('deposit-credited');
      await expect(credited).toContainText(/\+[\d,.]+ TON/);
      // the credited amount as shown (with group separators) reads back as exactly the typed amount
      const shown = /\+([\d,.]+) TON/.exec((await credited.textContent()) ?? '')![1]!;
      expect(readShown(shown), `${typed}: the credited step shows every decimal`).toBe(parseTon(typed));
      await expect(page.getByTestId('deposit-sheet')).toHaveCount(0);
      expect(await balanceOf(page), `${typed}: credited exactly`).toBe(before + parseTon(typed));
      await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(before + parseTon(typed)));
    }
  } finally {
    await context.close();
  }
});

for (const lang of ['en', 'ru'] as const) {
  test(`amounts outside the limits get a readable message and create no invoice (${lang})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext();
    try {
      const page = await openAs(context, server, PLAYER, '/profile', lang);
      await amountStep(page);
      // the limits as the screen writes amounts (locale separators: 0,01 and 10 000 in Russian)
      const min = `${lang === 'en' ? 'The minimum deposit is' : 'Минимальная сумма пополнения —'} ${shownPrice('0.01', 0, lang)} TON`;
      const max = `${lang === 'en' ? 'The maximum deposit is' : 'Максимальная сумма пополнения —'} ${shownPrice('10000', 0, lang)} TON`;
      const invoicesBefore = cryptoPay.invoices.size;
      for (const [typed, message] of [
        ['0.000000001', min],
        ['0.0000000001', min],
        ['10000.000000001', max],
        ['1000000000', max],
      ] as const) {
        await page.getByTestId('deposit-amount').fill(typed);
        await page.getByTestId('deposit-submit').click();
        await expect(page.getByRole('alert')).toHaveText(message);
        await expect(page.getByTestId('deposit-sheet')).toHaveAttribute('data-step', 'amount');
      }
      expect(cryptoPay.invoices.size).toBe(invoicesBefore);
    } finally {
      await context.close();
    }
  });
}
