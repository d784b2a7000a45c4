import { creditInTransaction, credited } from './retention/ledger.ts';
import { sql, type Selectable, type Transaction } from 'kysely';
import type { User } from '../contract/auth.ts';
import type { Db } from './db/index.ts';
import type { Database, UsersTable } from './db/schema.ts';
import type { TelegramUser } from './auth/init-data.ts';
import { unauthorized } from './lib/errors.ts';
import { lockPlayer } from './db/locks.ts';
import { formatTon } from '../contract/money.ts';

export type UserRow = Selectable<UsersTable>;

export function toApiUser(row: UserRow): User {
  return {
    id: row.id.toString(),
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    photoUrl: row.photo_url,
    languageCode: row.language_code,
    balance: formatTon(row.balance_nano),
  };
}

/** Creates the user on first sign-in and refreshes their Telegram profile on every later one. */
export async function upsertUser(db: Db, tg: TelegramUser): Promise<UserRow> {
  const profile = {
    first_name: tg.firstName,
    last_name: tg.lastName,
    username: tg.username,
    photo_url: tg.photoUrl,
    language_code: tg.languageCode,
    is_premium: tg.isPremium,
  };
  // launch data's allows_write_to_pm turns bot messages on; its absence never turns off what /start allowed
  return db
    .insertInto('users')
    .values({ id: tg.id, ...profile, bot_can_write: tg.allowsWriteToPm })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        ...profile,
        bot_can_write: sql<boolean>`${eb.ref('users.bot_can_write')} OR ${eb.ref('excluded.bot_can_write')}`,
        updated_at: new Date(),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The signed-in user's row; a token for a user that no longer exists is treated as invalid. */
export async function getUser(db: Db, id: bigint): Promise<UserRow> {
  const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw unauthorized('USER_UNKNOWN', 'The signed-in user does not exist');
  return row;
}

/**
 * Credits a user once per external id, in one transaction with its ledger row.
 * Returns false when that external id was already credited (a replay changes nothing).
 */
export async function creditOnce(
  db: Db,
  userId: bigint,
  amountNano: bigint,
  kind: string,
  externalId: string,
  ref: string | null = null,
  /** more writes in the credit's transaction (the bot's notification of it) */
  alongside?: (trx: Transaction<Database>) => Promise<void>,
): Promise<boolean> {
  if (amountNano <= 0n) throw new RangeError('a credit must be positive');
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, userId); // the player first (server/db/locks.ts), then the ledger
    if (await credited(trx, externalId)) return false;
    await creditInTransaction(trx, userId, amountNano, kind, externalId, ref);
    await alongside?.(trx);
    return true;
  });
}
