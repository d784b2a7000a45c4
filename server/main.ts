import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const { app, ctx, close } = await buildApp(config);

if (ctx.demo) {
  app.log.warn(
    'DEMO MODE: no BOT_TOKEN is set. Sign-in uses a generated bot token and a demo user with a starting balance. ' +
      'Set BOT_TOKEN for production.',
  );
}

await app.listen({ port: config.port, host: config.host });
app.log.info(`Giftcases is up on http://localhost:${config.port} (database: ${ctx.database.kind})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: closing`);
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  });
}
