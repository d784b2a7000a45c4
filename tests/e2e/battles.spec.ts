import { expect, test, type Page } from '@playwright/test';
import type { Battle } from '../../contract/battles.ts';
import { parseTon } from '../../contract/money.ts';
import { setBalance } from '../api/harness.ts';
import { shownBalance, shownPrice } from './money.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// Case battles between real players: two Telegram users in two browsers create and join a battle, a third
// watches it live, and all three see the same rounds land (the server's items, seat by seat), the same
// winner, and the players' balances move by exactly the seat's cost. Then the race screen shows a player's
// real place. These players need their own server (the shared e2e server only knows its demo player).

const ALICE = { id: 7_100_001, first_name: 'Alice', username: 'alice_e2e' };
const BOB = { id: 7_100_002, first_name: 'Bob', username: 'bob_e2e' };
const CAROL = { id: 7_100_003, first_name: 'Carol', username: 'carol_e2e' };
const START_NANO = 50_000_000_000n;

let server: TestServer;

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(180_000);
  // rounds revealed every 1.5 s: the reels still play, the test does not wait 4 s a round
  server = await startAppServer({ BATTLE_ROUND_MS: '1500' });
  for (const user of [ALICE, BOB, CAROL]) {
    await server.login(user);
    await setBalance(server, user.id, START_NANO);
  }
});

test.afterAll(async () => {
  await server?.close();
});

async function api<T>(page: Page, path: string): Promise<T> {
  const answer = await server.call<T>('GET', path, { token: await tokenOf(page) });
  expect(answer.status, path).toBe(200);
  return answer.body;
}

test('two players battle, a spectator watches live, and every screen shows the same rounds', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  try {
    const [aliceCtx, bobCtx, carolCtx] = contexts as [
      (typeof contexts)[0],
      (typeof contexts)[0],
      (typeof contexts)[0],
    ];
    const alice = await openAs(aliceCtx, server, ALICE, '/battle');
    await expect(alice.getByTestId('header-balance')).toHaveText(shownBalance(START_NANO));

    // Alice creates a 1v1 of two rounds
    await alice.getByTestId('battle-create-toggle').click();
    await alice.getByTestId('battle-pick-starter').click();
    await alice.getByTestId('battle-pick-flowers').click();
    await alice.getByTestId('battle-format-1v1').click();
    await alice.getByTestId('battle-create-submit').click();
    await expect(alice).toHaveURL(/\/battle\/[0-9a-f]{16}$/);
    const id = alice.url().split('/').pop()!;
    const created = (await server.call<{ battle: Battle }>('GET', `/battles/${id}`)).body.battle;
    const cost = parseTon(created.cost);
    expect(created.cases.map((c) => c.id)).toEqual(['starter', 'flowers']);
    await expect(alice.getByTestId('header-balance')).toHaveText(shownBalance(START_NANO - cost));

    // Carol watches from the battle's page before anyone joins
    const carol = await openAs(carolCtx, server, CAROL, `/battle/${id}`);
    await expect(carol.getByTestId('battle-room')).toHaveAttribute('data-status', 'open');
    await expect(carol.getByTestId('battle-join-1')).toBeVisible();

    // Bob joins from the lobby
    const bob = await openAs(bobCtx, server, BOB, '/battle');
    const card = bob.locator(`[data-battle="${id}"]`);
    await card.getByTestId('battle-join').click();
    // paying for the seat asks first, with its price
    await expect(bob.getByTestId('battle-join-dialog')).toContainText(shownPrice(created.cost, 2));
    await bob.getByTestId('battle-join-dialog-confirm').click();
    await expect(bob).toHaveURL(new RegExp(`/battle/${id}$`));

    // everyone sees the battle run and finish, live
    for (const page of [alice, bob, carol]) {
      await expect(page.getByTestId('battle-room')).toHaveAttribute('data-status', 'finished', {
        timeout: 60_000,
      });
    }
    const final = (await server.call<{ battle: Battle }>('GET', `/battles/${id}`)).body.battle;
    expect(final.status).toBe('finished');
    const winner = final.seats.find((s) => s.team === final.winnerTeam)!;
    for (const page of [alice, bob, carol]) {
      for (const seat of final.seats) {
        const items = final.rolls
          .filter((r) => r.seat === seat.seat)
          .sort((a, b) => a.round - b.round)
          .map((r) => r.item.id);
        const drops = page.getByTestId(`battle-drops-${seat.seat}`).locator('li');
        await expect(drops).toHaveCount(items.length);
        for (const [i, item] of items.entries())
          await expect(drops.nth(i)).toHaveAttribute('data-item', item);
        const column = page.getByTestId(`battle-seat-${seat.seat}`);
        if (seat.seat === winner.seat) await expect(column).toHaveAttribute('data-won', 'true');
        else await expect(column).not.toHaveAttribute('data-won', /.*/);
      }
    }
    // names on the seats: Alice created (seat 0), Bob joined (seat 1)
    await expect(carol.getByTestId('battle-seat-0')).toContainText('Alice');
    await expect(carol.getByTestId('battle-seat-1')).toContainText('Bob');

    // each player paid exactly one seat; the winner holds every item of the battle
    for (const page of [alice, bob]) {
      const { balance } = await api<{ balance: string }>(page, '/deposit/balance');
      expect(parseTon(balance)).toBe(START_NANO - cost);
      await expect(page.getByTestId('header-balance')).toHaveText(shownBalance(START_NANO - cost));
    }
    const winnerPage = winner.seat === 0 ? alice : bob;
    const inventory = (await api<{ inventory: { id: string; quantity: number }[] }>(winnerPage, '/inventory'))
      .inventory;
    for (const roll of final.rolls) {
      const held = inventory.find((e) => e.id === roll.item.id);
      expect(held?.quantity ?? 0).toBeGreaterThanOrEqual(
        final.rolls.filter((r) => r.item.id === roll.item.id).length,
      );
    }
  } finally {
    await Promise.all(contexts.map((c) => c.close()));
  }
});

interface Race {
  leaderboard: { place: number; name: string; points: string }[];
  you: { place: number | null; points: string } | null;
}

test('the race screen shows each player the place the server ranks them at, and the profile their battles', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  // wagers on top of the battle above: Carol opens two cases, Bob one
  const carolToken = await server.login(CAROL);
  const bobToken = await server.login(BOB);
  for (const [token, caseId] of [
    [carolToken, 'premium'],
    [carolToken, 'premium'],
    [bobToken, 'starter'],
  ] as const) {
    expect((await server.call('POST', '/cases/open', { token, body: { caseId } })).status).toBe(200);
  }

  for (const [user, lang] of [
    [ALICE, 'en'],
    [BOB, 'ru'],
    [CAROL, 'en'],
  ] as const) {
    const context = await browser.newContext();
    try {
      const page = await openAs(context, server, user, '/race', lang);
      const race = await api<Race>(page, '/race');
      const place = race.you?.place;
      expect(place, `${user.first_name} has wagered`).toBeGreaterThan(0);
      expect(race.leaderboard[place! - 1]?.name).toBe(user.first_name);
      // the number on the screen is the server's place, and the leaderboard row at it is the player's
      await expect(page.getByTestId('race-you')).toContainText(`#${place}`);
      const shown = Number(/#(\d+)/.exec((await page.getByTestId('race-you').textContent()) ?? '')?.[1]);
      expect(shown).toBe(place);
      await expect(page.locator(`[data-rank="${place}"]`)).toContainText(user.first_name);
      await expect(page.getByTestId('race-leaderboard').locator('li')).toHaveCount(race.leaderboard.length);

      // the profile lists the player's battles with their outcome, each linking to its page
      if (user !== CAROL) {
        const history = (await api<{ battles: Battle[] }>(page, '/battles/history')).battles;
        expect(history.length).toBeGreaterThan(0);
        await page.getByTestId('tab-profile').click();
        const entries = page.getByTestId('battle-history-entry');
        await expect(entries).toHaveCount(history.length);
        const first = history[0]!;
        const me = first.seats.find((s) => s.isYou)!;
        await expect(entries.first()).toHaveAttribute('data-battle', first.id);
        await expect(entries.first()).toHaveAttribute(
          'data-outcome',
          me.team === first.winnerTeam ? 'won' : 'lost',
        );
        await entries.first().getByRole('link').click();
        await expect(page).toHaveURL(new RegExp(`/battle/${first.id}$`));
        await expect(page.getByTestId('battle-room')).toHaveAttribute('data-status', 'finished');
      }
    } finally {
      await context.close();
    }
  }
});
