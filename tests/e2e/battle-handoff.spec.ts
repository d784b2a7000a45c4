import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Battle } from '../../contract/battles.ts';
import { setBalance } from '../api/harness.ts';
import { landedIndex } from '../../src/features/battle/model.ts';
import { openAs, startAppServer, tokenOf, type TestServer } from './players.ts';

// The battle room on both scene paths (in the worker, and on the main thread with `?scenes=main`, for
// browsers whose workers cannot draw): each seat's reel hands its spin to the page's compositor (a strip of
// tile images under the canvas, scrolled by a Web Animation; from the worker through messages), so the
// runtime draws no frame while the reels spin, and each reel still
// lands on the server's roll for its seat. A resize mid-spin takes the strips back and the runtime draws
// the rest of the spin. The frame counter and the landed cases come from the runtime (window.__scenes).

const PLAYER = { id: 7_600_001, first_name: 'Reeler', username: 'reeler_e2e' };
const START_NANO = 200_000_000_000n;

interface Stats {
  frames: number;
  surfaces: number;
  running: boolean;
}
interface Landed {
  scene: string;
  caseIndex?: number;
}

let server: TestServer;

test.beforeAll(async () => {
  // a fresh database is migrated and seeded first: slow on a busy machine
  test.setTimeout(180_000);
  // a round every 6 s: each 3 s spin ends (with its bake, on a busy machine) before the next round is revealed
  server = await startAppServer({ BATTLE_ROUND_MS: '6000' });
  await server.login(PLAYER);
  await setBalance(server, PLAYER.id, START_NANO);
});

test.afterAll(async () => {
  await server?.close();
});

const stats = (page: Page) => page.evaluate(() => window.__scenes!.stats() as Promise<Stats>);
const settledCount = (page: Page) => page.evaluate(() => window.__scenes!.settled.length);
const battleReelsLanded = (page: Page, from: number) =>
  page.evaluate(
    (start) =>
      (window.__scenes!.settled as Landed[])
        .slice(start)
        .filter((landed) => landed.scene === 'battle-reel')
        .map((landed) => landed.caseIndex ?? -1),
    from,
  );

/** The runtime's animation frame each battle reel landed in since the `from`th landing. */
const battleReelLoops = (page: Page, from: number) =>
  page.evaluate(
    (start) =>
      (window.__scenes!.settled as Landed[])
        .map((landed, i) => ({ landed, loop: window.__scenes!.settledLoops[i] }))
        .slice(start)
        .filter(({ landed }) => landed.scene === 'battle-reel')
        .map(({ loop }) => loop),
    from,
  );

/** Frames the runtime draws over `ms` of page time. */
async function framesOver(page: Page, ms: number): Promise<number> {
  const before = await stats(page);
  await page.waitForTimeout(ms);
  return (await stats(page)).frames - before.frames;
}

/**
 * The runtime stopped drawing over `ms` of page time, its frame loop not even scheduled: a play handed to
 * the compositor (a loop held up on a busy machine, or a worker still drawing until the page shows the
 * layers, is still scheduled).
 */
async function stoppedOver(page: Page, ms: number): Promise<boolean> {
  const before = await stats(page);
  await page.waitForTimeout(ms);
  const after = await stats(page);
  return !after.running && after.frames === before.frames;
}

type Mode = 'worker' | 'main';

/** A 1v1v1 battle of the given cases, its room open on the scene path `mode` with every seat's reel ready. */
/**
 * Runs `run` in a battle room of PLAYER's (a 1v1v1 battle of these cases, waiting for its bots) on a scene
 * path, in a phone-sized context of its own, once every seat's reel is prepared and nothing is drawn at idle.
 */
async function inBattleRoom(
  browser: Browser,
  caseIds: string[],
  mode: Mode,
  run: (page: Page, id: string) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const page = await openAs(context, server, PLAYER, '/battle');
    const created = await server.call<{ battle: Battle }>('POST', '/battles', {
      token: await tokenOf(page),
      body: { format: '1v1v1', mode: 'normal', caseIds },
    });
    expect(created.status).toBe(200);
    const id = created.body.battle.id;
    await page.goto(`${server.baseUrl}/battle/${id}?scenes=${mode}`);
    expect(await page.evaluate(() => window.__scenes?.mode)).toBe(mode);
    // one reel a seat, each prepared (tiles baked, its rest pose drawn), then nothing drawn at idle
    await expect.poll(async () => (await stats(page)).surfaces, { timeout: 30_000 }).toBe(3);
    await expect(page.locator('.battle__reel canvas')).toHaveCount(3);
    await expect.poll(() => framesOver(page, 1_000), { timeout: 30_000 }).toBe(0);
    await run(page, id);
  } finally {
    await context.close();
  }
}

/** The server's landing case (index into the round's case) for every seat, in seat order. */
async function serverLandings(page: Page, id: string, round: number): Promise<number[]> {
  const { battle } = (
    await server.call<{ battle: Battle }>('GET', `/battles/${id}`, { token: await tokenOf(page) })
  ).body;
  return battle.seats.map((seat) => landedIndex(battle, round, seat.seat) ?? -1);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** The strips a spin shows (a staged one waits unseen, `data-staged="idle"`, for the next spin). */
const SHOWN_STRIPS = '.scene-strip:not([data-staged="idle"])';

/** Every seat's drops: how many the room shows. */
const dropsShown = (page: Page) =>
  Promise.all([0, 1, 2].map((seat) => page.getByTestId(`battle-drops-${seat}`).locator('li').count()));

for (const mode of ['worker', 'main'] as const) {
  test(`${mode} path: each seat hands its spin to the compositor: no runtime frame while the reels spin, each lands on the server roll`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    await inBattleRoom(browser, ['starter', 'flowers'], mode, async (page, id) => {
      const room = page.getByTestId('battle-room');
      const strips = page.locator(SHOWN_STRIPS);
      await expect(strips).toHaveCount(0);
      // each seat's first spin waits staged under its canvas (painted, unseen), tagged here to be found
      const staged = page.locator('.battle__reel .scene-strip[data-staged="idle"]');
      await expect(staged).toHaveCount(3, { timeout: 30_000 });
      await staged.evaluateAll((bands) =>
        bands.forEach((band, i) => band.setAttribute('data-tagged', `${i}`)),
      );
      // the bots' answer holds the started battle with its first round: the socket's events for that
      // change (started, round 1) read nothing more, so nothing re-renders the room as its reels begin
      const reads: string[] = [];
      const countReads = (request: { method(): string; url(): string }) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname === `/api/battles/${id}`)
          reads.push(request.url());
      };
      page.on('request', countReads);
      await page.getByTestId('battle-bots').click();

      for (const round of [1, 2]) {
        const before = await settledCount(page);
        await expect(room).toHaveAttribute('data-round', String(round), { timeout: 30_000 });
        // every seat's reel is on the compositor, one strip each, scrolling...
        await expect(strips).toHaveCount(3, { timeout: 10_000 });
        await expect(page.locator(`.battle__reel ${SHOWN_STRIPS}`)).toHaveCount(3);
        // the first round's spins took the staged strips: none was built as the reels started
        if (round === 1)
          expect(await strips.evaluateAll((bands) => bands.map((band) => band.dataset.tagged))).toEqual([
            '0',
            '1',
            '2',
          ]);
        // ...and the round's drops stay hidden while they spin (no spoiler before every reel has landed)
        expect(await dropsShown(page)).toEqual([round - 1, round - 1, round - 1]);
        // the one frame that redraws the canvases without the tiles (from a worker, once the page shows them)
        await expect.poll(() => stoppedOver(page, 300), { timeout: 10_000 }).toBe(true);
        const drawn = await framesOver(page, 600);
        // the count holds only for a window inside the spin: on a machine slow enough that a reel landed
        // meanwhile, the landing's own frames are in it (the stop above already showed the hand-off)
        const landedMeanwhile = await Promise.all(
          [0, 1, 2].map((seat) => page.getByTestId(`battle-seat-${seat}`).getAttribute('data-landed')),
        );
        const inside = landedMeanwhile.every((landed) => landed !== String(round));
        test.info().annotations.push({
          type: 'spin',
          description: `${mode}, round ${round}: ${drawn} runtime frames in 0.6 s${inside ? '' : ' (a reel landed meanwhile: not counted)'}`,
        });
        if (inside) expect(drawn).toBe(0);
        expect(await dropsShown(page)).toEqual([round - 1, round - 1, round - 1]);

        // the reels land on the server's roll for each seat, take the tiles back, and then the drops show
        for (const seat of [0, 1, 2])
          await expect(page.getByTestId(`battle-seat-${seat}`)).toHaveAttribute(
            'data-landed',
            String(round),
            {
              timeout: 30_000,
            },
          );
        expect(sorted(await battleReelsLanded(page, before))).toEqual(
          sorted(await serverLandings(page, id, round)),
        );
        // the reels, all three on the compositor (the stop above), are taken back together and land in
        // one frame of the runtime: one canvas draw and one commit of the page, not one a seat
        expect(new Set(await battleReelLoops(page, before)).size).toBe(1);
        await expect(strips).toHaveCount(0);
        if (round === 1) {
          page.off('request', countReads);
          expect(reads).toEqual([]);
        }
        await expect.poll(() => dropsShown(page)).toEqual([round, round, round]);
        await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
      }
      await expect(room).toHaveAttribute('data-status', 'finished', { timeout: 30_000 });
    });
  });

  test(`${mode} path: a resize mid-spin takes the strips back, and every reel still lands on the server roll`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    await inBattleRoom(browser, ['starter'], mode, async (page, id) => {
      const strips = page.locator(SHOWN_STRIPS);
      const before = await settledCount(page);
      await page.getByTestId('battle-bots').click();
      await expect(strips).toHaveCount(3, { timeout: 30_000 });

      // mid-spin, the webview grows (Telegram expanding the app): the reels widen, the runtime draws the rest
      await page.waitForTimeout(800);
      await page.setViewportSize({ width: 430, height: 900 });
      await expect(strips).toHaveCount(0);
      expect(await framesOver(page, 500)).toBeGreaterThan(0);

      for (const seat of [0, 1, 2])
        await expect(page.getByTestId(`battle-seat-${seat}`)).toHaveAttribute('data-landed', '1', {
          timeout: 30_000,
        });
      expect(sorted(await battleReelsLanded(page, before))).toEqual(
        sorted(await serverLandings(page, id, 1)),
      );
      await expect.poll(() => dropsShown(page)).toEqual([1, 1, 1]);
      await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
    });
  });
}

test('a read of the battle still out when the bots’ answer lands is dropped: the room never goes back to open', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  await inBattleRoom(browser, ['starter'], 'worker', async (page, id) => {
    const room = page.getByTestId('battle-room');
    // the room's next read of the battle (its poll while the battle waits) is answered by the server at
    // once, and that answer (the battle still open) is held on the way back until the bots' answer is in
    let held: () => void = () => undefined;
    const readOut = new Promise<void>((resolve) => (held = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    await page.route(`**/api/battles/${id}`, async (route) => {
      if (route.request().method() !== 'GET' || reads++ > 0) return route.continue();
      const response = await route.fetch();
      held();
      await released;
      // the page may have given up on it (aborted): then there is nothing to hand back
      await route.fulfill({ response }).catch(() => undefined);
    });
    await readOut;
    // what it holds is the battle as it is now, waiting for players
    const now = await server.call<{ battle: Battle }>('GET', `/battles/${id}`, {
      token: await tokenOf(page),
    });
    expect(now.body.battle.status).toBe('open');

    const bots = page.waitForResponse(
      (r) => new URL(r.url()).pathname === `/api/battles/${id}/bots` && r.request().method() === 'POST',
    );
    await page.getByTestId('battle-bots').click();
    expect((await bots).ok()).toBe(true);
    await expect(room).toHaveAttribute('data-status', 'running');
    // every status the room shows from now on, while the old read comes back
    await room.evaluate((element) => {
      const seen: string[] = [];
      (window as unknown as { statuses: string[] }).statuses = seen;
      new MutationObserver(() => seen.push(element.getAttribute('data-status') ?? '')).observe(element, {
        attributes: true,
        attributeFilter: ['data-status'],
      });
    });
    release();
    await page.waitForTimeout(1_500);
    const statuses = await page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    expect(statuses).not.toContain('open');
    await expect(room).not.toHaveAttribute('data-status', 'open');
  });
});
