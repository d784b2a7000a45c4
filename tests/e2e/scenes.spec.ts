import { expect, test, type Page } from '@playwright/test';
import { OFFER_LEAD_MS } from '../../scenes/runtime/protocol.ts';
import { motionStarts, playPostedAt, recordPlayPosted } from './play-probe.ts';

// The scene runtime on both of its paths: in a worker on an OffscreenCanvas (the default where the browser
// can), and on the main thread (`?scenes=main`, for browsers whose workers cannot draw). On both, a spin is
// handed to the page's compositor (one strip of card images a reel, under the canvas), so the runtime draws
// no frame while the reels scroll (from the worker, through messages). The next play's strips wait under
// the canvas before the tap (staged: painted, unseen), and the play takes them. The frame counter
// and the landed items come from the runtime itself (window.__scenes); React commits are counted through
// the hook React offers to developer tools, installed before the app loads.

interface Stats {
  frames: number;
  surfaces: number;
  renderers: string[];
  running: boolean;
}
interface Landed {
  scene: string;
  reels?: { index: number; itemId: string }[];
}
interface ApiResult {
  item: { id: string };
}
interface ApiCase {
  case: { items: { item: { id: string } }[] };
}

declare global {
  interface Window {
    __commits?: number;
  }
}

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));

/** Counts React commits: React calls onCommitFiberRoot on this hook after every commit, in any build. */
const countCommits = (page: Page) =>
  page.addInitScript(() => {
    window.__commits = 0;
    Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', {
      configurable: true,
      value: {
        supportsFiber: true,
        renderers: new Map(),
        inject: () => 1,
        onCommitFiberRoot: () => {
          window.__commits = (window.__commits ?? 0) + 1;
        },
        onCommitFiberUnmount: () => {},
        onPostCommitFiberRoot: () => {},
        checkDCE: () => {},
      },
    });
  });

/** The strips a play shows (staged ones wait unseen, `data-staged="idle"`, for the next play). */
const shownStrips = (page: Page) => page.locator('.scene-strip:not([data-staged="idle"])');

const stats = (page: Page) => page.evaluate(() => window.__scenes!.stats() as Promise<Stats>);
const commits = (page: Page) => page.evaluate(() => window.__commits ?? 0);

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

/**
 * What each shown strip has under its marker where its scroll ends, read from the page: the index (into the
 * strip's images, the case's items in order) of the card whose place holds the marker at the last keyframe.
 */
function stripsLandOn(page: Page): Promise<(number | null)[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.scene-strip:not([data-staged="idle"])')].map((band) => {
      const track = band.firstElementChild as HTMLElement;
      const running = track.getAnimations().find((animation) => animation.playState === 'running');
      const last = (running?.effect as KeyframeEffect | null)?.getKeyframes().at(-1)?.transform;
      const scrolled = /translate3d\((-?[\d.]+)px/.exec(String(last ?? ''));
      if (!scrolled) return null;
      const marker = -Number(scrolled[1]) + band.clientWidth / 2;
      for (const box of track.children as HTMLCollectionOf<HTMLElement>) {
        const left = parseFloat(box.style.left);
        const width = parseFloat(box.style.backgroundSize);
        const places = box.style.backgroundPosition.split(',').map((at) => left + parseFloat(at));
        const images = (box.dataset.images ?? '').split(',').map(Number);
        const at = places.findIndex((x) => marker >= x && marker < x + width);
        if (at >= 0) return images[at] ?? null;
      }
      return null;
    }),
  );
}

async function headerBalance(page: Page): Promise<number> {
  const balance = page.getByTestId('header-balance');
  await expect(balance).toHaveText(/^\d+\.\d{2}$/);
  return Number(await balance.textContent());
}

for (const mode of ['worker', 'main'] as const) {
  test(`${mode} path: idle draws nothing, an x3 opening lands on the server's items, no React commit per frame`, async ({
    page,
  }) => {
    test.setTimeout(180_000); // a first bake and a 10 s spin, on a machine that may be busy
    await english(page);
    await countCommits(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });

    const caseAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cases/starter');
    await page.goto(`/case/starter?scenes=${mode}`);
    const caseItems = ((await (await caseAnswer).json()) as ApiCase).case.items.map((entry) => entry.item.id);
    expect(await page.evaluate(() => window.__scenes?.mode)).toBe(mode);
    const price = Number(await page.getByTestId('case-price').textContent());
    expect(await headerBalance(page)).toBeGreaterThanOrEqual(price * 3);

    // the roulette is mounted and prepared (cards baked) before the tap, then draws nothing at idle
    await expect.poll(async () => (await stats(page)).surfaces, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await stats(page)).frames, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => framesOver(page, 1_000), { timeout: 15_000 }).toBe(0);
    const idle = await stats(page);
    expect(idle.running).toBe(false);
    test.info().annotations.push({ type: 'renderer', description: `${mode}: ${idle.renderers.join(', ')}` });

    await page.getByTestId('count-x3').click();
    // the next play's three strips wait staged under the canvas: painted, unseen, tagged here to be found
    const staged = page.locator('.scene-strip[data-staged="idle"]');
    await expect(staged).toHaveCount(3, { timeout: 30_000 });
    await staged.evaluateAll((bands) => bands.forEach((band, i) => band.setAttribute('data-tagged', `${i}`)));
    await recordPlayPosted(page);
    const startedBefore = await page.evaluate(() => window.__scenes!.started);
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/cases/open-multiple' && r.request().method() === 'POST',
    );
    await page.getByTestId('open-button').click();
    const { results } = (await (await answer).json()) as { results: ApiResult[] };
    expect(results).toHaveLength(3);
    await expect(page.getByTestId('roulette')).toBeVisible();

    // mid-spin (once the runtime reports the reels started: a frame drawn while the x3 reels are still
    // being laid out is not the spin): React does not commit per frame
    await expect
      .poll(() => page.evaluate(() => window.__scenes!.started), { timeout: 60_000 })
      .toBeGreaterThan(startedBefore);
    // the page's compositor scrolls the reels (one strip of card images a reel, under the canvas), and the
    // runtime draws nothing until they land
    const strips = shownStrips(page);
    await expect(strips).toHaveCount(3);
    // the play took the staged strips: no strip was built as it started
    await expect(page.locator('.scene-strip')).toHaveCount(3);
    expect(
      await strips.evaluateAll((bands) => bands.map((band) => band.getAttribute('data-tagged'))),
    ).toEqual(['0', '1', '2']);
    // and shows the server's items where the scrolls end: each stop's card was changed to the winner's
    const landsOn = await stripsLandOn(page);
    expect(landsOn.map((index) => (index === null ? null : caseItems[index]))).toEqual(
      results.map((result) => result.item.id),
    );
    const scrolls = () =>
      page.evaluate(() =>
        document
          .getAnimations()
          // the strips' scrolls (the stage's 250 ms entrance may still be running as they start)
          .filter((animation) => animation.playState === 'running')
          .filter((animation) => {
            const target = (animation.effect as KeyframeEffect | null)?.target;
            return target instanceof Element && target.closest('.scene-strip') !== null;
          })
          .map((animation) => Number(animation.currentTime ?? -1)),
      );
    // the hand-off draws one frame (the canvas without its reels) as it starts (from a worker, once the
    // page has shown the strips), which a busy machine may draw only now: then nothing until the reels land
    await expect.poll(() => stoppedOver(page, 300), { timeout: 10_000 }).toBe(true);
    if (mode === 'worker') {
      // the staged strips were offered as the play started, and their scrolls start moving OFFER_LEAD_MS
      // after the play was asked for: the page takes them while the reels still rest (causal, not timed)
      const postedAt = await playPostedAt(page);
      const starts = await motionStarts(page, '.scene-strip');
      expect(postedAt).not.toBeNull();
      expect(starts).toHaveLength(3);
      // a millisecond for the two threads' time origins, each rounded
      for (const start of starts) expect(start).toBeGreaterThanOrEqual(postedAt! + OFFER_LEAD_MS - 1);
    }
    const scrollsBefore = await scrolls();
    const commitsBefore = await commits(page);
    const messagesBefore = await page.evaluate(() => window.__scenes!.eventMessages);
    const drawn = await framesOver(page, 3_000);
    const committed = (await commits(page)) - commitsBefore;
    // the crossings' ticks went ahead as one schedule when the spin started: no message per crossing
    const messages = (await page.evaluate(() => window.__scenes!.eventMessages)) - messagesBefore;
    test.info().annotations.push({
      type: 'spin',
      description: `${mode}: ${drawn} scene frames, ${committed} React commits and ${messages} event messages in 3 s`,
    });
    expect(messages).toBe(0);
    // three running scroll animations that went on advancing, no scene frame, no React commit per frame
    const scrollsAfter = await scrolls();
    expect(scrollsBefore).toHaveLength(3);
    expect(scrollsAfter).toHaveLength(3);
    scrollsAfter.forEach((time, i) => expect(time).toBeGreaterThan(scrollsBefore[i]! + 1_000));
    expect(drawn).toBe(0);
    expect(committed).toBeLessThan(180 / 5);

    // the reels landed on the server's items, as the runtime reports them
    await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });
    const landed = (await page.evaluate(() => window.__scenes!.settled.at(-1))) as Landed;
    expect(landed.scene).toBe('roulette');
    expect(landed.reels!.map((reel) => reel.itemId)).toEqual(results.map((result) => result.item.id));

    // and nothing moves once it has settled: the canvas has the cards back, the strips are gone
    await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
    await expect(strips).toHaveCount(0);
    // no scene errors on the console (the wallet SDK's failed fetches here are not the scenes')
    expect(errors.filter((text) => /pixi|scene|roulette|reading 'add'|resize/i.test(text))).toEqual([]);
  });
}

test('the case list loads no Pixi; touching a case card starts the runtime', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  await page.waitForTimeout(500);
  expect(scripts.filter((path) => /worker|main-thread|pixi/i.test(path))).toEqual([]);
  await page.getByTestId('case-card').first().dispatchEvent('pointerdown');
  await expect.poll(() => scripts.some((path) => /worker/.test(path))).toBe(true);
});

for (const mode of ['worker', 'main'] as const)
  test(`${mode} path: a resize mid-spin takes the reels back from the compositor and they still land on the server items`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await english(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/case/starter?scenes=${mode}`);
    expect(await page.evaluate(() => window.__scenes?.mode)).toBe(mode);
    await expect.poll(async () => (await stats(page)).surfaces, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await stats(page)).frames, { timeout: 30_000 }).toBeGreaterThan(0);

    await page.getByTestId('count-x3').click();
    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/cases/open-multiple' && r.request().method() === 'POST',
    );
    await page.getByTestId('open-button').click();
    const { results } = (await (await answer).json()) as { results: ApiResult[] };
    const strips = shownStrips(page);
    await expect(strips).toHaveCount(3);
    // mid-spin, the webview grows (Telegram expanding the app): the runtime draws the rest of the spin itself
    await page.waitForTimeout(1_000);
    await page.setViewportSize({ width: 430, height: 900 });
    await expect(strips).toHaveCount(0);
    // drawn frame by frame again (a count, not a rate: a busy machine draws fewer than 60 a second)
    expect(await framesOver(page, 1_000)).toBeGreaterThan(3);

    await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 60_000 });
    const landed = (await page.evaluate(() => window.__scenes!.settled.at(-1))) as Landed;
    expect(landed.reels!.map((reel) => reel.itemId)).toEqual(results.map((result) => result.item.id));
    await expect.poll(() => framesOver(page, 1_000), { timeout: 10_000 }).toBe(0);
  });
