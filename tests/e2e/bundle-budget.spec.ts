import { expect, test } from '@playwright/test';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The first screen is light (DESIGN rule 9): the JavaScript the entry loads statically stays under a
// budget counted as served (brotli), and none of it is PixiJS or TON Connect (they load lazily, through dynamic imports).

const DIST = join(process.cwd(), 'dist');
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const ENTRY = 'index.html';
const BUDGET_BYTES = 150 * 1024;
/** The texts of the default language load as their own chunk before the first render: they count too. */
const FIRST_SCREEN_LAZY = ['src/i18n/ru.json'];

/** Text found in PixiJS or TON Connect bundles, surviving minification. */
const FORBIDDEN: { library: string; marker: RegExp }[] = [
  { library: 'PixiJS', marker: /PixiJS/ },
  { library: 'PixiJS', marker: /__PIXI_/ },
  { library: 'PixiJS', marker: /@pixi\// },
  { library: 'TON Connect', marker: /TonConnectUI/ },
  { library: 'TON Connect', marker: /TonConnectError/ },
  { library: 'TON Connect', marker: /tc-widget-root/ },
  { library: 'TON Connect', marker: /@tonconnect\// },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

function readManifest(): Record<string, ManifestChunk> {
  if (!existsSync(MANIFEST)) {
    throw new Error(`${MANIFEST} is missing: build the client first (npx vite build)`);
  }
  return JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;
}

/**
 * Files of the entry and everything it imports statically (not dynamicImports), plus the chunks the
 * first render waits for (the default language's texts) with their own static imports.
 */
function firstScreenGraph(manifest: Record<string, ManifestChunk>): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk "${key}"`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(ENTRY);
  for (const key of FIRST_SCREEN_LAZY) visit(key);
  return files;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

test("the first screen JavaScript stays under 150 KB as served (the build's brotli files)", () => {
  const files = firstScreenGraph(readManifest());
  // the server sends the build's pre-compressed .br file to browsers that accept brotli (all of ours):
  // count those bytes, as they go over the wire
  const sizes = files.map((file) => {
    // files too small to be worth compressing have no .br copy and are sent as they are
    const br = join(DIST, `${file}.br`);
    return { file, bytes: statSync(existsSync(br) ? br : join(DIST, file)).size };
  });
  const total = sizes.reduce((sum, s) => sum + s.bytes, 0);
  const table = sizes
    .sort((a, b) => b.bytes - a.bytes)
    .map((s) => `  ${s.file}: ${kb(s.bytes)}`)
    .join('\n');
  console.log(`first-screen JavaScript, brotli as served: ${kb(total)} of ${kb(BUDGET_BYTES)}\n${table}`);

  expect(files.length).toBeGreaterThan(0);
  expect(
    total,
    `static JS of ${ENTRY} is ${kb(total)} as served (budget ${kb(BUDGET_BYTES)}):\n${table}`,
  ).toBeLessThanOrEqual(BUDGET_BYTES);
});

test('no PixiJS or TON Connect code in the first screen', () => {
  const found: string[] = [];
  for (const file of firstScreenGraph(readManifest())) {
    const text = readFileSync(join(DIST, file), 'utf8');
    for (const { library, marker } of FORBIDDEN) {
      if (marker.test(text)) found.push(`${file}: ${library} (${marker})`);
    }
  }
  expect(found, `statically loaded chunks carry lazy-only libraries:\n${found.join('\n')}`).toEqual([]);
});
