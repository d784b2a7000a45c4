import type { Db } from '../server/db/index.ts';
import { BOT_TOKEN } from '../tests/api/harness.ts';

/**
 * Makes `count` players with ids from `firstId`, each funded with `grantNano` through a ledger row (as a
 * deposit would be), a thousand per transaction, before the benchmark's server starts. `label` names them
 * (first name, ledger external id) so two benchmarks' players never collide.
 */
export async function seedFundedPlayers(
  db: Db,
  options: { firstId: number; count: number; grantNano: bigint; label: string },
): Promise<void> {
  const { firstId, count, grantNano, label } = options;
  for (let start = 0; start < count; start += 1000) {
    const ids = Array.from({ length: Math.min(1000, count - start) }, (_, i) => BigInt(firstId + start + i));
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values(ids.map((id) => ({ id, first_name: `${label} ${id}`, balance_nano: grantNano })))
        .execute();
      await trx
        .insertInto('ledger')
        .values(
          ids.map((id) => ({
            user_id: id,
            delta_nano: grantNano,
            balance_after_nano: grantNano,
            kind: 'bench_grant',
            ref: null,
            external_id: `${label.toLowerCase()}:${id}`,
          })),
        )
        .execute();
    });
  }
}

/**
 * The environment of a bench's server process (server/main.ts, as in production): quiet logs, no Telegram
 * to reach, the bench's own secrets and the given rate limits; `database` (DATABASE_URL or DATA_DIR) and
 * `extra` on top.
 */
export function benchServerEnv(options: {
  port: number;
  jwtSecret: string;
  adminKey: string;
  rateLimits: Record<string, string>;
  database: Record<string, string>;
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...options.database,
    ...options.rateLimits,
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BOT_TOKEN,
    TELEGRAM_BOT: 'off', // no Telegram to reach from the bench
    JWT_SECRET: options.jwtSecret,
    ADMIN_KEY: options.adminKey,
    ...options.extra,
  };
}
