// npm run bench: runs every benchmark in bench/ (or the ones named: npm run bench -- server bundle),
// prints their figures and writes them as JSON to bench/results/<name>.json. Options (--quick) are passed
// on to each benchmark.
import { spawnSync } from 'node:child_process';
import { readdirSync, mkdirSync } from 'node:fs';

const all = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const options = process.argv.slice(2).filter((a) => a.startsWith('--'));
const names = wanted.length ? all.filter((n) => wanted.includes(n)) : all;
mkdirSync('bench/results', { recursive: true });
let failed = 0;
for (const name of names) {
  console.log(`\n== bench ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${name}.bench.ts`, ...options], {
    stdio: 'inherit',
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
