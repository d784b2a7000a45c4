import { sql, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import { classifyFailure, type TelegramCalls } from './api.ts';
import { botLanguage, notificationText, type NotificationKind, type Notifications } from './texts.ts';

/**
 * The bot's outbox: a notification is a row written in the same transaction as the change it tells about
 * (a credit, a delivered or failed withdrawal, a battle won, a race prize), so it exists exactly when the
 * change does. One sender (under the job lease) carries the rows out:
 *
 * - only to players who allowed the bot to write (bot_can_write) and have not blocked it; others are skipped;
 * - paced by the throttler, a 429 retried after its retry_after (in the client, or later here);
 * - never twice: a row is marked 'sending' before the call; one found 'sending' after a crash is not sent
 *   again (a message cannot be looked up afterwards, and a duplicate is worse than a lost notice);
 * - a 403 "blocked by the user" marks the player blocked until they /start the bot again.
 */

type Trx = Transaction<Database>;

/** Rows one pass sends at most. */
const BATCH = 20;
/** A row that keeps failing with errors that mean "later" is given up after this many tries. */
const MAX_ATTEMPTS = 8;

/** Writes a notification in the caller's transaction. A dedupe key makes a second write of one event a no-op. */
export async function enqueueNotification<K extends NotificationKind>(
  trx: Trx | Db,
  userId: bigint,
  kind: K,
  params: Notifications[K],
  dedupeKey: string | null = null,
): Promise<void> {
  await trx
    .insertInto('bot_outbox')
    .values({ user_id: userId, kind, params: JSON.stringify(params), dedupe_key: dedupeKey })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
}

export class OutboxSender {
  constructor(
    private readonly db: Db,
    private readonly calls: TelegramCalls,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Rows left 'sending' by a process that stopped mid-call: their outcome is unknown, so not repeated. */
  async recoverInterrupted(): Promise<void> {
    const rows = await this.db
      .updateTable('bot_outbox')
      .set({ status: 'failed', last_error: 'interrupted while sending: not repeated' })
      .where('status', '=', 'sending')
      .returning('id')
      .execute();
    if (rows.length > 0)
      this.log?.warn({ count: rows.length }, 'bot outbox: interrupted messages not repeated');
  }

  /** One pass: sends what is due; returns how many rows it handled. */
  async tick(signal?: AbortSignal): Promise<number> {
    const due = await this.db
      .selectFrom('bot_outbox as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .select([
        'o.id',
        'o.user_id',
        'o.kind',
        'o.params',
        'o.attempts',
        'u.language_code',
        'u.bot_can_write',
        'u.bot_blocked_at',
      ])
      .where('o.status', '=', 'pending')
      .where('o.next_attempt_at', '<=', sql<Date>`now()`)
      .orderBy('o.id')
      .limit(BATCH)
      .execute();
    for (const row of due) {
      if (signal?.aborted) break;
      if (!row.bot_can_write || row.bot_blocked_at !== null) {
        await this.finish(
          row.id,
          'skipped',
          row.bot_can_write ? 'the player blocked the bot' : 'the player did not allow messages',
        );
        continue;
      }
      // claimed: 'sending' before the call (never twice)
      const claimed = await this.db
        .updateTable('bot_outbox')
        .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst();
      if (!claimed) continue;
      const text = notificationText(
        botLanguage(row.language_code),
        row.kind as NotificationKind,
        row.params as never,
      );
      try {
        // not aborted by a stop: a message under way is let finish (an interrupted one is never repeated)
        await this.calls.sendMessage(Number(row.user_id), text);
        await this.finish(row.id, 'sent', null);
      } catch (err) {
        const failure = classifyFailure(err);
        if (failure.kind === 'later' && row.attempts + 1 < MAX_ATTEMPTS) {
          await this.db
            .updateTable('bot_outbox')
            .set({
              status: 'pending',
              next_attempt_at: sql<Date>`now() + make_interval(secs => ${failure.retryAfterSeconds})`,
              last_error: `429: retry after ${failure.retryAfterSeconds} s`,
            })
            .where('id', '=', row.id)
            .execute();
        } else if (failure.kind === 'refused') {
          if (failure.blocked) {
            await this.db
              .updateTable('users')
              .set({ bot_blocked_at: sql<Date>`now()` })
              .where('id', '=', row.user_id)
              .execute();
          }
          await this.finish(row.id, 'skipped', failure.description);
        } else {
          await this.finish(
            row.id,
            'failed',
            failure.kind === 'later' ? 'too many 429s' : failure.description,
          );
          this.log?.warn({ id: row.id.toString(), err }, 'bot outbox: message not sent');
        }
      }
    }
    return due.length;
  }

  private async finish(
    id: bigint,
    status: 'sent' | 'skipped' | 'failed',
    error: string | null,
  ): Promise<void> {
    await this.db
      .updateTable('bot_outbox')
      .set({ status, last_error: error, sent_at: status === 'sent' ? sql<Date>`now()` : null })
      .where('id', '=', id)
      .execute();
  }
}
