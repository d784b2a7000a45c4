import { expect, test } from '@playwright/test';
import { setBalance } from '../api/harness.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// The retention features in the browser, on a server of their own (each player's one daily spin and one use
// of a code are not shared with the other specs): the daily wheel's spin and its credit, a promo code entered
// in the deposit sheet (from the home banner too) and credited, a rank reward on the profile, and an invite
// link opened by a second player.

const ADMIN_KEY = 'retention-e2e-admin-key-0123';
/** Every segment pays 0.1 TON, so the spin's credit is known. */
const WHEEL_PRIZES = Array.from({ length: 12 }, (_, i) => `ton:0.1:${i + 1}`).join(',');

let server: TestServer;
let nextId = 9_100_000;
const newPlayer = () => ({ id: nextId++, first_name: `Player${nextId}` });

test.beforeAll(async () => {
  // RANK_TABLE '' is the default table, with its rewards
  server = await startAppServer({ WHEEL_PRIZES, RANK_TABLE: '', ADMIN_KEY });
});
test.afterAll(async () => {
  await server?.close();
});

test('the daily wheel lands on the server’s prize, credits it and counts down to the next spin', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await openAs(context, server, newPlayer(), '/wheel');
  const spin = page.getByTestId('bonus-spin');
  await expect(page.getByTestId('bonus-prizes').locator('li')).toHaveCount(12);
  await expect(page.getByTestId('wheel-status')).toHaveText('Your free spin is ready');
  await expect(spin).toHaveText('Spin');
  const header = page.getByTestId('header-balance');
  await expect(header).toBeVisible();
  const headerBefore = await header.innerText();
  // every text the header shows from the tap on, and whether the result was up by then
  await page.evaluate(() => {
    const shown: { text: string; result: boolean }[] = [];
    (window as unknown as { headerShown: typeof shown }).headerShown = shown;
    const target = document.querySelector('[data-testid="header-balance"]')!;
    new MutationObserver(() =>
      shown.push({
        text: (target as HTMLElement).innerText,
        result: document.querySelector('[data-testid="wheel-result"]') !== null,
      }),
    ).observe(target, { subtree: true, childList: true, characterData: true });
  });
  await spin.click();
  await expect(spin).toBeDisabled();
  const result = page.getByTestId('wheel-result');
  await expect(result).toBeVisible({ timeout: 20_000 });
  // the prize's balance push comes right after the answer, but the header tells only once the wheel landed
  await expect(header).not.toHaveText(headerBefore);
  const shown = await page.evaluate(
    () => (window as unknown as { headerShown: { text: string; result: boolean }[] }).headerShown,
  );
  expect(shown.length, 'the header changed').toBeGreaterThan(0);
  expect(
    shown.filter((s) => !s.result && s.text !== headerBefore),
    'the header before the landing',
  ).toEqual([]);
  await expect(result).toHaveAttribute('data-kind', 'ton');
  await expect(result).toContainText('You won 0.10 TON!');
  await expect(result).toContainText('Credited to your balance');
  await expect(spin).toHaveText('Spin again');
  await expect(spin).toBeDisabled();
  await expect(page.getByTestId('wheel-countdown')).toHaveText(/^Next free spin in 2[34]:\d\d:\d\d$/);
  const balance = await server.call<{ balance: string }>('GET', '/deposit/balance', {
    token: await tokenOf(page),
  });
  expect(balance.body.balance).toBe('0.1');
  // the proof link leads to the public verifier
  await page.getByTestId('wheel-proof').click();
  await expect(page.getByTestId('verify-bet')).toContainText('Daily wheel spin');
  await context.close();
});

test('GIFTBOOST from the home banner waits for the next deposit; a credit code is credited at once', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await openAs(context, server, newPlayer(), '/');
  await page.getByTestId('promo-banner').click();
  await expect(page.getByTestId('deposit-sheet')).toBeVisible();
  await expect(page.getByTestId('promo-input')).toHaveValue('GIFTBOOST');
  await page.getByTestId('promo-apply').click();
  await expect(page.getByTestId('promo-pending')).toHaveText('GIFTBOOST: +7% on your next deposit');

  const put = await server.call('PUT', '/admin/promo-codes/WELCOME2', {
    headers: { 'x-admin-key': ADMIN_KEY },
    body: { kind: 'credit', amount: '2' },
  });
  expect(put.status).toBe(200);
  await context.close();
  const otherContext = await browser.newContext();
  const other = await openAs(otherContext, server, newPlayer(), '/profile?openDeposit=true');
  await other.getByTestId('promo-input').fill('welcome2');
  await other.getByTestId('promo-apply').click();
  await expect(other.getByTestId('promo-credited')).toHaveText('WELCOME2: 2.00 TON credited');
  await expect(other.getByTestId('profile-balance')).toContainText('2.00');
  // a second time is refused with a readable message
  await other.getByTestId('promo-input').fill('WELCOME2');
  await other.getByTestId('promo-apply').click();
  await expect(other.getByTestId('promo-error')).toHaveText('You have already used this promo code.');
  await otherContext.close();
});

test('a rank reached shows its reward on the profile, and what the next rank gives', async ({ browser }) => {
  const context = await browser.newContext();
  const user = newPlayer();
  const page = await openAs(context, server, user, '/profile');
  await setBalance(server, user.id, 10_000_000_000n);
  const token = await tokenOf(page);
  // five openings: Explorer (a free spin) at 1, Drop Hunter (0.25 TON) at 5
  const opened = await server.call('POST', '/cases/open-multiple', {
    token,
    body: { caseId: 'starter', amount: 3 },
  });
  expect(opened.status).toBe(200);
  await server.call('POST', '/cases/open-multiple', { token, body: { caseId: 'starter', amount: 2 } });
  await page.reload();
  await expect(page.getByTestId('level-title')).toHaveText('Level 3');
  await expect(page.getByTestId('level-rank')).toHaveText('Drop Hunter');
  const ranks = page.getByTestId('rank');
  await expect(ranks.nth(1)).toContainText('Free wheel spin');
  await expect(ranks.nth(1).getByTestId('rank-received')).toHaveText('Received');
  await expect(ranks.nth(2)).toContainText('0.25 TON');
  await expect(ranks.nth(2).getByTestId('rank-received')).toHaveText('Received');
  await expect(ranks.nth(3).getByTestId('rank-received')).toHaveCount(0);
  await expect(page.getByTestId('next-rank-reward')).toHaveText(
    'Next: Case Master at 15 openings gives Free Starter opening',
  );
  await context.close();
});

test('an invite link opened by a second player links them to the inviter', async ({ browser }) => {
  const inviterContext = await browser.newContext();
  const inviter = newPlayer();
  const page = await openAs(inviterContext, server, inviter, '/profile');
  const link = page.getByTestId('invite-link');
  await expect(link).toHaveValue(new RegExp(`[?&]startapp=ref_${inviter.id}$`));
  await expect(page.getByTestId('invites-count')).toHaveText('0');
  const startParam = new URL(await link.inputValue()).searchParams.get('startapp')!;

  const friendContext = await browser.newContext();
  const friend = await openAs(friendContext, server, newPlayer(), '/', 'en', undefined, startParam);
  await expect(friend.getByTestId('promo-banner')).toBeVisible();

  await page.reload();
  await expect(page.getByTestId('invites-count')).toHaveText('1');
  await expect(page.getByTestId('invites')).toContainText('20% of the house edge');
  await inviterContext.close();
  await friendContext.close();
});
