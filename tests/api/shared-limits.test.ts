import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { RedisUnavailableError } from '../../server/limits.ts';
import { BOT_TOKEN, createTestDatabase, signLaunchData, startServer, type TestServer } from './harness.ts';

// Rate limits across instances: with REDIS_URL two instances count into one Redis, so a client gets one
// allowance however its requests are spread; without it each instance counts its own.

const redisUrl = process.env.TEST_REDIS_URL || null;
if (!redisUrl)
  console.log('shared rate limits: TEST_REDIS_URL is not set, so the tests with Redis are skipped');

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Signs a fresh player in on one instance; the answer's status. */
async function signIn(server: TestServer): Promise<number> {
  const res = await server.call('POST', '/auth/login', { body: { initData: signLaunchData() } });
  return res.status;
}

async function twoInstances(env: NodeJS.ProcessEnv): Promise<[TestServer, TestServer]> {
  const shared = await createTestDatabase();
  const a = await startServer({ database: shared.database, env });
  const b = await startServer({ database: shared.database, env });
  servers.push(a, b, { close: () => shared.drop() } as TestServer);
  return [a, b];
}

describe.skipIf(!redisUrl)('rate limits counted in Redis', () => {
  const redis = redisUrl ? new Redis(redisUrl) : null;
  afterAll(async () => {
    await redis?.quit();
  });

  it('gives two instances one allowance: 3 sign-ins on one and 3 on the other, the 6th is refused', async () => {
    // a prefix of its own: the counts of other runs (and other deployments on this Redis) stay apart
    const prefix = `giftcases-test:${randomBytes(6).toString('hex')}:`;
    const [a, b] = await twoInstances({
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: prefix,
      RATE_LIMIT_SIGNIN_PER_ADDRESS: '5',
      RATE_LIMIT_API_PER_ADDRESS: '1000',
    });
    try {
      const statuses = [];
      for (const server of [a, a, a, b, b]) statuses.push(await signIn(server));
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const sixth = await b.call<{ code: string; retryAfter: number }>('POST', '/auth/login', {
        body: { initData: signLaunchData() },
      });
      expect(sixth.status).toBe(429);
      expect(sixth.body.code).toBe('RATE_LIMITED');
      expect(sixth.body.retryAfter).toBeGreaterThanOrEqual(1);
      expect(await signIn(a)).toBe(429); // and the first instance says the same

      // the counts are in Redis under the prefix, each limit under its own key: 7 requests each
      const keys = await redis!.keys(`${prefix}*`);
      expect(keys).toHaveLength(2);
      const signInKey = keys.find((k) => k.endsWith('signin:127.0.0.1'));
      const apiKey = keys.find((k) => k.endsWith('api:127.0.0.1'));
      expect(signInKey && apiKey).toBeTruthy();
      expect(Number(await redis!.get(signInKey!))).toBe(7);
      expect(Number(await redis!.get(apiKey!))).toBe(7);
    } finally {
      const keys = await redis!.keys(`${prefix}*`);
      if (keys.length > 0) await redis!.del(...keys);
    }
  }, 120_000);
});

describe('rate limits without Redis', () => {
  it('counts on each instance: two instances give a client two allowances', async () => {
    const [a, b] = await twoInstances({ RATE_LIMIT_SIGNIN_PER_ADDRESS: '2' });
    expect([await signIn(a), await signIn(a), await signIn(a)]).toEqual([200, 200, 429]);
    expect([await signIn(b), await signIn(b), await signIn(b)]).toEqual([200, 200, 429]);
  }, 120_000);

  it('refuses to start when REDIS_URL names a Redis that does not answer, saying which setting', async () => {
    // a port with nothing behind it: taken and released at once
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const { database, drop } = await createTestDatabase();
    try {
      const config = loadConfig(
        {
          BOT_TOKEN,
          LOG_LEVEL: 'silent',
          TELEGRAM_BOT: 'off',
          REDIS_URL: `redis://:secret@127.0.0.1:${port}`,
        },
        { port: 0, clientDir: '/nonexistent' },
      );
      const started = buildApp(config, { database, logger: false });
      await expect(started).rejects.toBeInstanceOf(RedisUnavailableError);
      await expect(started).rejects.toThrow(
        /^REDIS_URL: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ did not answer/,
      );
    } finally {
      await drop();
    }
  }, 120_000);
});
