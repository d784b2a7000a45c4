import { expect, test } from '@playwright/test';
import type { Battle } from '../../contract/battles.ts';
import { parseTon, sumTon } from '../../contract/money.ts';
import { books } from '../api/holdings.ts';
import { setBalance } from '../api/harness.ts';
import { revealTier } from '../../src/features/case/reveal.ts';
import { readShown, shownPrice } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// A battle's end for its player: won or lost, the pot (every item of the battle) and what came to them,
// revealed like a case's win when they won, and "Recreate battle": the same cases, format and mode, paid once
// after a confirmation of the seat's price.

const PLAYER = { id: 7_500_001, first_name: 'Fighter', username: 'fighter_e2e' };
const START_NANO = 200_000_000_000n;

let server: TestServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startAppServer({ BATTLE_ROUND_MS: '1500' });
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, START_NANO);
});

test.afterAll(async () => {
  await server?.close();
});

test('the result shows the pot and the take, and Recreate battle pays once for the same battle', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ hasTouch: true, viewport: { width: 360, height: 780 } });
  try {
    const page = await openAs(context, server, PLAYER, '/battle');
    const token = await tokenOf(page);
    const created = await server.call<{ battle: Battle }>('POST', '/battles', {
      token,
      body: { format: '1v1', mode: 'normal', caseIds: ['starter', 'starter'] },
    });
    expect(created.status).toBe(200);
    const id = created.body.battle.id;
    await page.goto(`${server.baseUrl}/battle/${id}`);
    await page.getByTestId('battle-bots').click();

    const outcome = page.getByTestId('battle-outcome');
    await expect(outcome).toBeVisible({ timeout: 60_000 });
    const battle = (await server.call<{ battle: Battle }>('GET', `/battles/${id}`, { token })).body.battle;
    const me = battle.seats.find((s) => s.isYou)!;
    const take = sumTon(battle.rolls.filter((r) => r.awardedSeat === me.seat).map((r) => r.item.price));
    const pot = sumTon(battle.rolls.map((r) => r.item.price));
    const won = take > 0n;
    expect(readShown((await page.getByTestId('battle-pot').textContent())!)).toBe(pot);
    expect(readShown((await page.getByTestId('battle-take').textContent())!)).toBe(take);
    await expect(page.getByTestId('battle-result')).toHaveText(won ? /won/ : /lost/);
    // a win is revealed like a case's (by the dearest item's rarity or the take against the seat's price)
    const dearest = [...battle.rolls].sort((a, b) =>
      Number(parseTon(b.item.price) - parseTon(a.item.price)),
    )[0]!;
    const tier = won ? revealTier(dearest.item.rarity, take, battle.cost) : 0;
    await expect(page.getByTestId('win-reveal')).toHaveCount(tier > 0 ? 1 : 0);

    // Recreate: asks with the seat's price first, then one new battle with the same cases, paid once
    const before = await books(server, PLAYER.id);
    await page.getByTestId('battle-recreate').tap();
    await expect(page.getByTestId('battle-recreate-price')).toContainText(shownPrice(battle.cost, 2));
    await page.getByTestId('battle-recreate-dialog-confirm').tap();
    await expect(page).not.toHaveURL(new RegExp(`/battle/${id}$`));
    await expect(page).toHaveURL(/\/battle\/[0-9a-f]{16}$/);
    const nextId = page.url().split('/').pop()!;
    const next = (await server.call<{ battle: Battle }>('GET', `/battles/${nextId}`, { token })).body.battle;
    expect([next.format, next.mode, next.status]).toEqual(['1v1', 'normal', 'open']);
    expect(next.cases.map((c) => c.id)).toEqual(['starter', 'starter']);
    await page.waitForTimeout(1000);
    expect(before.balanceNano - (await books(server, PLAYER.id)).balanceNano).toBe(parseTon(battle.cost));
  } finally {
    await context.close();
  }
});
