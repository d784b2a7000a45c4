import { expect, test, type Page } from '@playwright/test';

// The public verifier: the demo user opens a case and plays an upgrade, rotates the seed so it is revealed,
// then a fresh browser with no session checks both bets by their public ids and from pasted values.
// Every e2e file shares one server and database, so nothing here assumes a fresh balance or inventory.

interface ApiItem {
  id: string;
  name: string;
}
interface OpenAnswer {
  betId: string;
  item: ApiItem;
  proof: { clientSeed: string; nonce: number; weightTableHash: string | null };
}
interface RollAnswer {
  betId: string;
  success: boolean;
}
interface BetProof {
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  chanceNumerator?: string;
  chanceDenominator?: string;
  success?: boolean;
}

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));

async function token(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}

async function call<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const answer = await page.request.fetch(`/api${path}`, {
    method,
    headers: { authorization: `Bearer ${await token(page)}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(answer.ok(), `${method} ${path}`).toBe(true);
  return (await answer.json()) as T;
}

test('a signed-out browser verifies an opening and an upgrade by id and from pasted values', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await english(page);
  await page.goto('/');

  // the demo player: open a case (its proof records the weight table), then stake an item on an upgrade
  const opened = await call<OpenAnswer>(page, 'POST', '/cases/open', { caseId: 'starter' });
  const { baseChance } = await call<{ baseChance: number }>(page, 'GET', '/upgrade/config');
  const inventory = (await call<{ inventory: { id: string }[] }>(page, 'GET', '/inventory')).inventory;
  const stake = inventory.find((e) => e.id !== 'yacht') ?? inventory[0]!;
  const rolled = await call<RollAnswer>(page, 'POST', '/upgrade/roll', {
    baseChance,
    coef: 1.5,
    itemId: stake.id,
  });

  // before rotation the seed is secret: the public page says so
  const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const outsider = await visitor.newPage();
  await english(outsider);
  await outsider.goto(`/verify/${opened.betId}`);
  await expect(outsider.getByTestId('verify-unrevealed')).toBeVisible();

  // rotate: the seed used so far is revealed
  await call(page, 'POST', '/fairness/rotate');

  await outsider.reload();
  await expect(outsider.getByTestId('verify-verdict')).toHaveAttribute('data-ok', 'true');
  await expect(outsider.getByTestId('verify-verdict')).toContainText('Verified');
  await expect(outsider.getByTestId('verify-outcome')).toContainText(opened.item.name);
  await expect(outsider.getByTestId('verify-digest').first()).toHaveText(/^[0-9a-f]{64}$/);
  // the visitor never signed in
  expect(await outsider.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await outsider.goto(`/verify/${rolled.betId}`);
  await expect(outsider.getByTestId('verify-verdict')).toHaveAttribute('data-ok', 'true');
  await expect(outsider.getByTestId('verify-outcome')).toHaveText(
    rolled.success ? 'Upgrade succeeded' : 'Upgrade failed',
  );

  // the same opening from pasted values
  const caseProof = (await (
    await outsider.request.get(`/api/fairness/bets/${opened.betId}`)
  ).json()) as BetProof;
  await outsider.goto('/verify');
  await outsider.locator('input[name="serverSeed"]').fill(caseProof.serverSeed!);
  await outsider.locator('input[name="clientSeed"]').fill(caseProof.clientSeed);
  await outsider.locator('input[name="nonce"]').fill(String(caseProof.nonce));
  await outsider.locator('input[name="tableHash"]').fill(opened.proof.weightTableHash!);
  await outsider.getByRole('button', { name: 'Compute' }).click();
  await expect(outsider.getByTestId('verify-paste-result').getByTestId('verify-outcome')).toContainText(
    opened.item.name,
  );

  // and the upgrade from pasted values
  const upgradeProof = (await (
    await outsider.request.get(`/api/fairness/bets/${rolled.betId}`)
  ).json()) as BetProof;
  await outsider.locator('input[name="serverSeed"]').fill(upgradeProof.serverSeed!);
  await outsider.locator('input[name="clientSeed"]').fill(upgradeProof.clientSeed);
  await outsider.locator('input[name="nonce"]').fill(String(upgradeProof.nonce));
  await outsider.getByLabel('Upgrade', { exact: true }).check();
  await outsider.locator('input[name="numerator"]').fill(upgradeProof.chanceNumerator!);
  await outsider.locator('input[name="denominator"]').fill(upgradeProof.chanceDenominator!);
  await outsider.getByRole('button', { name: 'Compute' }).click();
  await expect(outsider.getByTestId('verify-paste-result').getByTestId('verify-outcome')).toHaveText(
    upgradeProof.success ? 'Upgrade succeeded' : 'Upgrade failed',
  );
  await visitor.close();
});

test('an unknown bet id and an unknown weight table say so', async ({ page }) => {
  await english(page);
  await page.goto('/verify/noSuchBet0000');
  await expect(page.getByText('There is no bet with this id')).toBeVisible();
  await expect(page.getByTestId('verify-bet')).toHaveCount(0);

  // pasted values naming a table the server does not have
  await page.locator('input[name="serverSeed"]').fill('a'.repeat(64));
  await page.locator('input[name="clientSeed"]').fill('client');
  await page.locator('input[name="nonce"]').fill('0');
  await page.locator('input[name="tableHash"]').fill('0'.repeat(64));
  await page.getByRole('button', { name: 'Compute' }).click();
  await expect(page.getByText('Could not compute: check the values')).toBeVisible();
  await expect(page.getByTestId('verify-paste-result')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Compute' })).toBeEnabled();
});
