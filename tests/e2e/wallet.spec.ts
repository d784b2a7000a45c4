import { Address } from '@ton/core';
import { expect, test, type Page } from '@playwright/test';
import {
  blockExternalRequests,
  connectThroughModal,
  injectTestWallet,
  pickInjectedWallet,
  TEST_WALLET_RAW,
  type TestWalletState,
} from './wallet-fixture';

// The header's wallet button and the profile's wallet block, with TON Connect UI loaded on wallet intent
// (a tap on the button, the profile, the deposit sheet), or after the first screen when a connection is stored. A test wallet is injected through the TON Connect JS bridge where a connection is needed.

/** The address as TON Connect shows a mainnet wallet: user-friendly, non-bounceable. */
const FRIENDLY = Address.parseRaw(TEST_WALLET_RAW).toString({ bounceable: false, testOnly: false });
const BUTTON_FORM = `${FRIENDLY.slice(0, 4)}…${FRIENDLY.slice(-4)}`;
const PROFILE_FORM = `${FRIENDLY.slice(0, 6)}...${FRIENDLY.slice(-5)}`;

test.beforeEach(async ({ page }) => {
  await blockExternalRequests(page);
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
});

function walletButton(page: Page) {
  return page.getByTestId('wallet-button');
}

test('the wallet button loads TON Connect on the tap, spinning meanwhile, then opens the TON Connect modal', async ({
  page,
}) => {
  // hold the wallet chunk back a moment so the loading state is there to see
  let runtimeRequested = false;
  await page.route('**/static/runtime-*.js', async (route) => {
    runtimeRequested = true;
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await page.goto('/');
  await expect(page.getByTestId('header-name')).toHaveText('Demo');
  // a Connect button at once, without TON Connect behind it yet
  await expect(walletButton(page)).toHaveAttribute('data-state', 'disconnected');
  await expect(walletButton(page)).toHaveAccessibleName('Connect wallet');
  await page.waitForTimeout(2000);
  expect(runtimeRequested).toBe(false);

  await walletButton(page).click();
  await expect(walletButton(page)).toHaveAttribute('data-state', 'loading');
  await expect(walletButton(page).locator('.wallet-spinner')).toBeVisible();
  expect(runtimeRequested).toBe(true);
  const modal = page.locator('[data-tc-modal]');
  await expect(modal).toBeVisible();
  await expect(walletButton(page)).toHaveAttribute('data-state', 'disconnected');
  await expect(page.locator('tc-root').first()).toBeAttached();
  // TON Connect UI speaks the app's language and lists wallets from its built-in list
  await expect(modal).toContainText('Connect your TON wallet');
  await expect(modal.locator('[data-tc-wallet-item]').first()).toBeVisible();

  // Escape closes it
  await page.keyboard.press('Escape');
  await expect(modal).toHaveCount(0);

  // the UI follows a language switch
  await page.goto('/profile');
  await page.getByTestId('lang-ru').click();
  await expect(walletButton(page)).toHaveAccessibleName('Подключить кошелёк');
  await walletButton(page).click();
  await expect(page.locator('[data-tc-modal]')).toContainText('Подключите TON кошелёк');
});

test('a connected wallet: first 4 … last 4, a 256 px dropdown that copies and disconnects', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await injectTestWallet(page);
  await page.goto('/');
  await connectThroughModal(page);

  const button = walletButton(page);
  await expect(button).toHaveAttribute('data-state', 'connected');
  await expect(button).toHaveText(BUTTON_FORM);
  await expect(page.locator('[data-tc-modal]')).toHaveCount(0);

  // the dropdown: 256 px, Copy address → 'Address copied!' for 1 s
  await button.click();
  const dropdown = page.getByTestId('wallet-dropdown');
  await expect(dropdown).toBeVisible();
  await expect(dropdown).toHaveCSS('width', '256px');
  await expect(button).toHaveAttribute('aria-expanded', 'true');

  const copy = page.getByTestId('wallet-copy');
  await expect(copy).toHaveText('Copy address');
  await copy.click();
  const copiedAt = Date.now();
  await expect(copy).toHaveText('Address copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FRIENDLY);
  await expect(copy).toHaveText('Copy address', { timeout: 3000 });
  const shownMs = Date.now() - copiedAt;
  expect(shownMs).toBeGreaterThanOrEqual(900);
  expect(shownMs).toBeLessThan(2500);

  // an outside click closes it
  await page.mouse.click(10, 400);
  await expect(dropdown).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');

  // the connection is restored on a new page load; the profile shows first 6 ... last 5
  await page.goto('/profile');
  await expect(page.getByTestId('profile-wallet-address')).toHaveText(PROFILE_FORM);
  await expect(walletButton(page)).toHaveText(BUTTON_FORM);

  // Disconnect from the dropdown: back to Connect wallet, here and on the profile
  await walletButton(page).click();
  await page.getByTestId('wallet-disconnect').click();
  await expect(walletButton(page)).toHaveAttribute('data-state', 'disconnected');
  await expect(page.getByTestId('wallet-dropdown')).toHaveCount(0);
  await expect(page.getByTestId('profile-wallet')).toHaveAttribute('data-state', 'disconnected');
  await expect(page.getByTestId('profile-wallet-connect')).toHaveText('Connect wallet');
  expect(
    await page.evaluate(
      () => (window as unknown as { __testWallet: TestWalletState }).__testWallet.connected,
    ),
  ).toBe(false);

  // ...and connects again from the profile
  await page.getByTestId('profile-wallet-connect').click();
  await pickInjectedWallet(page);
  await expect(page.getByTestId('profile-wallet-address')).toHaveText(PROFILE_FORM);
  await page.getByTestId('profile-wallet-disconnect').click();
  await expect(walletButton(page)).toHaveAttribute('data-state', 'disconnected');
});

test('without the Clipboard API copying uses a hidden text area; a disconnect from the wallet closes the dropdown', async ({
  page,
}) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined, configurable: true });
    const copies: string[] = [];
    (window as unknown as { __copies: string[] }).__copies = copies;
    const execCommand = document.execCommand.bind(document);
    document.execCommand = (command: string, ...rest: [boolean?, string?]) => {
      if (command === 'copy') {
        const area = document.querySelector<HTMLTextAreaElement>('textarea[aria-hidden="true"]');
        copies.push(area?.value ?? '');
      }
      return execCommand(command, ...rest);
    };
  });
  await injectTestWallet(page);
  await page.goto('/');
  await connectThroughModal(page);
  await expect(walletButton(page)).toHaveAttribute('data-state', 'connected');

  await walletButton(page).click();
  await page.getByTestId('wallet-copy').click();
  await expect(page.getByTestId('wallet-copy')).toHaveText('Address copied!');
  expect(await page.evaluate(() => (window as unknown as { __copies: string[] }).__copies)).toEqual([
    FRIENDLY,
  ]);
  await expect(page.locator('textarea[aria-hidden="true"]')).toHaveCount(0);

  // the wallet ends the session: a status change without an account
  await expect(page.getByTestId('wallet-dropdown')).toBeVisible();
  await page.evaluate(() =>
    (window as unknown as { __testWallet: TestWalletState }).__testWallet.disconnectFromWallet(),
  );
  await expect(walletButton(page)).toHaveAttribute('data-state', 'disconnected');
  await expect(page.getByTestId('wallet-dropdown')).toHaveCount(0);
});
