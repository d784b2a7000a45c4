import { Cell } from '@ton/core';
import { expect, test, type Page } from '@playwright/test';
import type { DepositInfo } from '../../contract/deposit.ts';
import { formatTon, parseTon } from '../../contract/money.ts';
import { shownBalance } from './money.ts';
import {
  blockExternalRequests,
  injectTestWallet,
  pickInjectedWallet,
  TEST_WALLET_RAW,
  testWalletState,
  type TestWalletState,
} from './wallet-fixture';

// The deposit sheet against the real server. The e2e server runs in demo mode with a TON receiving
// address configured: CryptoBot deposits are demo deposits (credited after a short delay and pushed over
// the deposit socket), TON deposits are real and go through the wallet, here a test wallet injected
// through the TON Connect JS bridge. The database is shared with the other files: balances are read, not
// assumed.

test.beforeEach(async ({ page }) => {
  await blockExternalRequests(page);
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
});

async function api<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const answer = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.ok(), `GET /api${path}`).toBe(true);
  return (await answer.json()) as T;
}

async function openSheet(page: Page) {
  await page.goto('/profile');
  await expect(page.getByTestId('profile-balance')).toHaveText(/\d+\.\d{2}/);
  await page.getByRole('button', { name: 'Deposit', exact: true }).click();
  const sheet = page.getByTestId('deposit-sheet');
  await expect(sheet).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Deposit' })).toBeVisible();
  return sheet;
}

test('a demo deposit runs through every step and the header balance rises', async ({ page }) => {
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected dialog: ${dialog.message()}`);
  });
  await page.goto('/');
  await expect(page.getByTestId('header-balance')).toHaveText(/^\d+\.\d{2}$/);
  const before = parseTon((await api<{ balance: string }>(page, '/deposit/balance')).balance);
  const info = await api<DepositInfo>(page, '/deposit/info');
  expect(info.cryptobotDemo, 'the e2e server makes CryptoBot deposits demo deposits').toBe(true);

  const sheet = await openSheet(page);

  // 1. method: TON, CryptoBot and gifts; demo mode is said plainly
  await expect(sheet).toHaveAttribute('data-step', 'select');
  await expect(page.getByTestId('deposit-demo-notice')).toHaveText('Demo mode: no real money moves');
  for (const method of ['ton', 'cryptobot', 'gifts']) {
    await expect(page.getByTestId(`deposit-method-${method}`)).toBeVisible();
  }
  await expect(page.getByTestId('deposit-method-cryptobot')).toContainText('Demo');

  // gifts: the account to send a gift to (tests/e2e/telegram-gifts.spec.ts takes it to the end)
  await expect(page.getByTestId('deposit-method-gifts')).toContainText('Demo');
  await page.getByTestId('deposit-method-gifts').click();
  await expect(page.getByTestId('deposit-gifts')).toContainText('@giftcases_demo');
  await page.getByTestId('deposit-back').click();
  await expect(sheet).toHaveAttribute('data-step', 'select');

  // 2. amount: numeric, minimum 0, any step; the button is disabled while empty
  await page.getByTestId('deposit-method-cryptobot').click();
  await expect(sheet).toHaveAttribute('data-step', 'amount');
  const input = page.getByTestId('deposit-amount');
  await expect(input).toHaveAttribute('type', 'number');
  await expect(input).toHaveAttribute('min', '0');
  await expect(input).toHaveAttribute('step', 'any');
  const submit = page.getByTestId('deposit-submit');
  await expect(submit).toBeDisabled();
  await input.fill('1.25');
  await expect(submit).toBeEnabled();
  // note in the page when the credited step appears and when the sheet goes
  await page.evaluate(() => {
    const marks: { credited?: number; closed?: number } = {};
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    new MutationObserver(() => {
      const now = performance.now();
      if (marks.credited === undefined && document.querySelector('[data-testid="deposit-credited"]')) {
        marks.credited = now;
      }
      if (marks.credited !== undefined && marks.closed === undefined) {
        if (!document.querySelector('[data-testid="deposit-sheet"]')) marks.closed = now;
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  await submit.click();

  // 3. waiting for the credit, 4. credited with a check mark for 1.2 s, then the sheet closes
  const waiting = page.getByTestId('deposit-waiting');
  await expect(waiting).toContainText('Waiting for deposit to be credited...');
  await expect(waiting).toContainText('This may take up to 2 minutes');
  const credited = page.getByTestId('deposit-credited');
  await expect(credited).toContainText('Deposit has been credited!', { timeout: 15_000 });
  await expect(credited.locator('.deposit__check')).toBeVisible();
  await expect(credited).toContainText('+1.25 TON');
  await expect(sheet).toHaveCount(0, { timeout: 5000 });
  const marks = await page.evaluate(
    () => (window as unknown as { __marks: { credited: number; closed: number } }).__marks,
  );
  const shownMs = marks.closed - marks.credited;
  expect(shownMs).toBeGreaterThanOrEqual(1150);
  expect(shownMs).toBeLessThan(1800);

  // the header shows the new balance at once (from the socket message), as the server has it
  const expected = before + parseTon('1.25');
  await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(expected));
  expect((await api<{ balance: string }>(page, '/deposit/balance')).balance).toBe(formatTon(expected));
});

test('a TON deposit through an injected wallet sends one message: address, nanoTON, validUntil, comment', async ({
  page,
}) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await injectTestWallet(page);
  await page.goto('/');
  await expect(page.getByTestId('header-name')).toHaveText('Demo');
  const info = await api<DepositInfo>(page, '/deposit/info');
  expect(info.ton, 'the e2e server has a TON receiving address').not.toBeNull();
  expect(info.ton!.demo).toBe(false);

  const sheet = await openSheet(page);
  await expect(page.getByTestId('deposit-method-ton')).not.toContainText('Demo');
  await page.getByTestId('deposit-method-ton').click();
  await expect(sheet).toHaveAttribute('data-step', 'amount');
  await expect(page.getByTestId('deposit-demo-notice')).toHaveCount(0);

  // no wallet yet: 'Wallet not connected'; Deposit opens the wallet connection, closing it sends nothing
  const walletLine = page.getByTestId('deposit-wallet');
  await expect(walletLine).toHaveAttribute('data-state', 'disconnected');
  await expect(walletLine).toContainText('Wallet not connected');
  await page.getByTestId('deposit-amount').fill('1.234567891');
  await page.getByTestId('deposit-submit').click();
  const modal = page.locator('[data-tc-wallets-modal-container]');
  await expect(modal.getByRole('heading', { name: 'Connect your TON wallet' })).toBeVisible();
  await expect(page.getByTestId('deposit-submit')).toBeDisabled();
  await expect(walletLine).toHaveAttribute('data-alert', 'true');
  await expect(walletLine).toHaveAttribute('role', 'alert');
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(page.getByTestId('deposit-submit')).toBeEnabled();
  await expect(sheet).toHaveAttribute('data-step', 'amount');
  expect((await testWalletState(page)).sent).toEqual([]);

  // closing the connection is an answer: Deposit tapped again at once (well inside the double-tap window)
  // is a new tap and opens the connection again, it is not swallowed as the first tap repeated
  const reopenedAfterMs = await page.evaluate(async () => {
    const started = performance.now();
    const submit = document.querySelector<HTMLButtonElement>('[data-testid="deposit-submit"]')!;
    submit.click();
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise(requestAnimationFrame);
    };
    await until(() => document.querySelector('[data-tc-wallets-modal-container]') !== null);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => !submit.disabled);
    submit.click();
    return performance.now() - started;
  });
  expect(reopenedAfterMs, 'the second tap came within the double-tap window').toBeLessThan(600);
  await expect(page.getByTestId('deposit-submit'), 'the tap was taken').toHaveAttribute('aria-busy', 'true');
  await expect(modal).toHaveCount(1); // the closed one has faded out
  await expect(modal.getByRole('heading', { name: 'Connect your TON wallet' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);
  await expect(page.getByTestId('deposit-submit')).toBeEnabled();
  expect((await testWalletState(page)).sent).toEqual([]);

  // Deposit again: connecting in the modal goes on with the deposit, no second tap (declined here: the
  // loading stops silently, back on the amount step)
  await page.evaluate(() => {
    (window as unknown as { __testWallet: TestWalletState }).__testWallet.decline = true;
  });
  await page.getByTestId('deposit-submit').click();
  await pickInjectedWallet(page);
  await expect(walletLine).toHaveAttribute('data-state', 'connected');
  await expect.poll(async () => (await testWalletState(page)).sent.length).toBe(1);
  const first = (await testWalletState(page)).sent[0]!;
  expect(first.messages[0]!.amount).toBe('1234567891');
  await expect(page.getByTestId('deposit-submit')).toBeEnabled();
  await expect(page.getByTestId('deposit-submit')).not.toHaveAttribute('aria-busy', /.*/);
  await expect(sheet).toHaveAttribute('data-step', 'amount');
  await expect(page.locator('.deposit__error')).toHaveCount(0);

  // the wallet accepts: exactly one message, then the sheet waits for the credit
  await page.evaluate(() => {
    (window as unknown as { __testWallet: TestWalletState }).__testWallet.decline = false;
  });
  const sentFrom = Math.floor(Date.now() / 1000);
  await page.getByTestId('deposit-submit').click();
  await expect(page.getByTestId('deposit-waiting')).toContainText('Waiting for deposit to be credited...');
  const sentTo = Math.floor(Date.now() / 1000);

  const { sent } = await testWalletState(page);
  expect(sent).toHaveLength(2);
  const request = sent[1]!;
  expect(request.messages).toHaveLength(1);
  const [message] = request.messages;
  expect(message!.address).toBe(info.ton!.address);
  expect(message!.amount).toBe('1234567891');
  // validUntil: now + 300 s, in seconds (wallets refuse more than 5 minutes)
  expect(request.valid_until).toBeGreaterThanOrEqual(sentFrom + 300 - 2);
  expect(request.valid_until).toBeLessThanOrEqual(sentTo + 300 + 2);
  expect(request.from).toBe(TEST_WALLET_RAW);
  // the payload is a text-comment cell: 32 zero bits, then the player's deposit comment
  const body = Cell.fromBase64(message!.payload!).beginParse();
  expect(body.loadUint(32)).toBe(0);
  expect(body.loadStringTail()).toBe(info.ton!.comment);

  expect(dialogs, 'a declined transaction shows no alert').toBe(0);
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(sheet).toHaveCount(0);
});
