import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { startServer } from './harness.ts';

/** A local port nothing listens on: every call to it is refused, as when Telegram cannot be reached. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 9;
}

it('serves while Telegram cannot be reached, and stops at once', async () => {
  const port = await closedPort();
  // grammY retries refused connections with a growing back-off: the bot's start once held the whole server
  // (it never listened) and its stop waited for those retries
  const server = await startServer({
    env: { TELEGRAM_BOT: 'on', TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`, TELEGRAM_TIMEOUT_SECONDS: '2' },
  });
  const catalogue = await server.call('GET', '/cases');
  expect(catalogue.status).toBe(200);
  // the test's own timeout is the bound: a start or a stop that waited for the retries would outlast it
  await server.close();
}, 90_000);
