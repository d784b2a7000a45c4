import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { startCryptoPay, type CryptoPayStandIn } from '../stand-ins/cryptopay.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import { findLayoutFaults } from './layout-faults.ts';
import { openAs, startAppServer, type SafeAreas, type TestServer } from './players.ts';

// Real Telegram names at every phone width: the longest a player can have (64-character first and last
// names without a space to break at, a 32-character username), a right-to-left name, and one of emoji. The
// header, the profile, the deposit sheet (method and amount steps), the inventory with its sell-all dialog
// and the fairness page must keep within the screen, with no text cut or spilling (the layout test's
// checks, here also on sheets and dialogs), and each primary button fully on screen; also with Telegram's
// safe areas (a notch and a home bar, and Telegram's own fullscreen controls).

const WIDTHS = [320, 360, 390, 430] as const;
const LANGUAGES = ['ru', 'en'] as const;

const LONGEST = {
  id: 7_800_001,
  first_name: 'Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaftschaf',
  last_name: 'Константинопольскийвысокопревосходительствобогорадостнейшийкнязь',
  username: 'the_longest_username_of_32_chars',
};
const RTL_EMOJI = {
  id: 7_800_002,
  first_name: 'عبدالرحمنبنعبدالعزيزبنعبداللهبنفيصلالسعودابنالملكعبدالعزيزآلسعود',
  last_name: '🎁🎉✨🦄🌈🔥💎👑🚀⭐🎁🎉✨🦄🌈🔥💎👑🚀⭐🎁🎉✨🦄🌈🔥💎👑🚀⭐🎁',
  username: 'emoji_and_arabic_name_player_32c',
};
const PLAYERS = [LONGEST, RTL_EMOJI];

let server: TestServer;
let cryptoPay: CryptoPayStandIn;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cryptoPay = await startCryptoPay();
  // CryptoBot configured (a stand-in): the deposit sheet has a method to pick and an amount step
  server = await startAppServer({ CRYPTOPAY_TOKEN: cryptoPay.token, CRYPTOPAY_URL: cryptoPay.url });
  for (const player of PLAYERS) {
    await server.login(player);
    await setBalance(server, player.id, 50n * 1_000_000_000n);
    await grantItems(server, player.id, { cake: 2, rose: 1 });
  }
});

test.afterAll(async () => {
  await server?.close();
  await cryptoPay?.close();
});

async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** The layout faults on screen now, and the screenshot, under `label`. */
async function faultsOf(page: Page, testInfo: TestInfo, label: string): Promise<string[]> {
  await settle(page);
  const path = testInfo.outputPath(`${label}.png`);
  await page.screenshot({ path });
  await testInfo.attach(label, { path, contentType: 'image/png' });
  const faults = await page.evaluate(findLayoutFaults);
  return faults.map((f) => `${label}: ${f.kind} ${f.element} "${f.text}" (${f.detail})`);
}

/** A button must be wholly on screen, inside the safe area, and not covered by anything. */
async function onScreen(page: Page, testId: string, label: string, insets?: SafeAreas): Promise<string[]> {
  const button = page.getByTestId(testId);
  await expect(button).toBeVisible();
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  const view = page.viewportSize()!;
  const top = (insets?.device.top ?? 0) + (insets?.content.top ?? 0);
  const bottom = view.height - (insets?.device.bottom ?? 0) - (insets?.content.bottom ?? 0);
  const left = (insets?.device.left ?? 0) + (insets?.content.left ?? 0);
  const right = view.width - (insets?.device.right ?? 0) - (insets?.content.right ?? 0);
  if (!box) return [`${label}: ${testId} has no box`];
  const problems: string[] = [];
  if (
    box.x < left - 0.5 ||
    box.x + box.width > right + 0.5 ||
    box.y < top - 0.5 ||
    box.y + box.height > bottom + 0.5
  )
    problems.push(
      `${label}: ${testId} at ${box.x.toFixed(0)},${box.y.toFixed(0)} ${box.width.toFixed(0)}×${box.height.toFixed(0)} outside ${left}..${right} × ${top}..${bottom}`,
    );
  // nothing lies on top of its centre (a tap there reaches it)
  const hit = await button.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return at !== null && (el === at || el.contains(at));
  });
  if (!hit) problems.push(`${label}: ${testId} is covered`);
  return problems;
}

/** Every screen and sheet of one player, in one language at one width: the layout faults found. */
async function walk(page: Page, testInfo: TestInfo, tag: string, insets?: SafeAreas): Promise<string[]> {
  const problems: string[] = [];
  await expect(page.getByTestId('header-name')).toBeVisible();
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  problems.push(...(await faultsOf(page, testInfo, `${tag}-home`)));

  await page.goto(new URL('/profile', page.url()).href);
  await expect(page.getByTestId('profile-name')).toBeVisible();
  await expect(page.getByTestId('inventory-item').first()).toBeVisible();
  problems.push(...(await faultsOf(page, testInfo, `${tag}-profile`)));

  // the deposit sheet: the method step, then the amount step with its button
  await page.getByTestId('profile-balance').waitFor();
  await page.getByRole('button', { name: /^(Deposit|Пополнить)$/ }).click();
  await expect(page.getByTestId('deposit-sheet')).toHaveAttribute('data-step', 'select');
  problems.push(...(await faultsOf(page, testInfo, `${tag}-deposit`)));
  problems.push(...(await onScreen(page, 'deposit-method-cryptobot', `${tag}-deposit`, insets)));
  await page.getByTestId('deposit-method-cryptobot').click();
  await expect(page.getByTestId('deposit-sheet')).toHaveAttribute('data-step', 'amount');
  await page.getByTestId('deposit-amount').fill('12.5');
  problems.push(...(await faultsOf(page, testInfo, `${tag}-deposit-amount`)));
  problems.push(...(await onScreen(page, 'deposit-submit', `${tag}-deposit-amount`, insets)));

  // the inventory and its sell-all dialog
  await page.goto(new URL('/inventory', page.url()).href);
  await expect(page.getByTestId('inventory-item').first()).toBeVisible();
  await page.getByTestId('inventory-sell-all').click();
  await expect(page.getByTestId('sell-all-dialog')).toBeVisible();
  problems.push(...(await faultsOf(page, testInfo, `${tag}-sell-all`)));
  problems.push(...(await onScreen(page, 'sell-all-dialog-confirm', `${tag}-sell-all`, insets)));
  await page.getByTestId('sell-all-dialog-cancel').click();

  await page.goto(new URL('/fairness', page.url()).href);
  await expect(page.getByTestId('fairness-hash')).toBeVisible();
  problems.push(...(await faultsOf(page, testInfo, `${tag}-fairness`)));
  return problems;
}

for (const language of LANGUAGES) {
  for (const width of WIDTHS) {
    test(`the longest, right-to-left and emoji names fit ${width} px in ${language}`, async ({
      browser,
    }, testInfo) => {
      test.setTimeout(300_000);
      const problems: string[] = [];
      for (const player of PLAYERS) {
        const context = await browser.newContext({ viewport: { width, height: 700 } });
        try {
          const page = await openAs(context, server, player, '/', language);
          problems.push(...(await walk(page, testInfo, `${language}-${width}-${player.id}`)));
        } finally {
          await context.close();
        }
      }
      expect(problems, problems.join('\n')).toEqual([]);
    });
  }
}

test('with a notch, a home bar and Telegram’s fullscreen controls, the app keeps to the safe area', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const insets: SafeAreas = {
    device: { top: 47, bottom: 34, left: 0, right: 0 },
    content: { top: 46, bottom: 0, left: 0, right: 0 },
  };
  const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
  try {
    const page = await openAs(context, server, LONGEST, '/', 'ru', insets);
    // the header starts below the notch and Telegram's controls; the tab bar ends above the home bar
    const header = await page.getByTestId('header-name').boundingBox();
    expect(header!.y).toBeGreaterThanOrEqual(93);
    const tab = await page.getByTestId('tab-profile').boundingBox();
    expect(tab!.y + tab!.height).toBeLessThanOrEqual(640 - 34);
    const problems = await walk(page, testInfo, 'safe-area', insets);
    expect(problems, problems.join('\n')).toEqual([]);
  } finally {
    await context.close();
  }
});
