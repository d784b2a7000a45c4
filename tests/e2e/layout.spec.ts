import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { findLayoutFaults } from './layout-faults.ts';

// Every screen at the phone widths players have (320, 360, 390, 414 px), in Russian and English: the page
// never scrolls sideways, and no button or label has its text cut (an element that clips its text, by
// overflow or an ellipsis, must have room for it; a button's text must fit inside the button; nothing
// outside a scrolling strip may reach past the screen's edge). Each screen's screenshot is attached.

const WIDTHS = [320, 360, 390, 414] as const;
const LANGUAGES = ['ru', 'en'] as const;

interface Screen {
  name: string;
  path: string;
  /** what shows once the screen has its data */
  ready: (page: Page) => Promise<void>;
  /** a step after loading (opening a sheet, playing a case) */
  then?: (page: Page) => Promise<void>;
}

const visible = (testId: string) => async (page: Page) => {
  await expect(page.getByTestId(testId).first()).toBeVisible();
};

const SCREENS: Screen[] = [
  { name: 'home', path: '/', ready: visible('case-card') },
  {
    name: 'case',
    path: '/case/starter',
    ready: async (page) => {
      await expect(page.getByTestId('case-item').first()).toBeVisible();
      await expect(page.getByTestId('open-button').or(page.getByTestId('not-enough-funds'))).toBeVisible();
    },
  },
  {
    name: 'win',
    path: '/case/starter',
    ready: visible('quick-open-button'),
    then: async (page) => {
      await page.getByTestId('quick-open-button').click();
      await expect(page.getByTestId('win-screen')).toBeVisible();
      await expect(page.getByTestId('keep-button')).toBeVisible();
    },
  },
  // the win screen above kept an item: the inventory, the history and the profile's grid have content
  { name: 'inventory', path: '/inventory', ready: visible('inventory-withdraw') },
  { name: 'history', path: '/fairness', ready: visible('history-entry') },
  {
    name: 'profile',
    path: '/profile',
    ready: async (page) => {
      await expect(page.getByTestId('rank').first()).toBeVisible();
      await expect(page.getByTestId('inventory-item').first()).toBeVisible();
    },
  },
  { name: 'deposit', path: '/profile?openDeposit=true', ready: visible('deposit-sheet') },
  { name: 'upgrade', path: '/upgrade', ready: visible('upgrade-button') },
  {
    // the result sheet's actions: three on a failure, two on a success (the longest labels are Russian)
    name: 'upgrade-result',
    path: '/upgrade',
    ready: visible('upgrade-item'),
    then: async (page) => {
      // the failure sheet, its widest form (three actions and the error): the roll's request fails, so
      // nothing is staked
      await page.route('**/api/upgrade/roll', (route) => route.abort('connectionfailed'));
      // the cheapest item held (the inventory lists the dearest first): one the catalogue has a dearer gift for
      await page.getByTestId('upgrade-item').last().click();
      await page.getByTestId('multiplier-2').click();
      await page.locator('[data-testid="upgrade-button"]:not([disabled])').click();
      const sheet = page.getByTestId('upgrade-result');
      await expect(sheet).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('upgrade-back')).toBeVisible();
      await page.unroute('**/api/upgrade/roll');
      // measured once the sheet has slid in
      await page.waitForFunction(() =>
        (
          document.querySelector('[data-testid="upgrade-result"]')?.getAnimations({ subtree: true }) ?? []
        ).every((a) => a.playState !== 'running'),
      );
    },
  },
  { name: 'wheel', path: '/wheel', ready: visible('bonus-spin') },
  { name: 'race', path: '/race', ready: visible('race-how') },
  { name: 'battles', path: '/battle', ready: visible('battle-create-toggle') },
  {
    name: 'verify',
    path: '/verify',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('form button[type="submit"]')).toBeVisible();
    },
  },
];

async function settle(page: Page): Promise<void> {
  // fonts and lazily loaded art change widths: measure once they are in
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

async function check(page: Page, testInfo: TestInfo, label: string): Promise<string[]> {
  await settle(page);
  // kept in the test's output folder (test-results) and listed in the report
  const path = testInfo.outputPath(`${label}.png`);
  await page.screenshot({ path });
  await testInfo.attach(label, { path, contentType: 'image/png' });
  const faults = await page.evaluate(findLayoutFaults);
  return faults.map((f) => `${label}: ${f.kind} ${f.element} "${f.text}" (${f.detail})`);
}

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    test(`every screen fits ${width} px in ${language}`, async ({ page }, testInfo) => {
      test.setTimeout(300_000);
      await page.addInitScript((lng) => localStorage.setItem('lang', lng), language);
      await page.setViewportSize({ width, height: 780 });
      const problems: string[] = [];
      for (const screen of SCREENS) {
        await page.goto(screen.path);
        await screen.ready(page);
        if (screen.then) await screen.then(page);
        problems.push(...(await check(page, testInfo, `${language}-${width}-${screen.name}`)));
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
}
