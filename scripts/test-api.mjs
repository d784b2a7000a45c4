// API tests against a real database: always on embedded PGlite, and again on Postgres when
// TEST_DATABASE_URL names one (each test creates and drops its own database there).
import { spawnSync } from 'node:child_process';

function run(env, label) {
  console.log(`\n== API tests on ${label}`);
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'api'], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run({ TEST_DATABASE_URL: '', DATABASE_URL: '' }, 'PGlite (embedded)');
if (process.env.TEST_DATABASE_URL)
  run({ DATABASE_URL: '' }, `Postgres (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`);
else console.log('\n(TEST_DATABASE_URL is not set: the Postgres run of the API tests was skipped)');
