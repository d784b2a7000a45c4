import { expect, test, type Page } from '@playwright/test';
import { shownBalance } from './money.ts';

// The app shell against the real server in demo mode: sign-in with server-signed launch data, header,
// tab bar, language choice, and the /deposit redirect.

const TABS = [
  { id: 'upgrade', path: '/upgrade' },
  { id: 'wheel', path: '/wheel' },
  { id: 'cases', path: '/' },
  { id: 'race', path: '/race' },
  { id: 'battle', path: '/battle' },
  { id: 'profile', path: '/profile' },
] as const;

const indicatorOffset = (index: number) => 4 + 62 * index;

function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

async function expectActiveTab(page: Page, index: number): Promise<void> {
  for (const [i, tab] of TABS.entries()) {
    const link = page.getByTestId(`tab-${tab.id}`);
    if (i === index) await expect(link).toHaveAttribute('aria-current', 'page');
    else await expect(link).not.toHaveAttribute('aria-current', /.*/);
  }
  // only the active tab shows its label
  await expect(page.locator('.tabbar__label')).toHaveCount(1);
  await expect(page.getByTestId(`tab-${TABS[index]!.id}`).locator('.tabbar__label')).toBeVisible();

  const indicator = page.getByTestId('tab-indicator');
  const x = indicatorOffset(index);
  await expect(indicator).toHaveAttribute('style', new RegExp(`transform: translateX\\(${x}px\\)`));
  // and it has slid there: its box sits 4 + 62 × index px from the start of the tabs
  await expect(indicator).toHaveCSS('transform', `matrix(1, 0, 0, 1, ${x}, 0)`);
  await expect
    .poll(async () => {
      const [box, first] = await Promise.all([
        indicator.boundingBox(),
        page.getByTestId(`tab-${TABS[0].id}`).boundingBox(),
      ]);
      return box && first ? Math.round(box.x - first.x) : null;
    })
    .toBe(x);
}

test('a fresh browser signs in as the demo user and shows name and balance', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('header-name')).toHaveText('Demo');
  await expect(page.getByTestId('header-balance')).toHaveText(/^[\d\u00a0]+,\d{2}$/);

  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token, 'the session token is kept under "token"').toBeTruthy();

  // The header shows the server's balance with 2 decimals: 100.00 for the demo user until other tests
  // in this run (sharing the database) have opened cases with it.
  const headers = { authorization: `Bearer ${token}` };
  const [balanceAnswer, profileAnswer] = await Promise.all([
    page.request.get('/api/deposit/balance', { headers }),
    page.request.get('/api/users/profile', { headers }),
  ]);
  expect(balanceAnswer.ok()).toBe(true);
  const { balance } = (await balanceAnswer.json()) as { balance: string };
  // Russian by default: a decimal comma
  await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(balance, 'ru'));
  const { stats } = (await profileAnswer.json()) as { stats: { openingsCount: number } };
  if (stats.openingsCount === 0) await expect(page.getByTestId('header-balance')).toHaveText('100,00');

  // wallet button slot for the lazily loaded TON Connect button
  await expect(page.getByTestId('wallet-slot')).toHaveCount(1);
});

test('every tab navigates, is highlighted and moves the indicator', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('header-name')).toHaveText('Demo');
  await expectActiveTab(page, 2);

  for (const [index, tab] of TABS.entries()) {
    await page.getByTestId(`tab-${tab.id}`).click();
    await expect.poll(() => pathOf(page)).toBe(tab.path);
    await expectActiveTab(page, index);
  }

  // Cases stays highlighted on a case page, which has a back button
  await page.goto('/case/no-such-case');
  await expectActiveTab(page, 2);
  await expect(page.getByTestId('header-back')).toBeVisible();
  await page.getByTestId('header-back').click();
  await expect.poll(() => pathOf(page)).toBe('/');
  await expect(page.getByTestId('header-back')).toHaveCount(0);
});

test('switching to English on the profile persists across a reload', async ({ page }) => {
  await page.goto('/profile');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId('lang-ru')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Профиль');
  await expect(page.getByTestId('tab-profile')).toHaveAccessibleName('Профиль');

  // the profile shows who is signed in
  await expect(page.getByTestId('profile-name')).toContainText('Demo');
  await expect(page.getByTestId('profile-balance')).toHaveText(/\d+,\d{2}/);

  await page.getByTestId('lang-en').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('tab-profile')).toHaveAccessibleName('Profile');
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(page.getByTestId('lang-en')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('tab-profile').locator('.tabbar__label')).toHaveText('Profile');
  expect(await page.evaluate(() => localStorage.getItem('lang'))).toBe('en');
});

test('/deposit lands on the profile with the deposit sheet open and the query cleared', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/deposit');

  const sheet = page.getByTestId('deposit-sheet');
  await expect(sheet).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Deposit' })).toBeVisible();
  await expect.poll(() => pathOf(page)).toBe('/profile');
  await expect.poll(() => new URL(page.url()).search).toBe('');
  await expectActiveTab(page, 5);

  // the cleared query does not reopen it on reload
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  await expect(sheet).toHaveCount(0);
});

test('the inventory and the fairness page have a back button to where the player came from', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/profile');
  await expect(page.getByTestId('header-name')).toHaveText('Demo');
  // the profile itself is a tab: no back button
  await expect(page.getByTestId('header-back')).toHaveCount(0);

  for (const [link, path] of [
    ['profile-inventory-link', '/inventory'],
    ['fairness-link', '/fairness'],
  ] as const) {
    await page.getByTestId(link).click();
    await expect.poll(() => pathOf(page)).toBe(path);
    const back = page.getByTestId('header-back');
    await expect(back).toBeVisible();
    await expect(back).toHaveAccessibleName('Back');
    await back.click();
    await expect.poll(() => pathOf(page)).toBe('/profile');
    await expect(page.getByTestId('header-back')).toHaveCount(0);
  }

  // opened straight on the page, back leads to the case list
  await page.goto('/fairness');
  await page.getByTestId('header-back').click();
  await expect.poll(() => pathOf(page)).toBe('/');
});
