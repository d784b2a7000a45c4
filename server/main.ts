import { loadConfig } from './config.ts';
import { buildApp, type BuiltApp } from './app.ts';
import { DatabaseLockedError } from './db/index.ts';
import { RedisUnavailableError } from './limits.ts';

const config = loadConfig();
let built: BuiltApp;
try {
  built = await buildApp(config);
} catch (err) {
  if (err instanceof DatabaseLockedError || err instanceof RedisUnavailableError) {
    // a second process on the embedded database, or Redis not answering: say so plainly, no stack trace
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const { app, ctx, close } = built;

if (ctx.demo) {
  app.log.warn(
    'DEMO MODE: no BOT_TOKEN is set. Sign-in uses a generated bot token and a demo user with a starting balance. ' +
      'Set BOT_TOKEN for production.',
  );
}
if (!config.publicUrl && !ctx.demo) {
  app.log.warn(
    `PUBLIC_URL is not set: the TON Connect manifest names http://localhost:${config.port}. Set PUBLIC_URL.`,
  );
}

await app.listen({ port: config.port, host: config.host });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`Giftcases is up on http://localhost:${port} (database: ${ctx.database.kind})`);

// Graceful shutdown: stop accepting connections (new requests on open ones get 503), let the requests in
// flight finish (a money request commits or rolls back whole either way; this lets it answer), close the
// sockets, then the database. Past SHUTDOWN_TIMEOUT_MS the remaining connections are cut and the process
// stops anyway; a second signal stops it at once.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) {
      app.log.warn(`${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    app.log.info(`${signal}: finishing the requests in flight, then stopping`);
    const deadline = setTimeout(() => {
      app.log.error(`requests still running after ${config.shutdownTimeoutMs} ms: cutting them off`);
      app.server.closeAllConnections();
      setTimeout(() => process.exit(1), 1000).unref();
    }, config.shutdownTimeoutMs);
    deadline.unref();
    close().then(
      () => {
        clearTimeout(deadline);
        app.log.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        app.log.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  });
}
