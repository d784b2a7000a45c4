// API tests against a real database: always on embedded PGlite, and again on Postgres when
// TEST_DATABASE_URL names one (each test creates and drops its own database there). TEST_REDIS_URL, when
// set, reaches both runs (the shared rate limit tests; the multi-instance tests need Postgres as well).
import { spawnSync } from 'node:child_process';

function run(env, label) {
  console.log(`\n== API tests on ${label}`);
  const r = spawnSync('npx', ['vitest', 'run', '--project', 'api'], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const redis = { TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? '', REDIS_URL: '' };
run({ TEST_DATABASE_URL: '', DATABASE_URL: '', ...redis }, 'PGlite (embedded)');
if (process.env.TEST_DATABASE_URL)
  run(
    { DATABASE_URL: '', ...redis },
    `Postgres (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`,
  );
else console.log('\n(TEST_DATABASE_URL is not set: the Postgres run of the API tests was skipped)');
if (!process.env.TEST_REDIS_URL)
  console.log('(TEST_REDIS_URL is not set: the shared rate limit tests were skipped)');
