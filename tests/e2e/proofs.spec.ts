import { expect, test, type Page } from '@playwright/test';
import type { Battle, BattleSeatResponse } from '../../contract/battles.ts';
import type { OpenMultipleResponse } from '../../contract/cases.ts';
import type { BetHistoryResponse } from '../../contract/fairness.ts';
import type { UpgradeConfigResponse, UpgradeRollResponse } from '../../contract/upgrade.ts';
import { grantItems, setBalance } from '../api/harness.ts';
import {
  openAs,
  pressTelegramBack,
  startAppServer,
  telegramBackShown,
  tokenOf,
  type TestServer,
} from './players.ts';

// Fairness one tap away: the fairness page lists every opening, upgrade and battle with its proof, an
// opening's weight-table hash beside it with a copy button; a new client seed shows the server seed it
// retires; an upgrade's result sheet names its bet and links its proof; a drop in the live feed opens its
// proof inside the app (the header, a back button); the paste form fills itself from a bet id.

const PLAYER = { id: 7_900_001, first_name: 'Prover' };
const TON = 1_000_000_000n;
let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer({ BATTLE_ROUND_MS: '0', GAMES_SWEEP_MS: '200' });
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, 100n * TON);
  await grantItems(server, PLAYER.id, { cake: 3 });
});

test.afterAll(async () => {
  await server?.close();
});

async function call<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await server.call<T>(method as 'GET', path, { token: await tokenOf(page), body });
  expect(answer.status, `${method} ${path}`).toBe(200);
  return answer.body;
}

/** One bet of each kind, made through the API: an opening, an upgrade and a battle against a house bot. */
async function betOfEachKind(page: Page) {
  const opened = await call<OpenMultipleResponse>(page, 'POST', '/cases/open-multiple', {
    caseId: 'starter',
    amount: 1,
  });
  const { baseChance } = await call<UpgradeConfigResponse>(page, 'GET', '/upgrade/config');
  const upgraded = await call<UpgradeRollResponse>(page, 'POST', '/upgrade/roll', {
    baseChance,
    coef: 2,
    itemId: 'cake',
  });
  const created = await call<BattleSeatResponse>(page, 'POST', '/battles', {
    format: '1v1',
    mode: 'normal',
    caseIds: ['starter'],
  });
  await call(page, 'POST', `/battles/${created.battle.id}/bots`);
  await expect
    .poll(
      async () =>
        (await call<{ battle: Battle }>(page, 'GET', `/battles/${created.battle.id}`)).battle.status,
    )
    .toBe('finished');
  return { opening: opened.results[0]!, upgrade: upgraded, battleId: created.battle.id };
}

test('the fairness page lists every opening, upgrade and battle, each a tap from its proof', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const page = await openAs(context, server, PLAYER, '/', 'en');
    const bets = await betOfEachKind(page);
    await page.goto(new URL('/fairness', page.url()).href);

    const row = (betId: string) => page.locator(`[data-testid="history-entry"][data-bet-id="${betId}"]`);
    await expect(row(bets.opening.betId)).toHaveAttribute('data-kind', 'case');
    await expect(row(bets.upgrade.betId)).toHaveAttribute('data-kind', 'upgrade');
    await expect(row(bets.battleId)).toHaveAttribute('data-kind', 'battle');
    await expect(row(bets.upgrade.betId)).toContainText(bets.upgrade.success ? 'Upgraded' : 'Lost');

    // the opening's weight table hash, beside it, copied with one tap
    const hash = bets.opening.proof.weightTableHash!;
    await expect(row(bets.opening.betId).getByTestId('history-table-hash')).toHaveText(hash);
    await row(bets.opening.betId).getByTestId('history-table-hash-copy').click();
    await expect(row(bets.opening.betId).getByTestId('history-table-hash-copy')).toHaveText('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hash);

    // each proof link: openings and upgrades on the in-app proof page, battles on their own page
    for (const [betId, path] of [
      [bets.opening.betId, `/proof/${bets.opening.betId}`],
      [bets.upgrade.betId, `/proof/${bets.upgrade.betId}`],
      [bets.battleId, `/battle/${bets.battleId}`],
    ] as const) {
      await expect(row(betId).getByTestId('history-proof-link')).toHaveAttribute('href', path);
    }
    await row(bets.upgrade.betId).getByTestId('history-proof-link').click();
    await expect(page.getByTestId('proof-page')).toBeVisible();
    await expect(page.getByTestId('verify-bet')).toContainText('Upgrade:');
    await expect(page.getByTestId('header-name')).toHaveText(PLAYER.first_name);
    // inside Telegram the back button is Telegram's own: shown here, and it goes back
    await expect.poll(() => telegramBackShown(page)).toBe(true);
    await pressTelegramBack(page);
    await expect(page).toHaveURL(/\/fairness$/);

    // a new client seed retires the pair just used: its server seed is shown, as rotating shows it
    const before = await call<{ serverSeedHash: string }>(page, 'GET', '/fairness');
    await page.getByTestId('fairness-client-seed').fill(`proof-${Date.now()}`);
    await page.getByTestId('fairness-save').click();
    await expect(page.getByTestId('fairness-revealed-by-seed')).toBeVisible();
    await expect(page.getByTestId('fairness-revealed')).toContainText(before.serverSeedHash);
    const seed = await page.getByTestId('fairness-revealed-seed').textContent();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    // and the bets made with it verify at once, right there
    await row(bets.opening.betId).getByTestId('verify-button').click();
    await expect(row(bets.opening.betId).getByTestId('verify-result')).toHaveAttribute('data-ok', 'true');

    // the server's history has the same three, newest first
    const history = await call<BetHistoryResponse>(page, 'GET', '/fairness/history');
    expect(history.bets.slice(0, 3).map((b) => b.kind)).toEqual(['battle', 'upgrade', 'case']);
  } finally {
    await context.close();
  }
});

test('an upgrade’s result sheet names its bet and links its proof', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  try {
    const page = await openAs(context, server, PLAYER, '/upgrade', 'en');
    await grantItems(server, PLAYER.id, { rose: 1 });
    await page.reload();
    await page.locator('[data-testid="upgrade-item"][data-item-id="rose"]').click();
    await page.getByTestId('multiplier-2').click();
    const rolled = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upgrade/roll');
    await page.getByTestId('upgrade-button').click();
    const answer = (await (await rolled).json()) as UpgradeRollResponse;
    const link = page.getByTestId('upgrade-proof-link');
    await expect(link).toBeVisible({ timeout: 20_000 });
    await expect(link).toContainText(answer.betId);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/proof/${answer.betId}$`));
    await expect(page.getByTestId('proof-page')).toBeVisible();
    await expect(page.getByTestId('header-name')).toBeVisible();
    await expect.poll(() => telegramBackShown(page)).toBe(true);
  } finally {
    await context.close();
  }
});

test('a drop in the live feed opens its proof inside the app, with the header and a way back', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  try {
    const page = await openAs(context, server, PLAYER, '/', 'en');
    const opened = await call<OpenMultipleResponse>(page, 'POST', '/cases/open-multiple', {
      caseId: 'starter',
      amount: 1,
    });
    const betId = opened.results[0]!.betId;
    const drop = page.locator(`[data-testid="drop-card-link"][href="/proof/${betId}"]`);
    await expect(drop).toBeVisible({ timeout: 20_000 });
    await drop.click();
    await expect(page).toHaveURL(new RegExp(`/proof/${betId}$`));
    await expect(page.getByTestId('proof-page')).toBeVisible();
    await expect(page.getByTestId('verify-bet')).toBeVisible();
    await expect(page.getByTestId('header-name')).toBeVisible();
    await expect.poll(() => telegramBackShown(page)).toBe(true);
    await pressTelegramBack(page);
    await expect(page.getByTestId('case-card').first()).toBeVisible();
    expect(new URL(page.url()).pathname).toBe('/');
  } finally {
    await context.close();
  }
});

test('the paste form fills itself from a bet id, weight table hash included', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext();
  try {
    const page = await openAs(context, server, PLAYER, '/', 'en');
    const opened = await call<OpenMultipleResponse>(page, 'POST', '/cases/open-multiple', {
      caseId: 'starter',
      amount: 1,
    });
    const { proof, betId } = opened.results[0]!;
    await call(page, 'POST', '/fairness/rotate');

    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const outsider = await visitor.newPage();
    await outsider.goto(`${server.baseUrl}/verify`);
    await outsider.getByTestId('verify-fill-id').fill(betId);
    await outsider.getByTestId('verify-fill').click();
    await expect(outsider.locator('input[name="tableHash"]')).toHaveValue(proof.weightTableHash!);
    await expect(outsider.locator('input[name="clientSeed"]')).toHaveValue(proof.clientSeed);
    await expect(outsider.locator('input[name="nonce"]')).toHaveValue(String(proof.nonce));
    await expect(outsider.locator('input[name="serverSeed"]')).toHaveValue(/^[0-9a-f]{64}$/);
    await outsider.locator('form button[type="submit"]').click();
    await expect(outsider.getByTestId('verify-paste-result').getByTestId('verify-roll')).toHaveText(
      String(proof.roll),
    );
    // the proof page's own button does the same
    await outsider.goto(`${server.baseUrl}/verify/${betId}`);
    await expect(outsider.getByTestId('verify-table-hash')).toHaveText(proof.weightTableHash!);
    await outsider.getByTestId('verify-fill-from-bet').click();
    await expect(outsider.locator('input[name="tableHash"]')).toHaveValue(proof.weightTableHash!);
    await visitor.close();
  } finally {
    await context.close();
  }
});
