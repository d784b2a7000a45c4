import { expect, test, type Page, type Response } from '@playwright/test';
import { blockExternalRequests, injectTestWallet, pickInjectedWallet } from './wallet-fixture';

// The first screen as a new player gets it: compressed, with nothing it does not need. TON Connect (its
// runtime, manifest, wallet list, logos) and PixiJS load only when asked for.

/** Text found in PixiJS or TON Connect bundles, surviving minification. */
const MARKERS: { library: string; marker: RegExp }[] = [
  { library: 'PixiJS', marker: /PixiJS|__PIXI_|@pixi\// },
  { library: 'TON Connect', marker: /TonConnectUI|TonConnectError|tc-widget-root|@tonconnect\// },
];

interface Fetched {
  url: string;
  status: number;
  encoding: string | undefined;
  type: string;
  libraries: string[];
}

/** Records every request the page makes (external ones included, though blocked) and what came back. */
function record(page: Page) {
  const requested: string[] = [];
  const fetched: Fetched[] = [];
  const pending: Promise<void>[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const onResponse = async (response: Response) => {
    const url = response.url();
    const type = response.request().resourceType();
    let libraries: string[] = [];
    if (type === 'script') {
      const text = (await response.body().catch(() => Buffer.alloc(0))).toString('utf8');
      libraries = MARKERS.filter((m) => m.marker.test(text)).map((m) => m.library);
    }
    fetched.push({
      url,
      status: response.status(),
      encoding: response.headers()['content-encoding'],
      type,
      libraries,
    });
  };
  page.on('response', (response) => {
    pending.push(onResponse(response));
  });
  return { requested, fetched, settled: () => Promise.all(pending) };
}

async function firstPictureShown(page: Page): Promise<void> {
  await expect(page.getByTestId('case-card').first()).toBeVisible();
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('[data-testid="case-card"] img');
    return !!img && img.complete && img.naturalWidth > 0;
  });
}

test.beforeEach(async ({ page }) => {
  await blockExternalRequests(page);
  await page.addInitScript(() => localStorage.setItem('lang', 'en'));
});

test('home fetches no TON Connect, PixiJS or wallet list, and every asset arrives compressed', async ({
  page,
}) => {
  const log = record(page);
  await page.goto('/');
  await firstPictureShown(page);
  // past the idle moment when lazily loaded parts used to start
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(2500);
  await log.settled();

  const origin = new URL(page.url()).origin;
  expect(log.requested.filter((url) => !url.startsWith(origin))).toEqual([]);
  expect(log.requested.filter((url) => /tonconnect-manifest|wallets|\/static\/runtime-/.test(url))).toEqual(
    [],
  );
  expect(
    log.fetched.filter((f) => f.libraries.length > 0).map((f) => `${f.url}: ${f.libraries.join(', ')}`),
  ).toEqual([]);

  // the page, its scripts and styles: brotli (Chromium accepts it); the case pictures are AVIF/WebP
  const text = log.fetched.filter(
    (f) => ['document', 'script', 'stylesheet'].includes(f.type) && f.status === 200,
  );
  expect(text.length).toBeGreaterThan(3);
  for (const f of text) {
    const plain = await (
      await page.request.get(f.url, { headers: { 'accept-encoding': 'identity' } })
    ).body();
    // the build leaves files under 512 bytes as they are: too small to be worth a coding
    if (plain.length >= 512) expect(f.encoding, f.url).toMatch(/^(br|gzip)$/);
  }
  const pictures = log.fetched.filter((f) => f.type === 'image' && f.url.includes('/static/art/'));
  expect(pictures.length).toBeGreaterThan(0);
  expect(pictures.every((f) => /\.(avif|webp)$/.test(f.url))).toBe(true);
  const api = log.fetched.find((f) => new URL(f.url).pathname === '/api/cases');
  expect(api?.encoding).toBe('br');
});

test('the wallet button loads TON Connect on the tap, and connecting works', async ({ page }) => {
  await injectTestWallet(page);
  const log = record(page);
  await page.goto('/');
  await firstPictureShown(page);
  await page.waitForTimeout(2000);
  await log.settled();
  expect(log.fetched.some((f) => f.libraries.includes('TON Connect'))).toBe(false);

  await page.getByTestId('wallet-button').and(page.locator('[data-state="disconnected"]')).click();
  await pickInjectedWallet(page);
  await expect(page.getByTestId('wallet-button')).toHaveAttribute('data-state', 'connected');
  await log.settled();
  const tonConnect = log.fetched.filter((f) => f.libraries.includes('TON Connect'));
  expect(tonConnect.length).toBeGreaterThan(0);
  expect(tonConnect.every((f) => f.encoding === 'br')).toBe(true);

  // the next start restores the connection by itself (a stored connection loads TON Connect after the
  // first screen), without a tap
  await page.reload();
  await expect(page.getByTestId('wallet-button')).toHaveAttribute('data-state', 'connected');
});
