import { sign } from '@telegram-apps/init-data-node';
import type { AppContext } from './context.ts';
import { creditOnce, upsertUser } from './users.ts';

/** The demo player a newcomer is signed in as when the server runs without a bot token. */
const DEMO_USER = {
  id: 100000001n,
  firstName: 'Demo',
  lastName: 'Player',
  username: 'demo_player',
  photoUrl: null,
  languageCode: 'ru',
  isPremium: false,
  allowsWriteToPm: true,
} as const;

/** Creates the demo user and grants the starting balance once (a unique ledger id makes it happen once). */
export async function seedDemoUser(ctx: AppContext): Promise<void> {
  await upsertUser(ctx.db, DEMO_USER);
  const amount = ctx.config.demoBalanceNano;
  if (amount > 0n) {
    await creditOnce(ctx.db, DEMO_USER.id, amount, 'demo_grant', `demo-grant:${DEMO_USER.id}`);
  }
}

/** Launch data for the demo user, signed now with the demo bot token, as Telegram would hand it over. */
export function demoLaunchData(botToken: string, now = new Date()): string {
  return sign(
    {
      user: {
        id: Number(DEMO_USER.id),
        first_name: DEMO_USER.firstName,
        last_name: DEMO_USER.lastName,
        username: DEMO_USER.username,
        language_code: DEMO_USER.languageCode,
        allows_write_to_pm: true,
      },
      chat_instance: '-1000000000000000000',
      chat_type: 'sender',
    } as Parameters<typeof sign>[0],
    botToken,
    now,
  );
}
