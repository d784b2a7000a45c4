import { sql, type Selectable } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { OwnedGiftUnique } from 'grammy/types';
import type { Db } from '../db/index.ts';
import type { WithdrawalAttemptsTable } from '../db/schema.ts';
import { lockPlayer } from '../db/locks.ts';
import { giveToInventory } from '../inventory/inventory.ts';
import { classifyFailure, type TelegramCalls } from './api.ts';
import { enqueueNotification } from './outbox.ts';
import { starTransactionsSince } from './star-transactions.ts';
import type { WithdrawalFailure } from '../../contract/inventory.ts';

/**
 * The withdrawal delivery worker: pending → sending → completed (delivered), or failed with a reason and
 * the undelivered items back in the inventory, in the transaction of the status change.
 *
 * Exactly once: every call is recorded as an attempt (outcome 'started') and committed before it is made.
 * An attempt still 'started' when the worker comes back to it (the answer never came: a timeout, a 5xx, the
 * process stopped mid-call) is reconciled before anything is sent again:
 *   - a unique gift (transferGift): is the owned gift still in the business account? gone = delivered;
 *   - a regular gift (sendGift): is there a gift purchase for this player and gift in the bot's Star
 *     transactions since the attempt began, not already matched to another attempt? = delivered.
 * A withdrawal of n units sends n gifts, one attempt per unit; a permanent refusal returns the units not yet
 * delivered. A 429 the client did not wait out parks the withdrawal until its retry_after.
 */

type Attempt = Selectable<WithdrawalAttemptsTable>;

/** Withdrawals one pass handles at most. */
const BATCH = 10;
/** After an unknown outcome (timeout, 5xx), the worker waits this long before reconciling. */
const UNKNOWN_BACKOFF_SECONDS = 5;
/** How far back (seconds) before an attempt began its Star transaction may be dated (clock differences). */
const CLOCK_SLACK_SECONDS = 120;

export interface DeliveryOptions {
  businessConnectionId: string | null;
  /** Stars and stock checks after a delivery failed for want of them */
  onShortage?: (what: 'stars' | 'stock', detail: string) => void;
  /** A withdrawal changed (committed): sending, a unit delivered, completed or failed */
  onChange?: (change: { userId: bigint; id: bigint; status: 'sending' | 'completed' | 'failed' }) => void;
}

interface OpenWithdrawal {
  id: bigint;
  user_id: bigint;
  item_id: string;
  quantity: number;
  status: 'pending' | 'sending' | 'completed' | 'failed';
  delivered_units: number;
  tg_gift_id: string | null;
  tg_collection: string | null;
  name: string;
  name_ru: string;
}

export class DeliveryWorker {
  constructor(
    private readonly db: Db,
    private readonly calls: TelegramCalls,
    private readonly options: DeliveryOptions,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** One pass over the due withdrawals; returns how many it looked at. */
  async tick(signal?: AbortSignal): Promise<number> {
    const due = await this.db
      .selectFrom('withdrawals')
      .select('id')
      .where('status', 'in', ['pending', 'sending'])
      .where('next_attempt_at', '<=', sql<Date>`now()`)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const { id } of due) {
      if (signal?.aborted) break;
      try {
        await this.deliver(id, signal);
      } catch (err) {
        if (signal?.aborted) break;
        this.log?.error(
          { err, withdrawal: id.toString() },
          'gift delivery: a withdrawal could not be handled',
        );
        await this.park(id, UNKNOWN_BACKOFF_SECONDS);
      }
    }
    return due.length;
  }

  private async load(id: bigint): Promise<OpenWithdrawal | undefined> {
    return this.db
      .selectFrom('withdrawals as w')
      .innerJoin('items as i', 'i.id', 'w.item_id')
      .leftJoin('item_gifts as g', 'g.item_id', 'w.item_id')
      .select([
        'w.id',
        'w.user_id',
        'w.item_id',
        'w.quantity',
        'w.status',
        'w.delivered_units',
        'g.gift_id as tg_gift_id',
        'g.collection as tg_collection',
        'i.name',
        'i.name_ru',
      ])
      .where('w.id', '=', id)
      .executeTakeFirst();
  }

  private async deliver(id: bigint, signal?: AbortSignal): Promise<void> {
    for (;;) {
      const w = await this.load(id);
      if (!w || (w.status !== 'pending' && w.status !== 'sending')) return;

      // an attempt whose answer never came: find out what happened before anything else
      const open = await this.db
        .selectFrom('withdrawal_attempts')
        .selectAll()
        .where('withdrawal_id', '=', id)
        .where('outcome', '=', 'started')
        .orderBy('id')
        .execute();
      for (const attempt of open) {
        const delivered = await this.reconcile(w, attempt, signal);
        await this.recordOutcome(w, attempt.id, delivered ? 'delivered' : 'not_delivered', 'reconciled');
      }
      if (open.length > 0) continue;

      if (w.delivered_units >= w.quantity) {
        await this.complete(w);
        return;
      }
      if (!w.tg_gift_id && !w.tg_collection) {
        await this.fail(w, 'NOT_WITHDRAWABLE', 'the item has no Telegram gift');
        return;
      }
      if (w.status === 'pending') {
        const started = await this.db
          .updateTable('withdrawals')
          .set({ status: 'sending', sending_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning('id')
          .executeTakeFirst();
        if (started) this.changed(w, 'sending');
      }

      // the next unit: record the attempt, then call
      let attemptId: bigint;
      let call: (signal?: AbortSignal) => Promise<true>;
      if (w.tg_gift_id) {
        const giftId = w.tg_gift_id;
        attemptId = await this.startAttempt(id, w.delivered_units, 'sendGift', giftId, null);
        call = (s) => this.calls.sendGift(Number(w.user_id), giftId, {}, s);
      } else {
        const connection = this.options.businessConnectionId;
        const gift = connection ? await this.pickOwnedGift(connection, w.tg_collection!, signal) : null;
        if (!connection || !gift?.owned_gift_id) {
          this.options.onShortage?.('stock', w.tg_collection!);
          await this.fail(w, 'OUT_OF_STOCK', `no transferable gift of ${w.tg_collection}`);
          return;
        }
        const ownedId = gift.owned_gift_id;
        try {
          attemptId = await this.startAttempt(id, w.delivered_units, 'transferGift', null, ownedId);
        } catch (err) {
          // another attempt took this very gift meanwhile (unique index): look again
          if ((err as { code?: string }).code === '23505') continue;
          throw err;
        }
        call = (s) =>
          this.calls.transferGift(connection, ownedId, Number(w.user_id), gift.transfer_star_count ?? 0, s);
      }

      try {
        await call(signal);
      } catch (err) {
        const failure = classifyFailure(err);
        if (failure.kind === 'later') {
          await this.recordOutcome(
            w,
            attemptId,
            'not_delivered',
            `429: retry after ${failure.retryAfterSeconds} s`,
          );
          await this.park(id, failure.retryAfterSeconds);
          return;
        }
        if (failure.kind === 'refused') {
          await this.recordOutcome(w, attemptId, 'refused', failure.description);
          if (failure.reason === 'NOT_ENOUGH_STARS') this.options.onShortage?.('stars', failure.description);
          if (failure.blocked) {
            await this.db
              .updateTable('users')
              .set({ bot_blocked_at: sql<Date>`now()` })
              .where('id', '=', w.user_id)
              .execute();
          }
          await this.fail(w, failure.reason, failure.description);
          return;
        }
        // unknown: the attempt stays 'started' and is reconciled on the next pass (or after a restart)
        if (!signal?.aborted) {
          this.log?.warn(
            { withdrawal: id.toString(), err: failure.description },
            'gift delivery: no answer, will reconcile',
          );
          await this.park(id, UNKNOWN_BACKOFF_SECONDS);
        }
        return;
      }
      await this.recordOutcome(w, attemptId, 'delivered', null);
    }
  }

  private async startAttempt(
    withdrawalId: bigint,
    unit: number,
    method: 'sendGift' | 'transferGift',
    giftId: string | null,
    ownedGiftId: string | null,
  ): Promise<bigint> {
    const row = await this.db
      .insertInto('withdrawal_attempts')
      .values({ withdrawal_id: withdrawalId, unit, method, gift_id: giftId, owned_gift_id: ownedGiftId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** An attempt's outcome, and a delivered unit counted, in one transaction (the player's row first). */
  private async recordOutcome(
    w: OpenWithdrawal,
    attemptId: bigint,
    outcome: 'delivered' | 'not_delivered' | 'refused',
    detail: string | null,
  ): Promise<void> {
    const unit = await this.db.transaction().execute(async (trx) => {
      await lockPlayer(trx, w.user_id);
      const done = await trx
        .updateTable('withdrawal_attempts')
        .set({ outcome, detail, finished_at: sql<Date>`now()` })
        .where('id', '=', attemptId)
        .where('outcome', '=', 'started')
        .returning('id')
        .executeTakeFirst();
      if (done && outcome === 'delivered') {
        await trx
          .updateTable('withdrawals')
          .set((eb) => ({ delivered_units: eb('delivered_units', '+', 1), updated_at: sql<Date>`now()` }))
          .where('id', '=', w.id)
          .execute();
        return true;
      }
      return false;
    });
    if (unit) this.changed(w, 'sending');
  }

  private async complete(w: OpenWithdrawal): Promise<void> {
    const completed = await this.db.transaction().execute(async (trx) => {
      await lockPlayer(trx, w.user_id);
      const updated = await trx
        .updateTable('withdrawals')
        .set({ status: 'completed', resolved_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('id', '=', w.id)
        .where('status', 'in', ['pending', 'sending'])
        .returning('id')
        .executeTakeFirst();
      if (updated) {
        await enqueueNotification(
          trx,
          w.user_id,
          'withdrawal_delivered',
          { item: w.name, itemRu: w.name_ru || w.name },
          `withdrawal:${w.id}:delivered`,
        );
      }
      return updated !== undefined;
    });
    if (completed) this.changed(w, 'completed');
    this.log?.info({ withdrawal: w.id.toString(), item: w.item_id }, 'gift delivered');
  }

  /** Fails the withdrawal and returns what was not delivered, with the status, in one transaction. */
  private async fail(w: OpenWithdrawal, reason: WithdrawalFailure, detail: string): Promise<void> {
    const failed = await this.db.transaction().execute(async (trx) => {
      await lockPlayer(trx, w.user_id);
      const updated = await trx
        .updateTable('withdrawals')
        .set({
          status: 'failed',
          failure_reason: reason,
          note: detail.slice(0, 500),
          resolved_at: sql<Date>`now()`,
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', w.id)
        .where('status', 'in', ['pending', 'sending'])
        .returning(['quantity', 'delivered_units'])
        .executeTakeFirst();
      if (!updated) return false;
      const back = updated.quantity - updated.delivered_units;
      if (back > 0) await giveToInventory(trx, w.user_id, w.item_id, back);
      await enqueueNotification(
        trx,
        w.user_id,
        'withdrawal_failed',
        { item: w.name, itemRu: w.name_ru || w.name, reason },
        `withdrawal:${w.id}:failed`,
      );
      return true;
    });
    if (failed) this.changed(w, 'failed');
    this.log?.warn({ withdrawal: w.id.toString(), reason, detail }, 'gift delivery failed; items returned');
  }

  /** Tells the player's open app (after the commit): a withdrawal of theirs changed. */
  private changed(w: OpenWithdrawal, status: 'sending' | 'completed' | 'failed'): void {
    this.options.onChange?.({ userId: w.user_id, id: w.id, status });
  }

  private async park(id: bigint, seconds: number): Promise<void> {
    await this.db
      .updateTable('withdrawals')
      .set({ next_attempt_at: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .where('id', '=', id)
      .execute();
  }

  /** Did the attempt's call go through? See the class comment. */
  private async reconcile(w: OpenWithdrawal, attempt: Attempt, signal?: AbortSignal): Promise<boolean> {
    if (attempt.method === 'transferGift') {
      const connection = this.options.businessConnectionId;
      if (!connection || !attempt.owned_gift_id) return false;
      const owned = await ownedGifts(this.calls, connection, signal);
      return !owned.some((g) => g.owned_gift_id === attempt.owned_gift_id);
    }
    const since = Math.floor(attempt.started_at.getTime() / 1000) - CLOCK_SLACK_SECONDS;
    // this player's purchases of this gift since the attempt began, oldest first
    const candidates: string[] = [];
    for await (const tx of starTransactionsSince(this.calls, since, signal)) {
      const r = tx.receiver;
      if (
        r?.type === 'user' &&
        r.transaction_type === 'gift_purchase' &&
        BigInt(r.user.id) === w.user_id &&
        r.gift?.id === attempt.gift_id
      )
        candidates.push(tx.id);
    }
    if (candidates.length === 0) return false;
    const matched = new Set(
      (
        await this.db
          .selectFrom('withdrawal_attempts')
          .select('star_transaction_id')
          .where('star_transaction_id', 'in', candidates)
          .execute()
      ).map((r) => r.star_transaction_id),
    );
    const found = candidates.find((id) => !matched.has(id));
    if (found === undefined) return false;
    // claim the transaction for this attempt (unique), so another attempt cannot count it too
    await this.db
      .updateTable('withdrawal_attempts')
      .set({ star_transaction_id: found })
      .where('id', '=', attempt.id)
      .execute();
    return true;
  }

  private async pickOwnedGift(
    connection: string,
    collection: string,
    signal?: AbortSignal,
  ): Promise<OwnedGiftUnique | null> {
    const owned = await ownedGifts(this.calls, connection, signal);
    const taken = new Set(
      (
        await this.db
          .selectFrom('withdrawal_attempts')
          .select('owned_gift_id')
          .where('owned_gift_id', 'is not', null)
          .where('outcome', 'in', ['started', 'delivered'])
          .execute()
      ).map((r) => r.owned_gift_id),
    );
    // gifts received as deposits are ours to hand out once credited; gifts of unknown senders are not
    const held = new Set(
      (
        await this.db
          .selectFrom('gift_deposits')
          .select('owned_gift_id')
          .where('status', '!=', 'credited')
          .execute()
      ).map((r) => r.owned_gift_id),
    );
    return (
      owned.find(
        (g): g is OwnedGiftUnique =>
          g.type === 'unique' &&
          g.gift.base_name === collection &&
          g.can_be_transferred === true &&
          !!g.owned_gift_id &&
          !taken.has(g.owned_gift_id) &&
          !held.has(g.owned_gift_id),
      ) ?? null
    );
  }
}

/** Every gift the business account owns, page by page. */
export async function ownedGifts(calls: TelegramCalls, connection: string, signal?: AbortSignal) {
  const all = [];
  let offset: string | undefined;
  for (let page = 0; page < 100; page++) {
    const res = await calls.getBusinessAccountGifts(
      connection,
      { limit: 100, ...(offset ? { offset } : {}) },
      signal,
    );
    all.push(...res.gifts);
    if (!res.next_offset || res.gifts.length === 0) break;
    offset = res.next_offset;
  }
  return all;
}
