import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';

// A spin's ticks are played by the tick player on the audio thread (src/lib/tick-player.worklet.ts): the
// page's main thread posts their times once as the spin starts, instead of building the spin's whole track.

/** The built worklet's address on the server. */
function workletPath(): string {
  const file = readdirSync('dist/static').find((name) => /^tick-player\.worklet-[\w-]+\.js$/.test(name));
  if (!file) throw new Error('no built tick player: run vite build first');
  return `/static/${file}`;
}

test('the built tick player sounds the tick at each posted time, and not a stopped play’s', async ({
  page,
}) => {
  await page.goto('/');
  const rendered = await page.evaluate(async (url) => {
    const rate = 8000;
    const context = new OfflineAudioContext(1, rate, rate);
    await context.audioWorklet.addModule(url);
    const node = new AudioWorkletNode(context, 'tick-player', {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [1],
    });
    node.connect(context.destination);
    // a 10 ms tick of 0.5
    node.port.postMessage({ type: 'sound', samples: new Float32Array(80).fill(0.5) });
    node.port.postMessage({ type: 'play', id: 1, starts: [0.1, 0.25, 0.5] });
    node.port.postMessage({ type: 'play', id: 2, starts: [0.7] });
    node.port.postMessage({ type: 'stop', id: 2 });
    // the messages reach the audio thread before it renders (they are queued there in order)
    await new Promise((resolve) => setTimeout(resolve, 200));
    const buffer = await context.startRendering();
    const samples = buffer.getChannelData(0);
    // the runs of sound: [first frame, length]
    const runs: [number, number][] = [];
    for (let i = 0; i < samples.length; i++) {
      if (samples[i] === 0) continue;
      const last = runs.at(-1);
      if (last && last[0] + last[1] === i) last[1] += 1;
      else runs.push([i, 1]);
    }
    return { runs, peak: Math.max(...samples) };
  }, workletPath());
  expect(rendered.runs).toEqual([
    [800, 80],
    [2000, 80],
    [4000, 80],
  ]);
  expect(rendered.peak).toBeCloseTo(0.5);
});

test('a roulette spin on the case page plays its ticks through the tick player', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  const cdp = await page.context().newCDPSession(page);
  const created: string[] = [];
  cdp.on('WebAudio.audioNodeCreated', (event: { node: { nodeType: string } }) =>
    created.push(event.node.nodeType),
  );
  await cdp.send('WebAudio.enable');
  await page.goto('/case/starter');
  await page.getByTestId('open-button').click();
  await expect(page.getByTestId('roulette').locator('canvas')).toBeVisible();
  // while the reel still spins: the player is there, and no source node carries a track of the spin
  await expect.poll(() => created.includes('AudioWorklet'), { timeout: 8_000 }).toBe(true);
  const sofar = [...created];
  await expect(page.getByTestId('win-screen')).toHaveCount(0);
  expect(sofar).not.toContain('AudioBufferSource');
});

/** Howler's global (howler.js sets window.Howler), for what the page's own idle countdown does to it. */
interface HowlerGlobal {
  ctx: AudioContext;
  state: string;
  autoSuspend: boolean;
}

test('a spin after howler has let the audio context sleep wakes it, and keeps it awake until its ticks are over', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
  await page.goto('/case/starter');
  await page.getByTestId('open-button').click();
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('keep-button').click();
  await expect(page.getByTestId('win-screen')).toHaveCount(0);
  // what howler does 30 s after its last sound: the context is suspended
  await page.evaluate(async () => {
    const howler = (window as unknown as { Howler: HowlerGlobal }).Howler;
    howler.state = 'suspending';
    await howler.ctx.suspend();
    howler.state = 'suspended';
  });

  await page.getByTestId('open-button').click();
  // while the reel turns: the context runs (its clock moves), and howler may not suspend it under the ticks
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const howler = (window as unknown as { Howler: HowlerGlobal }).Howler;
          return `${howler.ctx.state} ${howler.autoSuspend}`;
        }),
      { timeout: 5_000 },
    )
    .toBe('running false');
  const clock = await page.evaluate(async () => {
    const { ctx } = (window as unknown as { Howler: HowlerGlobal }).Howler;
    const before = ctx.currentTime;
    await new Promise((resolve) => setTimeout(resolve, 300));
    return ctx.currentTime - before;
  });
  expect(clock).toBeGreaterThan(0.1);
  await expect(page.getByTestId('win-screen')).toHaveCount(0);

  // once the ticks are over, howler's countdown is back
  await expect(page.getByTestId('win-screen')).toBeVisible({ timeout: 15_000 });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { Howler: HowlerGlobal }).Howler.autoSuspend), {
      timeout: 5_000,
    })
    .toBe(true);
});
