import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

// The debug scene switcher (/debug), in the production build: the server's DEBUG_SCENES=1 (see
// playwright.config.ts) turns it on through GET /api/config. Scenes are chosen and played from the URL.

interface Samples {
  durationMs: number;
  values: number[];
}

const english = (page: Page) => page.addInitScript(() => localStorage.setItem('lang', 'en'));

/** Opens the switcher and waits until it is up. */
async function open(page: Page, search: string): Promise<void> {
  await page.goto(`/debug?${search}`);
  await expect(page.getByTestId('debug-page')).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.__sceneDebug !== undefined)).toBe(true);
}

const settledCount = (page: Page) => page.evaluate(() => window.__sceneDebug?.settledCount ?? -1);
const samples = (page: Page) => page.evaluate(() => window.__sceneDebug!.sample() as Samples);
const config = (page: Page) => page.evaluate(() => window.__sceneDebug!.config as Record<string, unknown>);

const SCENES = [
  { url: 'scene=roulette', entry: 'roulette1' },
  { url: 'scene=roulette&reels=2', entry: 'roulette2' },
  { url: 'scene=roulette&reels=3&track=2000', entry: 'roulette3' },
  { url: 'scene=chance-wheel', entry: 'chanceWheel' },
  { url: 'scene=bonus-wheel', entry: 'bonusWheel' },
  { url: 'scene=battle-reel&renderer=canvas', entry: 'battleReel' },
];

test('the server turns the switcher on', async ({ request }) => {
  const answer = await request.get('/api/config');
  expect(((await answer.json()) as { debugScenes: boolean }).debugScenes).toBe(true);
});

for (const scene of SCENES) {
  test(`plays ${scene.url} from the URL`, async ({ page }) => {
    await english(page);
    await open(page, `${scene.url}&autoplay=1`);
    await expect(page.getByTestId(`debug-scene-${scene.entry}`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('debug-preview').locator('canvas')).toBeVisible();
    await expect.poll(() => settledCount(page), { timeout: 25_000 }).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('debug-settled')).toHaveAttribute('data-count', '1');
    // frame times were measured while it played, and the graph shows their percentiles
    expect(await page.evaluate(() => window.__sceneDebug!.frames.length)).toBeGreaterThan(10);
    await expect(page.getByTestId('debug-p50')).toHaveText(/^\d+\.\d ms$/);
    // the URL keeps what it asked for
    expect(new URL(page.url()).search).toContain(scene.url.split('&')[0]);
  });
}

test('loop=1 replays continuously', async ({ page }) => {
  await open(page, 'scene=battle-reel&loop=1');
  await expect.poll(() => settledCount(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect.poll(() => page.evaluate(() => window.__sceneDebug!.playing)).toBe(true);
});

test('pause, scrub and slow motion drive the scene clock', async ({ page }) => {
  await english(page);
  await open(page, 'scene=battle-reel&autoplay=1');
  const time = page.getByTestId('debug-time');
  const seconds = async () => Number((await time.textContent())!.split(' ')[0]);
  await expect(time).toHaveText(/ \/ 3\.00 s$/);
  await expect.poll(seconds).toBeGreaterThan(0.2);
  await page.getByTestId('debug-pause').click();
  await expect(page.getByTestId('debug-pause')).toHaveText('Resume');
  // the runtime's progress events are batched (about 10 a second), so one already on its way when the
  // pause was asked for may still move the time once; after that it holds
  let paused = '';
  await expect
    .poll(async () => {
      const before = await time.textContent();
      await page.waitForTimeout(300);
      paused = (await time.textContent())!;
      return before === paused;
    })
    .toBe(true);
  await page.waitForTimeout(500);
  await expect(time).toHaveText(paused);

  await page.getByTestId('debug-scrub').fill('1500');
  await expect(time).toHaveText('1.50 s / 3.00 s');
  expect(await settledCount(page)).toBe(0);

  // a quarter of the speed: 1 s of real time moves the play about 0.25 s on
  await page.getByTestId('debug-speed-0.25').click();
  await page.getByTestId('debug-pause').click();
  await page.waitForTimeout(1_000);
  const slow = await seconds();
  expect(slow).toBeGreaterThan(1.6);
  expect(slow).toBeLessThan(2.2);

  await page.getByTestId('debug-speed-1').click();
  await expect.poll(() => settledCount(page), { timeout: 10_000 }).toBe(1);
  await expect(time).toHaveText('3.00 s / 3.00 s');
});

test('an exported config, imported back, reproduces the same motion', async ({ page }) => {
  await english(page);
  await open(page, 'scene=battle-reel');
  await page.getByTestId('debug-replay-on-change').uncheck();
  const defaults = await samples(page);

  // tune in the panel (a number is applied when typed and confirmed): a longer spin, one more loop,
  // another curve (dragging a control point)
  await page.locator('#debug-field-durationMs-input').fill('1700');
  await page.locator('#debug-field-durationMs-input').press('Enter');
  await page.locator('#debug-field-loops-input').fill('4');
  await page.locator('#debug-field-loops-input').press('Enter');
  await expect.poll(async () => (await config(page)).loops).toBe(4);
  const handle = page.getByTestId('debug-ease-handle-1');
  await handle.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 30, box.y + 50, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('debug-ease-text')).toHaveValue(/^cubic-bezier\(/);
  const tuned = await samples(page);
  const tunedConfig = await config(page);
  expect(tuned.durationMs).toBe(1700);
  expect(tuned).not.toEqual(defaults);

  // the tuned config plays to the end
  await page.getByTestId('debug-replay').click();
  await expect.poll(() => settledCount(page), { timeout: 15_000 }).toBe(1);

  // export: the scene's config.ts, as a download
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('debug-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe('battle-reel.config.ts');
  const file = readFileSync((await download.path())!, 'utf8');
  expect(file).toContain('export interface BattleReelConfig {');
  expect(file).toContain('export const battleReelConfig: BattleReelConfig = {');
  expect(file).toContain('  durationMs: 1700,');
  expect(file).toContain('  loops: 4,');
  expect(file).toContain(`  ease: '${String(tunedConfig.ease)}',`);
  await expect(page.getByTestId('debug-export-text')).toContainText('durationMs: 1700,');

  // back to the defaults: the motion is the default one again
  await page.getByTestId('debug-reset').click();
  expect(await samples(page)).toEqual(defaults);

  // import the downloaded file: the same config, the same motion
  await page.getByTestId('debug-import-file').setInputFiles({
    name: 'battle-reel.config.ts',
    mimeType: 'text/plain',
    buffer: Buffer.from(file),
  });
  await expect(page.getByTestId('debug-import-status')).toHaveText('Config imported');
  expect(await config(page)).toEqual(tunedConfig);
  expect(await samples(page)).toEqual(tuned);
  await expect(page.locator('#debug-field-durationMs-input')).toHaveValue('1700');

  // and pasted: the same again
  await page.getByTestId('debug-reset').click();
  await page.getByTestId('debug-import-text').fill(file);
  await page.getByTestId('debug-import-apply').click();
  await expect(page.getByTestId('debug-import-status')).toHaveText('Config imported');
  expect(await samples(page)).toEqual(tuned);

  // the imported config plays: 1.7 s (the time line's length) to the next settle
  await page.getByTestId('debug-replay').click();
  await expect(page.getByTestId('debug-time')).toHaveText(/ \/ 1\.70 s$/);
  await expect.poll(() => settledCount(page), { timeout: 15_000 }).toBe(2);
  await expect(page.getByTestId('debug-time')).toHaveText('1.70 s / 1.70 s');
});

test('a broken config is refused with the reason', async ({ page }) => {
  await english(page);
  await open(page, 'scene=bonus-wheel');
  const before = await config(page);
  await page.getByTestId('debug-import-text').fill("{ durationMs: 'slow', spinz: 2 }");
  await page.getByTestId('debug-import-apply').click();
  const status = page.getByTestId('debug-import-status');
  await expect(status).toContainText('Could not import the config');
  await expect(status).toContainText('durationMs: expected a number, got a string');
  await expect(status).toContainText('spinz: unknown field');
  expect(await config(page)).toEqual(before);
});

test('a curve edited during a play reaches the running scene without restarting it', async ({ page }) => {
  await english(page);
  await open(page, 'scene=battle-reel&autoplay=1');
  await page.getByTestId('debug-replay-on-change').uncheck();
  const time = page.getByTestId('debug-time');
  await expect.poll(async () => Number((await time.textContent())!.split(' ')[0])).toBeGreaterThan(0.2);

  // hold the play at 1.5 s
  await page.getByTestId('debug-scrub').fill('1500');
  await expect(time).toHaveText('1.50 s / 3.00 s');
  const canvas = page.getByTestId('debug-preview').locator('canvas');
  const frames = await page.evaluate(() => window.__scenes!.stats().then((s) => s.frames));
  const before = await canvas.screenshot();

  // another curve: at the same time the reel stands elsewhere, drawn by the same play
  const ease = page.getByTestId('debug-ease-text');
  await ease.fill('cubic-bezier(0.9, 0, 0.95, 0.2)');
  await ease.press('Enter');
  await expect.poll(async () => (await canvas.screenshot()).equals(before), { timeout: 10_000 }).toBe(false);
  expect(await page.evaluate(() => window.__scenes!.stats().then((s) => s.frames))).toBeGreaterThan(frames);
  await expect(time).toHaveText('1.50 s / 3.00 s');
  expect(await settledCount(page)).toBe(0);

  // resumed, the same play runs on to its end
  await page.getByTestId('debug-pause').click();
  await expect.poll(() => settledCount(page), { timeout: 15_000 }).toBe(1);
});

test('idle: the runtime draws nothing on either path once the scene is shown', async ({ page }) => {
  for (const path of ['worker', 'main']) {
    await open(page, `scene=chance-wheel&scenes=${path}`);
    expect(await page.evaluate(() => window.__scenes!.mode)).toBe(path);
    await expect
      .poll(() => page.evaluate(() => window.__scenes!.stats().then((s) => s.frames)))
      .toBeGreaterThan(0);
    const drawn = async () => {
      const before = await page.evaluate(() => window.__scenes!.stats());
      await page.waitForTimeout(1_000);
      const after = await page.evaluate(() => window.__scenes!.stats());
      return after.running ? -1 : after.frames - before.frames;
    };
    await expect.poll(drawn, { timeout: 10_000 }).toBe(0);
  }
});
