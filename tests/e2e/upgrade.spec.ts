import { expect, test, type Page } from '@playwright/test';
import { shownPrice } from './money.ts';
import { parseTon } from '../../contract/money.ts';

// The upgrade game against the real server in demo mode. Every e2e file shares one server and database,
// so nothing here assumes a fresh inventory or balance: both are read before each step. The stakes come
// from cheap cases opened through the API with the page's own session.
//
// The server's seed is secret, so no test can choose a roll's outcome. Instead the test rolls at x1.5
// (a 26% chance) through the real UI until it has seen both a success and a failure, and checks each
// result against the server's answer: the wheel, the sheet and the inventory afterwards.

interface ApiItem {
  id: string;
  name: string;
  price: string;
  imageUrl: string;
}
interface InventoryEntry {
  id: string;
  quantity: number;
  item: ApiItem;
}
interface RollAnswer {
  success: boolean;
  rolled: number;
  chance: number;
  coef: number;
  stake: ApiItem;
  target: ApiItem;
  result: ApiItem | null;
  proof: { serverSeedHash: string; clientSeed: string; nonce: number };
}
interface Options {
  targets: ApiItem[];
  chance: number;
}

/** The chance wheel rolls 5 s and tells the result 0.5 s later (spec §4, §9); 1.5 s with reduced motion. */
const ROLL_MS = 5_000;
const REDUCED_ROLL_MS = 1_500;
const RESULT_DELAY_MS = 500;
/** Rolls shown with the full animation; the rest run with reduced motion to keep the file fast. */
const FULL_ROLLS = 2;
const MAX_ATTEMPTS = 30;

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));

async function token(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const answer = await page.request.get(`/api${path}`, {
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  expect(answer.ok(), `GET ${path}`).toBe(true);
  return (await answer.json()) as T;
}

async function apiPost<T>(page: Page, path: string, data: unknown): Promise<{ status: number; body: T }> {
  const answer = await page.request.post(`/api${path}`, {
    headers: { authorization: `Bearer ${await token(page)}` },
    data,
  });
  return { status: answer.status(), body: (await answer.json()) as T };
}

const inventory = async (page: Page) =>
  (await apiGet<{ inventory: InventoryEntry[] }>(page, '/inventory')).inventory;
const quantity = (entries: InventoryEntry[], itemId: string) =>
  entries.find((e) => e.id === itemId)?.quantity ?? 0;

/** Opens cheap cases through the API until the player holds at least `count` items to stake. */
async function ensureStakes(page: Page, count: number): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const held = (await inventory(page)).filter((e) => e.id !== 'yacht').reduce((s, e) => s + e.quantity, 0);
    if (held >= count) return;
    const opened = await apiPost(page, '/cases/open-multiple', { caseId: 'starter', amount: 3 });
    expect(opened.status, 'opening a starter case for stakes (enough demo balance)').toBe(200);
  }
}

/** The cheapest item held (anything but the dearest item of the catalogue can be upgraded). */
async function cheapestStake(page: Page): Promise<InventoryEntry> {
  const entries = (await inventory(page)).filter((e) => e.id !== 'yacht');
  expect(entries.length, 'an item to stake').toBeGreaterThan(0);
  return entries.at(-1)!; // the inventory lists the dearest first
}

const card = (page: Page, testId: string, itemId: string) =>
  page.locator(`[data-testid="${testId}"][data-item-id="${itemId}"]`);

async function pressMultiplier(page: Page, coef: number): Promise<void> {
  const button = page.getByTestId(`multiplier-${coef}`);
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

test('the controls: bet and prize, multipliers that clear on a second tap, tabs and the two grids', async ({
  page,
}) => {
  await english(page);
  await page.goto('/upgrade');
  await ensureStakes(page, 1);
  await page.reload();

  await expect(page.getByTestId('upgrade-page')).toBeVisible();
  await expect(page.getByTestId('upgrade-wheel').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('upgrade-bet')).toHaveText('0.00');
  await expect(page.getByTestId('upgrade-prize')).toHaveText('0.00');
  await expect(page.getByTestId('upgrade-chance')).toHaveText('0.0%');
  const upgrade = page.getByTestId('upgrade-button');
  await expect(upgrade).toHaveText('Upgrade');
  await expect(upgrade).toBeDisabled();

  const labels = await page.locator('.upgrade-multipliers__option').allTextContents();
  expect(labels).toEqual(['x1.5', 'x2', 'x3', 'x5', 'x10', 'x20']);
  // baseChance 0.39 / coef as percent with 1 decimal (spec §9), in the order of the buttons
  const chances: [number, string][] = [
    [1.5, '26.0%'],
    [2, '19.5%'],
    [3, '13.0%'],
    [5, '7.8%'],
    [10, '3.9%'],
    [20, '2.0%'],
  ];
  for (const [coef, shown] of chances) {
    await page.getByTestId(`multiplier-${coef}`).click();
    await expect(page.getByTestId(`multiplier-${coef}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('upgrade-chance')).toHaveText(shown);
  }
  // tapping the selected multiplier clears it
  await page.getByTestId('multiplier-20').click();
  await expect(page.getByTestId('multiplier-20')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('upgrade-chance')).toHaveText('0.0%');
  await expect(upgrade).toBeDisabled();

  // the inventory tab lists what the player holds, with name, image and price
  const held = await inventory(page);
  await expect(page.getByTestId('upgrade-tab-inventory')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('upgrade-item')).toHaveCount(held.length);
  const stake = await cheapestStake(page);
  const stakeCard = card(page, 'upgrade-item', stake.id);
  await expect(stakeCard).toContainText(stake.item.name);
  await expect(stakeCard).toContainText(shownPrice(stake.item.price, 1));
  await expect(stakeCard.locator('img')).toHaveAttribute('src', stake.item.imageUrl);

  // without a multiplier and item there are no targets to show
  await page.getByTestId('upgrade-tab-target').click();
  await expect(page.getByTestId('upgrade-targets-hint')).toBeVisible();
  await page.getByTestId('upgrade-tab-inventory').click();

  await stakeCard.click();
  await expect(stakeCard).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('upgrade-bet')).toHaveText(shownPrice(stake.item.price, 2));
  await expect(upgrade).toBeDisabled(); // no multiplier yet
  await page.getByTestId('multiplier-3').click();
  await expect(upgrade).toBeEnabled();

  const options = await apiGet<Options>(page, `/upgrade/options?itemId=${stake.id}&coef=3`);
  expect(options.targets.length).toBeGreaterThan(0);
  await expect(page.getByTestId('upgrade-prize')).toHaveText(shownPrice(options.targets[0]!.price, 2));

  // the desired gift tab: the server's targets; picking one sets the prize, tapping it again goes back
  await page.getByTestId('upgrade-tab-target').click();
  await expect(page.getByTestId('upgrade-target')).toHaveCount(options.targets.length);
  await expect(page.getByTestId('upgrade-target').first()).toHaveAttribute('aria-pressed', 'true');
  const pick = options.targets.at(-1)!;
  await card(page, 'upgrade-target', pick.id).click();
  await expect(card(page, 'upgrade-target', pick.id)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('upgrade-prize')).toHaveText(shownPrice(pick.price, 2));
  await card(page, 'upgrade-target', pick.id).click();
  await expect(page.getByTestId('upgrade-prize')).toHaveText(shownPrice(options.targets[0]!.price, 2));

  // tapping the selected item clears it again
  await page.getByTestId('upgrade-tab-inventory').click();
  await stakeCard.click();
  await expect(stakeCard).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('upgrade-bet')).toHaveText('0.00');
  await expect(upgrade).toBeDisabled();
});

test('a failed roll request counts as a failure: the failure sheet, nothing lost', async ({ page }) => {
  await english(page);
  await page.goto('/upgrade');
  await ensureStakes(page, 1);
  await page.reload();
  const stake = await cheapestStake(page);
  await card(page, 'upgrade-item', stake.id).click();
  await pressMultiplier(page, 2);
  await expect(page.getByTestId('upgrade-button')).toBeEnabled();

  // the stake leaves the inventory behind the screen's back: the server refuses the roll (404)
  const sold = await apiPost(page, '/inventory/sell', { itemId: stake.id, quantity: stake.quantity });
  expect(sold.status).toBe(200);
  const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/upgrade/roll');
  await page.getByTestId('upgrade-button').click();
  expect((await refused).status()).toBe(404);

  const sheet = page.getByTestId('upgrade-result');
  await expect(sheet).toHaveAttribute('data-outcome', 'fail');
  await expect(page.getByTestId('upgrade-result-title')).toHaveText('Failure');
  // the server's code (ITEM_NOT_OWNED) in the interface language, not the server's English message
  await expect(sheet).toContainText('This item is not in your inventory.');
  await expect(page.getByTestId('upgrade-wheel')).toHaveAttribute('data-outcome', 'fail');
  await expect(page.getByTestId('upgrade-back')).toBeVisible();
  await expect(page.getByTestId('upgrade-repeat')).toBeVisible();
  await expect(page.getByTestId('upgrade-continue')).toBeVisible();

  // Back starts over: no multiplier, no item, Upgrade disabled, the sold stake gone from the grid
  await page.getByTestId('upgrade-back').click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByTestId('multiplier-2')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('upgrade-button')).toBeDisabled();
  await expect(card(page, 'upgrade-item', stake.id)).toHaveCount(0);
});

test('a quick second tap on Upgrade rolls once: one request, one stake taken', async ({ page }) => {
  await english(page);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/upgrade');
  await ensureStakes(page, 1);
  await page.reload();
  const stake = await cheapestStake(page);
  await card(page, 'upgrade-item', stake.id).click();
  await pressMultiplier(page, 1.5);
  const upgrade = page.getByTestId('upgrade-button');
  await expect(upgrade).toBeEnabled();

  const sent: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/upgrade/roll') sent.push(r.method());
  });
  // two taps as a shaky finger makes them, the second before the screen has shown the first (plain pointer
  // presses: no waiting for the button to be enabled in between)
  const box = (await upgrade.boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await page.mouse.click(at.x, at.y);
  await page.mouse.click(at.x, at.y);

  await expect(page.getByTestId('upgrade-result')).toBeVisible({ timeout: 15_000 });
  expect(sent).toEqual(['POST']);
  expect(quantity(await inventory(page), stake.id)).toBe(stake.quantity - 1);
});

test('Repeat shows the stake first, then rolls again with the same stake and multiplier', async ({
  page,
}) => {
  await english(page);
  await page.emulateMedia({ reducedMotion: 'reduce' }); // a 1.5 s roll: the full one is timed below
  await page.goto('/upgrade');
  let twice: InventoryEntry | undefined;
  for (let round = 0; round < 5 && !twice; round++) {
    twice = (await inventory(page)).findLast((e) => e.id !== 'yacht' && e.quantity >= 2);
    if (!twice)
      expect((await apiPost(page, '/cases/open-multiple', { caseId: 'starter', amount: 3 })).status).toBe(
        200,
      );
  }
  expect(twice, 'an item held at least twice').toBeDefined();
  await page.reload();
  await card(page, 'upgrade-item', twice!.id).click();
  await pressMultiplier(page, 2);

  const rolls: RollAnswer[] = [];
  page.on('response', async (r) => {
    if (new URL(r.url()).pathname === '/api/upgrade/roll' && r.status() === 200) rolls.push(await r.json());
  });
  await page.getByTestId('upgrade-button').click();
  const sheet = page.getByTestId('upgrade-result');
  await expect(sheet).toBeVisible();
  await expect.poll(() => rolls.length).toBe(1);
  await page.getByTestId('upgrade-repeat').click();
  // Repeat first shows what it will stake: the same item at its price, the same multiplier; nothing staked yet
  const ask = page.getByTestId('upgrade-repeat-dialog');
  await expect(ask).toBeVisible();
  await expect(ask.getByRole('heading')).toHaveText('Stake again?');
  await expect(page.getByTestId('upgrade-repeat-stake')).toHaveAttribute('data-item-id', twice!.id);
  await expect(page.getByTestId('upgrade-repeat-stake')).toContainText(twice!.item.name);
  await expect(page.getByTestId('upgrade-repeat-price')).toHaveText(shownPrice(twice!.item.price, 2));
  await expect(page.getByTestId('upgrade-repeat-coef')).toHaveText('x2');
  await expect(ask).toContainText(`for ${rolls[0]!.target.name}`);
  expect(rolls).toHaveLength(1);
  expect(quantity(await inventory(page), twice!.id)).toBe(twice!.quantity - 1);
  // Cancel keeps the result sheet; Repeat again, then confirm
  await page.getByTestId('upgrade-repeat-dialog-cancel').click();
  await expect(ask).toHaveCount(0);
  await expect(sheet).toBeVisible();
  expect(rolls).toHaveLength(1);
  await page.getByTestId('upgrade-repeat').click();
  await page.getByTestId('upgrade-repeat-dialog-confirm').click();
  // the sheet closes and the same roll is asked for again
  await expect.poll(() => rolls.length).toBe(2);
  expect(rolls.map((r) => [r.stake.id, r.coef])).toEqual([
    [twice!.id, 2],
    [twice!.id, 2],
  ]);
  await expect(sheet).toBeVisible();
  await expect(sheet).toHaveAttribute('data-outcome', rolls[1]!.success ? 'success' : 'fail');
  await page.getByTestId('upgrade-result-close').click();
  await expect(sheet).toHaveCount(0);
  expect(quantity(await inventory(page), twice!.id)).toBe(twice!.quantity - 2);
});

test('a success and a failure: the wheel turns to the server roll, the right sheet, the inventory after', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await english(page);
  await page.goto('/upgrade');
  await ensureStakes(page, 12);
  await page.reload();
  await expect(page.getByTestId('upgrade-item').first()).toBeVisible();

  let sawSuccess = false;
  let sawFailure = false;
  let continuedToProfile = false;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && !(sawSuccess && sawFailure); attempt++) {
    if (attempt === FULL_ROLLS) await page.emulateMedia({ reducedMotion: 'reduce' });
    let before = await inventory(page);
    if (before.filter((e) => e.id !== 'yacht').length === 0) {
      await ensureStakes(page, 3);
      await page.reload();
      // the restock changed the inventory: the counts after the roll compare with this one
      before = await inventory(page);
    }
    const stake = await cheapestStake(page);

    await page.getByTestId('upgrade-tab-inventory').click();
    const stakeCard = card(page, 'upgrade-item', stake.id);
    if ((await stakeCard.getAttribute('aria-pressed')) !== 'true') await stakeCard.click();
    await expect(stakeCard).toHaveAttribute('aria-pressed', 'true');
    await pressMultiplier(page, 1.5);
    // the chance comes from the real prices of the stake and the default target (base × stake ÷ target)
    const chanceShown = page.getByTestId('upgrade-chance');
    await expect(chanceShown).toHaveText(/^\d+\.\d%$/);
    await expect(page.getByTestId('upgrade-bet')).toHaveText(shownPrice(stake.item.price, 2));

    const upgrade = page.getByTestId('upgrade-button');
    await expect(upgrade).toBeEnabled();
    // read once Upgrade can be tapped: only then has the target (and so the exact chance) loaded; before,
    // the screen shows the base chance over the multiplier
    const shownBefore = await chanceShown.textContent();
    const response = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/upgrade/roll' && r.request().method() === 'POST',
    );
    await upgrade.click();
    const answered = await response;
    const answeredAt = Date.now();
    expect(answered.status()).toBe(200);
    expect(answered.request().postDataJSON()).toEqual({ baseChance: 0.39, coef: 1.5, itemId: stake.id });
    const roll = (await answered.json()) as RollAnswer;
    expect(roll.stake.id).toBe(stake.id);
    // the screen showed the chance the server played (before the roll), below the base
    expect(shownBefore).toBe(`${(roll.chance * 100).toFixed(1)}%`);
    expect(roll.chance).toBeLessThan(0.39);
    expect(roll.success).toBe(roll.rolled < roll.chance);

    // the wheel turns (the started flag holds Upgrade and the multipliers) and then shows the sheet
    await expect(upgrade).toBeDisabled();
    await expect(page.getByTestId('multiplier-1.5')).toBeDisabled();
    const sheet = page.getByTestId('upgrade-result');
    await expect(sheet).toBeVisible({ timeout: ROLL_MS + 5_000 });
    const waited = Date.now() - answeredAt;
    const rollMs = attempt < FULL_ROLLS ? ROLL_MS : REDUCED_ROLL_MS;
    expect(waited, 'the result waits for the wheel to stop, plus 0.5 s').toBeGreaterThanOrEqual(
      rollMs + RESULT_DELAY_MS - 300,
    );

    const outcome = roll.success ? 'success' : 'fail';
    await expect(sheet).toHaveAttribute('data-outcome', outcome);
    await expect(page.getByTestId('upgrade-wheel')).toHaveAttribute('data-outcome', outcome);
    await expect(page.getByTestId('upgrade-repeat')).toBeVisible();
    await expect(page.getByTestId('upgrade-continue')).toBeVisible();

    // the inventory after, as the server keeps it and as the grid shows it
    const after = await inventory(page);
    expect(quantity(after, stake.id)).toBe(quantity(before, stake.id) - 1);
    if (roll.success) {
      expect(quantity(after, roll.target.id)).toBe(quantity(before, roll.target.id) + 1);
      expect(roll.result).toEqual(roll.target);
    } else {
      expect(quantity(after, roll.target.id)).toBe(quantity(before, roll.target.id));
      expect(roll.result).toBeNull();
    }

    let keptChoices = false;
    if (roll.success) {
      sawSuccess = true;
      await expect(page.getByTestId('upgrade-result-title')).toHaveText('Success!');
      await expect(page.getByTestId('upgrade-result-item')).toHaveAttribute('data-item-id', roll.target.id);
      await expect(sheet).toContainText(`${stake.item.name} became ${roll.target.name}`);
      await expect(page.getByTestId('upgrade-back')).toHaveCount(0);
      // a success is revealed like a case's win (the target is dearer than the stake: tier 1 and up), but
      // not under reduced motion; a ×N badge from twice the stake's worth
      if (attempt < FULL_ROLLS) await expect(page.getByTestId('win-reveal').locator('canvas')).toHaveCount(1);
      else await expect(page.getByTestId('win-reveal')).toHaveCount(0);
      const gain = (parseTon(roll.target.price) * 1000n) / parseTon(stake.item.price);
      await expect(page.getByTestId('upgrade-result-multiplier')).toHaveCount(gain >= 2000n ? 1 : 0);
      if (!continuedToProfile) {
        // Continue after a success goes to the profile
        continuedToProfile = true;
        await page.getByTestId('upgrade-continue').click();
        await expect(page).toHaveURL(/\/profile$/);
        await page.goto('/upgrade');
      } else {
        // the close action keeps the choices
        keptChoices = true;
        await page.getByTestId('upgrade-result-close').click();
      }
    } else {
      sawFailure = true;
      await expect(page.getByTestId('upgrade-result-title')).toHaveText('Failure');
      await expect(page.getByTestId('upgrade-result-item')).toHaveAttribute('data-item-id', stake.id);
      await expect(page.getByTestId('upgrade-back')).toBeVisible();
      // Continue keeps the multiplier for the next stake
      await page.getByTestId('upgrade-continue').click();
      await expect(page.getByTestId('multiplier-1.5')).toHaveAttribute('aria-pressed', 'true');
    }
    await expect(sheet).toHaveCount(0);
    // the grid follows the server: the stake one fewer (or gone), the gift added on success
    const left = quantity(after, stake.id);
    if (left === 0) await expect(card(page, 'upgrade-item', stake.id)).toHaveCount(0);
    else await expect(card(page, 'upgrade-item', stake.id)).toHaveAttribute('data-quantity', String(left));
    if (roll.success) {
      await expect(card(page, 'upgrade-item', roll.target.id)).toHaveAttribute(
        'data-quantity',
        String(quantity(after, roll.target.id)),
      );
    }
    // the started flag is reset: Upgrade is ready again while the closed sheet kept a held stake selected
    if (keptChoices && left > 0) await expect(page.getByTestId('upgrade-button')).toBeEnabled();
    else await expect(page.getByTestId('upgrade-button')).toBeDisabled();
  }
  expect(sawSuccess, 'a success within the attempts').toBe(true);
  expect(sawFailure, 'a failure within the attempts').toBe(true);
});
