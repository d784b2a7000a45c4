import { expect, test, type Browser, type Page } from '@playwright/test';
import { resolveConfig as bonusConfig } from '../../scenes/bonus-wheel/config.ts';
import { segmentAt, segmentCount } from '../../scenes/bonus-wheel/motion.ts';
import { resolveConfig as chanceConfig } from '../../scenes/chance-wheel/config.ts';
import { OFFER_LEAD_MS } from '../../scenes/runtime/protocol.ts';
import { wheelRotation } from '../../scenes/shared/wheel.ts';
import { motionStarts, playPostedAt, recordPlayPosted } from './play-probe.ts';
import { openAs, startAppServer, type TestServer } from './players.ts';

// The two wheels on both scene paths (the worker, and the main thread with `?scenes=main`): a spin hands
// the wheel's turn to the page's compositor (its baked face, one element under the canvas that waits there
// unseen from before the tap, rotated by a Web Animation; from the worker through messages), so the runtime
// draws no frame while it turns, and it still lands on what the server answered. The stopped face stays on
// the compositor at the answer's angle (the chance wheel's showing the verdict's colour), so the landing
// draws nothing either, until something changes the wheel at rest. A resize mid-spin takes the turn back:
// the runtime draws the rest itself and lands on the same answer.

interface Stats {
  frames: number;
  surfaces: number;
  running: boolean;
}
interface ApiItem {
  id: string;
  price: string;
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
}
interface SpinAnswer {
  segment: number;
}
type Mode = 'worker' | 'main';
const MODES = ['worker', 'main'] as const;
type Landed =
  | { scene: 'chance-wheel'; success: boolean; fraction: number }
  | { scene: 'bonus-wheel'; segment: number }
  | { scene: string };

const stats = (page: Page) => page.evaluate(() => window.__scenes!.stats() as Promise<Stats>);
const landed = (page: Page) => page.evaluate(() => window.__scenes!.settled.at(-1) as Landed | undefined);

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

/** The composited discs' running turns: their animations' current times. */
const turns = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((animation) => animation.playState === 'running')
      .filter((animation) => {
        const target = (animation.effect as KeyframeEffect | null)?.target;
        return target instanceof Element && target.classList.contains('scene-disc');
      })
      .map((animation) => Number(animation.currentTime ?? -1)),
  );

/** The discs the page's compositor shows (a disc stood by for the next spin waits unseen: `idle`). */
const shownDiscs = (page: Page) => page.locator('.scene-disc:not([data-staged="idle"])');

/**
 * The wheel's face already waits under the canvas before the tap, unseen (stood by once baked): it is
 * marked, so the spin can be seen to turn that very element instead of building one as it starts.
 */
async function markStoodBy(page: Page): Promise<void> {
  const idle = page.locator('.scene-disc[data-staged="idle"]');
  await expect(idle).toHaveCount(1, { timeout: 15_000 });
  expect(await idle.evaluate((disc) => getComputedStyle(disc).opacity)).toBe('0');
  // its turn waits with it: an animation with the spin's easing parsed, paused until a spin starts it
  const ready = await idle.evaluate((disc) =>
    disc.getAnimations().map((animation) => ({
      state: animation.playState,
      easing: (animation.effect as KeyframeEffect).getTiming().easing ?? '',
    })),
  );
  expect(ready).toHaveLength(1);
  expect(ready[0]!.state).toBe('paused');
  expect(ready[0]!.easing).toMatch(/^linear\(/);
  await idle.evaluate((disc) => {
    disc.dataset.probe = 'stood-by';
    (window as unknown as { __readyTurn?: Animation }).__readyTurn = disc.getAnimations()[0];
    // when a spin shows it (on the page's own thread, comparable with the runtime's motion mark)
    new MutationObserver(() => {
      const page = window as unknown as { __faceShownAt?: number };
      if (disc.dataset.staged === 'shown') page.__faceShownAt ??= performance.now();
    }).observe(disc, { attributes: true, attributeFilter: ['data-staged'] });
  });
  await recordPlayPosted(page);
  await expect(shownDiscs(page)).toHaveCount(0);
}

/**
 * While the compositor turns the wheel: one disc turning on, the one stood by before the tap, and no frame
 * drawn by the runtime. On the main thread (`framesAtTap`: the runtime's frame count before the tap) the
 * stood-by face turns from the play's start: the runtime draws the canvas without it once as the play
 * starts (and the answer's rest pose at most), not the play's first frames until the page shows it.
 */
async function expectHandedOff(page: Page, framesAtTap?: number): Promise<void> {
  const discs = shownDiscs(page);
  await expect(discs).toHaveCount(1);
  await expect(discs).toHaveAttribute('data-probe', 'stood-by');
  expect(await discs.evaluate((disc) => getComputedStyle(disc).opacity)).toBe('1');
  // the spin runs the turn that waited, given its angles and start
  expect(
    await discs.evaluate((disc) => {
      const running = disc.getAnimations().filter((animation) => animation.playState === 'running');
      return (
        running.length === 1 && running[0] === (window as unknown as { __readyTurn?: Animation }).__readyTurn
      );
    }),
  ).toBe(true);
  // the hand-off draws one frame (the canvas without the face) as it starts (from a worker, once the page
  // shows the face), which a busy machine may draw only now: once it is drawn, nothing more until it stops
  await expect.poll(() => stoppedOver(page, 300), { timeout: 10_000 }).toBe(true);
  if (framesAtTap !== undefined) {
    expect((await stats(page)).frames - framesAtTap).toBeLessThanOrEqual(2);
    // handed over before the play's first moving frame was drawn (the runtime marks that frame), not after
    const { shownAt, motionAt } = await page.evaluate(() => ({
      shownAt: (window as unknown as { __faceShownAt?: number }).__faceShownAt ?? null,
      motionAt: performance.getEntriesByName('scene:motion').at(-1)?.startTime ?? null,
    }));
    expect(shownAt).not.toBeNull();
    expect(motionAt).not.toBeNull();
    expect(shownAt!).toBeLessThanOrEqual(motionAt!);
  } else {
    // from a worker, the staged face's turn starts moving OFFER_LEAD_MS after the play was asked for, so the
    // page takes the offer while the wheel still rests (causal: the worker read its clock after the message
    // left); the turn runs from the page's frame that took it, holding the rest pose until then
    const postedAt = await playPostedAt(page);
    const turnStarts = await motionStarts(page, '.scene-disc');
    expect(postedAt).not.toBeNull();
    expect(turnStarts).toHaveLength(1);
    // a millisecond for the two threads' time origins, each rounded
    expect(turnStarts[0]!).toBeGreaterThanOrEqual(postedAt! + OFFER_LEAD_MS - 1);
  }
  const before = await turns(page);
  const drawn = await framesOver(page, 1_000);
  const after = await turns(page);
  expect(before).toHaveLength(1);
  expect(after).toHaveLength(1);
  expect(after[0]!).toBeGreaterThan(before[0]! + 500);
  expect(drawn).toBe(0);
}

/**
 * A composited turn has come to its stop (its last pose: a holding disc's turn goes on a while there, still),
 * and the runtime drew no frame since the hand-off (`framesAtHandOff`, the frame count of every surface:
 * checked as the turn stops, before the result shows, as a win's sheet draws a scene of its own): the
 * landing was not drawn on the canvas.
 */
async function expectStoppedUndrawn(page: Page, framesAtHandOff: number): Promise<void> {
  await expect
    .poll(
      () =>
        shownDiscs(page).evaluate((disc) => {
          const turn = disc.getAnimations()[0];
          if (turn?.playState !== 'running') return true;
          const effect = turn.effect as KeyframeEffect;
          const frames = effect.getKeyframes();
          const stopsAt = frames.find(
            (frame) => frame.transform === frames.at(-1)!.transform,
          )!.computedOffset;
          return (effect.getComputedTiming().progress ?? 1) >= stopsAt;
        }),
      { timeout: 20_000, intervals: [20] },
    )
    .toBe(true);
  expect((await stats(page)).frames).toBe(framesAtHandOff);
}

/**
 * The stopped wheel rests on the compositor: the face that turned is still shown, its turn over, at an angle
 * (degrees, clockwise, mod 360) that `lands` checks. Returns the image it shows: its landed image where that
 * is shown above it (fully opaque), else its own.
 */
async function expectRests(page: Page, lands: (angle: number) => void): Promise<string> {
  const discs = shownDiscs(page);
  await expect(discs).toHaveCount(1);
  await expect(discs).toHaveAttribute('data-probe', 'stood-by');
  // its turn (and its landed image's step) ends a while after it stopped
  await expect
    .poll(() =>
      discs.evaluate(
        (disc) =>
          disc.getAnimations({ subtree: true }).filter((animation) => animation.playState === 'running')
            .length,
      ),
    )
    .toBe(0);
  const face = await discs.evaluate((disc) => {
    const { transform, opacity, backgroundImage } = getComputedStyle(disc);
    const [a, b] = new DOMMatrixReadOnly(transform === 'none' ? undefined : transform).toFloat64Array();
    const landed = disc.querySelector('.scene-disc__landed');
    const landedStyle = landed ? getComputedStyle(landed) : null;
    return {
      angle: ((((Math.atan2(b!, a!) * 180) / Math.PI) % 360) + 360) % 360,
      opacity,
      backgroundImage: landedStyle?.opacity === '1' ? landedStyle.backgroundImage : backgroundImage,
    };
  });
  expect(face.opacity).toBe('1');
  lands(face.angle);
  return face.backgroundImage;
}

/** Angles as the fraction of the wheel under the pointer, and back (see wheelRotation). */
const degreesOf = (fraction: number, direction: 'clockwise' | 'counterclockwise') =>
  ((((wheelRotation(fraction, direction) * 180) / Math.PI) % 360) + 360) % 360;

/** Whether two angles (degrees) are within `by` of each other, around the circle. */
function near(a: number, b: number, by: number): boolean {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d) <= by;
}

/**
 * How many pixels of an image (a face's `url(...)` background) are within a few levels of each colour:
 * read in the page, from the image the disc shows.
 */
function colourCounts(page: Page, background: string, colours: number[]): Promise<number[]> {
  return page.evaluate(
    async ({ background, colours }) => {
      const url = /url\("?(.*?)"?\)/.exec(background)?.[1];
      if (!url) return colours.map(() => 0);
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      return colours.map((colour) => {
        const [r, g, b] = [(colour >> 16) & 255, (colour >> 8) & 255, colour & 255];
        let count = 0;
        for (let i = 0; i < data.length; i += 4)
          if (
            data[i + 3]! > 250 &&
            Math.abs(data[i]! - r) <= 3 &&
            Math.abs(data[i + 1]! - g) <= 3 &&
            Math.abs(data[i + 2]! - b) <= 3
          )
            count += 1;
        return count;
      });
    },
    { background, colours },
  );
}

/** The scene's canvas width, CSS px. */
const canvasWidth = (page: Page, container: string) =>
  page
    .getByTestId(container)
    .locator('canvas')
    .evaluate((canvas) => parseFloat(canvas.style.width));

// ── the upgrade wheel, on the shared demo server ──────────────────────────────────────────────────────────

async function token(page: Page): Promise<string> {
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  return (await page.evaluate(() => localStorage.getItem('token')))!;
}

async function inventory(page: Page): Promise<InventoryEntry[]> {
  const answer = await page.request.get('/api/inventory', {
    headers: { authorization: `Bearer ${await token(page)}` },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { inventory: InventoryEntry[] }).inventory;
}

/** Opens cheap cases through the API until the player holds something to stake. */
async function ensureStake(page: Page): Promise<InventoryEntry> {
  for (let round = 0; round < 5; round++) {
    const held = (await inventory(page)).filter((e) => e.id !== 'yacht');
    if (held.length > 0) return held.at(-1)!; // the cheapest: the inventory lists the dearest first
    const opened = await page.request.post('/api/cases/open-multiple', {
      headers: { authorization: `Bearer ${await token(page)}` },
      data: { caseId: 'starter', amount: 3 },
    });
    expect(opened.status(), 'opening a starter case for a stake').toBe(200);
  }
  throw new Error('no item to stake');
}

/** The upgrade page on the scene path `mode` with a stake and x1.5 chosen, its wheel's face baked. */
async function readyUpgrade(page: Page, mode: Mode): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/upgrade?scenes=${mode}`);
  const stake = await ensureStake(page);
  await page.reload();
  expect(await page.evaluate(() => window.__scenes?.mode)).toBe(mode);
  await page.getByTestId('upgrade-tab-inventory').click();
  const stakeCard = page.locator(`[data-testid="upgrade-item"][data-item-id="${stake.id}"]`);
  if ((await stakeCard.getAttribute('aria-pressed')) !== 'true') await stakeCard.click();
  const multiplier = page.getByTestId('multiplier-1.5');
  if ((await multiplier.getAttribute('aria-pressed')) !== 'true') await multiplier.click();
  await expect(page.getByTestId('upgrade-button')).toBeEnabled();
  await expect.poll(async () => (await stats(page)).surfaces, { timeout: 30_000 }).toBe(1);
  // the selection's face is baked when the page is idle (at most a second after the change), then encoded
  await expect.poll(() => framesOver(page, 1_000), { timeout: 15_000 }).toBe(0);
  await page.waitForTimeout(1_500);
  await markStoodBy(page);
}

async function roll(page: Page): Promise<RollAnswer> {
  const answer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/upgrade/roll' && r.request().method() === 'POST',
  );
  await page.getByTestId('upgrade-button').click();
  const response = await answer;
  expect(response.status()).toBe(200);
  return (await response.json()) as RollAnswer;
}

/**
 * The sheet, the wheel's colours and its final pose (the fraction under the pointer) are the server's. A
 * roll the compositor turned to its end (`framesAtHandOff`) rests there: its face, at the answer's angle,
 * shows the arc in the verdict's colour (not the neutral one it turned with), and the landing drew nothing.
 * One the runtime took back was drawn to its end on the canvas, and the face went.
 */
async function expectUpgradeLanded(
  page: Page,
  answer: RollAnswer,
  framesAtHandOff: number | null,
): Promise<void> {
  if (framesAtHandOff !== null) {
    await expectStoppedUndrawn(page, framesAtHandOff);
    // the verdict's colours show from the stop, not once the turn ends (a second later)
    const landedFace = shownDiscs(page).locator('.scene-disc__landed');
    expect(await landedFace.evaluate((face) => getComputedStyle(face).opacity)).toBe('1');
  }
  const sheet = page.getByTestId('upgrade-result');
  await expect(sheet).toBeVisible({ timeout: 20_000 });
  const outcome = answer.success ? 'success' : 'fail';
  await expect(sheet).toHaveAttribute('data-outcome', outcome);
  await expect(page.getByTestId('upgrade-wheel')).toHaveAttribute('data-outcome', outcome);
  const result = await landed(page);
  expect(result).toEqual({ scene: 'chance-wheel', success: answer.success, fraction: answer.rolled });
  if (framesAtHandOff === null) {
    // the canvas has the ring back, and nothing moves
    await expect(shownDiscs(page)).toHaveCount(0);
    await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
    return;
  }
  const config = chanceConfig();
  const face = await expectRests(page, (angle) =>
    expect(near(angle, degreesOf(answer.rolled, config.direction), 0.5), `${angle}°`).toBe(true),
  );
  const [verdict, other, neutral] = await colourCounts(page, face, [
    answer.success ? config.successColor : config.failColor,
    answer.success ? config.failColor : config.successColor,
    config.neutralColor,
  ]);
  expect(verdict).toBeGreaterThan(100);
  expect(other).toBe(0);
  expect(neutral).toBe(0);
}

for (const mode of MODES) {
  test(`upgrade wheel, ${mode} path: the roll turns on the compositor and lands on the server roll`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await readyUpgrade(page, mode);
    const framesAtTap = (await stats(page)).frames;
    const answer = await roll(page);
    await expectHandedOff(page, mode === 'main' ? framesAtTap : undefined);
    await expectUpgradeLanded(page, answer, (await stats(page)).frames);
    // closing the sheet changes the wheel at rest (the next selection's chance, no verdict): the canvas
    // takes the ring back and draws it, and the face goes
    const framesAtRest = (await stats(page)).frames;
    await page.getByTestId('upgrade-result').getByRole('button', { name: 'Close' }).click();
    await expect(shownDiscs(page)).toHaveCount(0);
    await expect(page.getByTestId('upgrade-wheel')).not.toHaveAttribute('data-outcome');
    expect((await stats(page)).frames).toBeGreaterThan(framesAtRest);
  });

  test(`upgrade wheel, ${mode} path: a resize mid-roll takes the turn back and it lands on the server roll`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await readyUpgrade(page, mode);
    const before = await canvasWidth(page, 'upgrade-wheel');
    const answer = await roll(page);
    const discs = shownDiscs(page);
    await expect(discs).toHaveCount(1);
    await page.waitForTimeout(1_000);
    // narrow enough that the wheel (240 px at most) shrinks
    const framesAtResize = (await stats(page)).frames;
    await page.setViewportSize({ width: 220, height: 844 });
    await expect.poll(() => canvasWidth(page, 'upgrade-wheel')).toBeLessThan(before);
    await expect(discs).toHaveCount(0);
    await expectUpgradeLanded(page, answer, null);
    // the runtime drew the rest of the roll frame by frame (a handed-off roll draws one frame, then its stop)
    expect((await stats(page)).frames - framesAtResize).toBeGreaterThan(5);
  });
}

// ── the daily bonus wheel, on a server of its own (one free spin a player a day) ─────────────────────────

let server: TestServer;
let nextId = 9_300_000;

test.describe('bonus wheel', () => {
  test.beforeAll(async () => {
    server = await startAppServer();
  });
  test.afterAll(async () => {
    await server?.close();
  });

  async function readyWheel(page: Page, mode: Mode): Promise<void> {
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => window.__scenes?.mode)).toBe(mode);
    await expect(page.getByTestId('bonus-spin')).toBeEnabled();
    await expect.poll(async () => (await stats(page)).surfaces, { timeout: 30_000 }).toBe(1);
    // the face is baked and encoded ahead: nothing is drawn once it is up
    await expect.poll(() => framesOver(page, 1_000), { timeout: 15_000 }).toBe(0);
    await page.waitForTimeout(500);
    await markStoodBy(page);
  }

  /** A new player's daily wheel on a scene path, ready to spin. */
  async function wheelPage(browser: Browser, name: string, mode: Mode) {
    const context = await browser.newContext();
    const page = await openAs(context, server, { id: nextId++, first_name: name }, `/wheel?scenes=${mode}`);
    await readyWheel(page, mode);
    return { context, page };
  }

  async function spin(page: Page): Promise<SpinAnswer> {
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/wheel/spin' && r.request().method() === 'POST',
    );
    await page.getByTestId('bonus-spin').click();
    const response = await answer;
    expect(response.status()).toBe(200);
    return (await response.json()) as SpinAnswer;
  }

  /** As expectUpgradeLanded: a spin turned to its end rests on the compositor, its face in the answer's segment. */
  async function expectWheelLanded(
    page: Page,
    answer: SpinAnswer,
    framesAtHandOff: number | null,
  ): Promise<void> {
    if (framesAtHandOff !== null) await expectStoppedUndrawn(page, framesAtHandOff);
    await expect(page.getByTestId('wheel-result')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('bonus-wheel')).toHaveAttribute('data-segment', String(answer.segment));
    expect(await landed(page)).toEqual({ scene: 'bonus-wheel', segment: answer.segment });
    if (framesAtHandOff === null) {
      await expect(shownDiscs(page)).toHaveCount(0);
      await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
      return;
    }
    const config = bonusConfig();
    await expectRests(page, (angle) => {
      const sign = config.direction === 'clockwise' ? 1 : -1;
      const fraction = ((((sign * angle) / 360) % 1) + 1) % 1;
      expect(segmentAt(fraction, segmentCount(config)), `${angle}°`).toBe(answer.segment);
    });
  }

  for (const mode of MODES) {
    test(`${mode} path: the spin turns on the compositor and lands on the server segment`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const { context, page } = await wheelPage(browser, 'Spinner', mode);
      const framesAtTap = (await stats(page)).frames;
      const prizesAt = async () => (await page.getByTestId('bonus-prizes').boundingBox())?.y;
      const prizesBefore = await prizesAt();
      const answer = await spin(page);
      await expectHandedOff(page, mode === 'main' ? framesAtTap : undefined);
      // the status line keeps its place while the wheel turns: nothing below it moved up under the tap
      expect(await prizesAt()).toBe(prizesBefore);
      await expect(page.getByTestId('wheel-status')).toBeHidden();
      await expectWheelLanded(page, answer, (await stats(page)).frames);
      // a resize changes the wheel at rest: the canvas takes the face back and draws it
      const framesAtRest = (await stats(page)).frames;
      await page.setViewportSize({ width: 300, height: 844 });
      await expect(shownDiscs(page)).toHaveCount(0);
      expect((await stats(page)).frames).toBeGreaterThan(framesAtRest);
      await context.close();
    });

    test(`${mode} path: a resize mid-spin takes the turn back and it lands on the server segment`, async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const { context, page } = await wheelPage(browser, 'Resizer', mode);
      const before = await canvasWidth(page, 'bonus-wheel');
      const answer = await spin(page);
      const discs = shownDiscs(page);
      await expect(discs).toHaveCount(1);
      const framesAtResize = (await stats(page)).frames;
      await page.setViewportSize({ width: 300, height: 844 });
      await expect.poll(() => canvasWidth(page, 'bonus-wheel')).toBeLessThan(before);
      await expect(discs).toHaveCount(0);
      await expectWheelLanded(page, answer, null);
      // the runtime drew the rest of the spin frame by frame (a handed-off spin draws one frame, then its end)
      expect((await stats(page)).frames - framesAtResize).toBeGreaterThan(5);
      await context.close();
    });
  }
});
