// First-screen JavaScript against everything the build ships: the case list must stay light (DESIGN rule 9).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { report } from './report.ts';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

if (!existsSync('dist/.vite/manifest.json')) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(1);
}
const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<
  string,
  ManifestChunk
>;
const gz = (file: string) => gzipSync(readFileSync(join('dist', file))).length;

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry)!;
const firstScreen = new Set<string>();
const walk = (key: string) => {
  if (firstScreen.has(key)) return;
  firstScreen.add(key);
  for (const i of manifest[key]?.imports ?? []) walk(i);
};
walk(entryKey);
// the default language's texts load as a chunk of their own before the first render: they count too
if (manifest['src/i18n/ru.json']) walk('src/i18n/ru.json');

const js = Object.entries(manifest).filter(([, c]) => c.file.endsWith('.js'));
const firstFiles = [...firstScreen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
const firstGzip = firstFiles.reduce((s, f) => s + gz(f), 0);
const totalGzip = js.reduce((s, [, c]) => s + gz(c.file), 0);
const totalRaw = js.reduce((s, [, c]) => s + statSync(join('dist', c.file)).size, 0);

report('bundle', {
  firstScreenJsGzipKB: +(firstGzip / 1024).toFixed(1),
  budgetKB: 150,
  withinBudget: firstGzip <= 150 * 1024,
  allJsGzipKB: +(totalGzip / 1024).toFixed(1),
  allJsRawKB: +(totalRaw / 1024).toFixed(1),
  firstScreenShareOfAll: +(firstGzip / totalGzip).toFixed(3),
  firstScreenChunks: firstFiles.map((f) => ({ file: f, gzipKB: +(gz(f) / 1024).toFixed(1) })),
  lazyChunks: js.length - firstFiles.length,
});
