import { createHash } from 'node:crypto';
import { Address } from '@ton/core';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { isSafeText } from '../../contract/common.ts';
import { firstCommentIssuedAt, userByComment } from './comments.ts';
import { creditDeposit } from './credit.ts';
import { parseCommentPayload } from './ton-comment.ts';
import {
  fetchTransactions,
  ToncenterError,
  type ToncenterMessage,
  type ToncenterOptions,
  type ToncenterTransaction,
  type TransactionsQuery,
} from './toncenter.ts';

/** A transfer into the receiving wallet that can be credited, once matched to a player by its comment. */
interface IncomingTransfer {
  /** lower-case hex of the transaction hash: the credit's external id is ton:<hashHex> */
  hashHex: string;
  lt: bigint;
  comment: string;
  amountNano: bigint;
  /** sender, raw form */
  source: string;
}

export type Classified = { transfer: IncomingTransfer } | { skip: string };

/**
 * The largest single transfer credited: 100 million TON, some 2% of all TON there is. A larger value is
 * absurd (or an attempt to overflow a balance) and is skipped and recorded for an operator instead.
 */
const MAX_TRANSFER_NANO = 100_000_000n * 1_000_000_000n;

/** The longest comment that can name a player (ours are 13 characters); longer ones are not ours. */
const MAX_COMMENT_LENGTH = 64;

/**
 * Decides whether a toncenter transaction of the receiving wallet is a creditable incoming transfer:
 * an internal message to this address carrying nanoTON and a text comment, not bounced, with no
 * out-messages (a bounce back or anything the wallet sent) and not aborted. Anything else, and anything
 * unreadable (wrong types, garbage body, a comment with a NUL or a lone surrogate, an absurd amount), is
 * "not ours": a skip with its reason. Never throws, whatever the transaction holds.
 */
export function classifyTransaction(tx: ToncenterTransaction, account: Address): Classified {
  try {
    return classify(tx, account);
  } catch {
    return { skip: 'unreadable transaction' };
  }
}

function classify(tx: ToncenterTransaction, account: Address): Classified {
  if (typeof tx !== 'object' || tx === null) return { skip: 'unreadable transaction' };
  const msg = tx.in_msg;
  if (!msg || typeof msg !== 'object' || !msg.source) return { skip: 'no internal in-message' };
  const source = rawAddress(msg.source);
  if (source === null) return { skip: 'unreadable sender' };
  if (typeof msg.destination !== 'string' || !sameAddress(msg.destination, account))
    return { skip: 'not to this address' };
  if (msg.bounced) return { skip: 'bounced' };
  if (tx.out_msgs !== undefined && tx.out_msgs !== null && !Array.isArray(tx.out_msgs))
    return { skip: 'unreadable out-messages' };
  if ((tx.out_msgs?.length ?? 0) > 0) return { skip: 'has out-messages' };
  if (tx.description?.aborted) return { skip: 'aborted' };
  if (typeof msg.value !== 'string' || !/^\d{1,40}$/.test(msg.value)) return { skip: 'no value' };
  const amountNano = BigInt(msg.value);
  if (amountNano <= 0n) return { skip: 'zero value' };
  if (amountNano > MAX_TRANSFER_NANO) return { skip: 'amount out of range' };
  const comment = messageComment(msg.message_content);
  if (comment === null) return { skip: 'no text comment' };
  if (!isSafeText(comment, MAX_COMMENT_LENGTH)) return { skip: 'comment not ours' };
  const hashHex = typeof tx.hash === 'string' ? normalizeTxHash(tx.hash) : null;
  if (!hashHex) return { skip: 'unreadable hash' };
  return { transfer: { hashHex, lt: BigInt(tx.lt), comment, amountNano, source } };
}

/** The text comment of a message: toncenter's decoded one, else read from the body cell itself. */
function messageComment(content: ToncenterMessage['message_content']): string | null {
  if (!content || typeof content !== 'object') return null;
  const decoded = content.decoded;
  if (decoded && decoded.type === 'text_comment' && typeof decoded.comment === 'string')
    return decoded.comment;
  if (typeof content.body === 'string' && content.body) return parseCommentPayload(content.body);
  return null;
}

function sameAddress(text: string, account: Address): boolean {
  try {
    return Address.parse(text).equals(account);
  } catch {
    return false;
  }
}

/** The sender as toncenter wrote it, when it is an address at all; null otherwise. */
function rawAddress(text: unknown): string | null {
  if (typeof text !== 'string' || text.length > 100) return null;
  try {
    Address.parse(text);
    return text;
  } catch {
    return null;
  }
}

/** The id a skipped transaction is recorded under: ton:<hash hex>, or a digest of its JSON when unreadable. */
function skipIdOf(tx: unknown): string {
  const hash = typeof tx === 'object' && tx !== null ? (tx as { hash?: unknown }).hash : undefined;
  const hex = typeof hash === 'string' ? normalizeTxHash(hash) : null;
  if (hex) return `ton:${hex}`;
  return `ton:raw:${createHash('sha256').update(safeJson(tx)).digest('hex')}`;
}

/** JSON of anything, with every character outside printable ASCII escaped (no NUL, no lone surrogate). */
function safeJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = '"<not serializable>"';
  }
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A database error caused by the data of one transaction (SQLSTATE class 22, data exception, or 23,
 * integrity violation) rather than by the database being away: such a transaction is skipped.
 */
function isDataError(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** A transaction hash (base64, base64url or hex of 32 bytes) as lower-case hex; null when it is none of them. */
export function normalizeTxHash(hash: string): string | null {
  if (/^[0-9a-fA-F]{64}$/.test(hash)) return hash.toLowerCase();
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(hash)) return null;
  const bytes = Buffer.from(hash.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === 32 ? bytes.toString('hex') : null;
}

/**
 * The wait after the n-th consecutive failure: interval · 2^n, capped at maxMs (never below the interval);
 * a longer Retry-After from toncenter wins, within the cap.
 */
export function backoffDelay(
  failures: number,
  intervalMs: number,
  maxMs: number,
  retryAfterMs: number | null = null,
): number {
  const cap = Math.max(maxMs, intervalMs);
  const delay = Math.min(cap, intervalMs * 2 ** Math.min(Math.max(failures, 0), 30));
  return retryAfterMs ? Math.min(cap, Math.max(delay, retryAfterMs)) : delay;
}

export interface TonWatcherOptions {
  /** the receiving wallet, any address form */
  address: string;
  toncenter: ToncenterOptions;
  intervalMs: number;
  pageLimit: number;
  maxBackoffMs: number;
  log?: FastifyBaseLogger;
}

/**
 * Polls toncenter for the receiving wallet's transactions in lt order and credits each matching transfer
 * once (external id ton:<hash>). The read position (last handled lt) lives in payment_cursors, shared by
 * every instance, so a restart neither misses nor repeats; instances that race on it both credit through
 * the unique external id, so a transfer still lands once. Errors and 429s back off exponentially, capped.
 * Network calls are made outside any database transaction.
 */
export class TonWatcher {
  readonly account: Address;
  readonly cursorName: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private failures = 0;
  private abort = new AbortController();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: TonWatcherOptions,
  ) {
    this.account = Address.parse(options.address);
    this.cursorName = `ton:${this.account.toRawString()}`;
  }

  /** Starts polling (again, after a stop: the job moves between instances with its lease). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.failures = 0;
    this.abort = new AbortController();
    this.schedule(0);
  }

  /** Stops polling and waits for a poll under way to finish its database work. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.running?.catch(() => {});
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const interval = Math.max(10, this.options.intervalMs);
    let delay = interval;
    try {
      await this.pollOnce();
      this.failures = 0;
    } catch (err) {
      if (this.stopped) return;
      this.failures += 1;
      delay = this.backoffMs(err, interval);
      const level = err instanceof ToncenterError && err.rateLimited ? 'info' : 'warn';
      this.options.log?.[level]({ err, retryInMs: delay }, 'TON watcher: poll failed, backing off');
    }
    if (!this.stopped) this.schedule(delay);
  }

  private backoffMs(err: unknown, interval: number): number {
    const retryAfterMs = err instanceof ToncenterError ? err.retryAfterMs : null;
    return backoffDelay(this.failures, interval, this.options.maxBackoffMs, retryAfterMs);
  }

  /** Reads and settles everything new, page by page. Returns how many transactions it read and credited. */
  async pollOnce(): Promise<{ seen: number; credited: number }> {
    let seen = 0;
    let credited = 0;
    for (;;) {
      const cursor = await this.readCursor();
      const base = {
        account: this.account.toRawString(),
        limit: this.options.pageLimit,
        sort: 'asc' as const,
      };
      const query: TransactionsQuery =
        cursor === null
          ? { ...base, startUtime: await this.initialUtime() }
          : { ...base, startLt: cursor + 1n };
      const page = await fetchTransactions(this.options.toncenter, query, this.abort.signal);
      if (this.stopped) break;
      for (const tx of page.transactions) if (!hasLt(tx)) await this.recordSkip(tx, 'no logical time');
      const txs = page.transactions
        .filter((tx) => hasLt(tx) && (cursor === null || BigInt(tx.lt) > cursor))
        .sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : BigInt(a.lt) > BigInt(b.lt) ? 1 : 0));
      let last: bigint | null = null;
      try {
        for (const tx of txs) {
          if (this.stopped) break;
          if (await this.settle(tx)) credited++;
          last = BigInt(tx.lt);
          seen++;
        }
      } finally {
        if (last !== null) await this.saveCursor(last);
      }
      if (this.stopped || page.transactions.length < this.options.pageLimit || last === null) break;
    }
    return { seen, credited };
  }

  /**
   * Credits one transaction if it is a transfer to a player, or records it once in payment_skips as not
   * ours. Only the database being unreachable makes it throw (the poll then retries from the cursor): a
   * transaction's own content can never stop the watcher.
   */
  private async settle(tx: ToncenterTransaction): Promise<boolean> {
    const verdict = classifyTransaction(tx, this.account);
    if ('skip' in verdict) {
      // the wallet's own outgoing transactions are not deposits at all: nothing to record
      if (verdict.skip !== 'no internal in-message') await this.recordSkip(tx, verdict.skip);
      return false;
    }
    const t = verdict.transfer;
    const userId = await userByComment(this.ctx.db, t.comment);
    if (userId === null) {
      await this.recordSkip(tx, 'unknown comment');
      return false;
    }
    try {
      return await creditDeposit(
        this.ctx,
        { userId, amountNano: t.amountNano, method: 'ton', externalId: `ton:${t.hashHex}`, ref: t.source },
        this.options.log,
      );
    } catch (err) {
      if (!isDataError(err)) throw err;
      await this.recordSkip(tx, 'refused by the database');
      return false;
    }
  }

  /** Records a transaction that was not credited, once (by its external id); logs it the first time. */
  async recordSkip(tx: unknown, reason: string): Promise<void> {
    const externalId = skipIdOf(tx);
    const inserted = await this.ctx.db
      .insertInto('payment_skips')
      .values({ external_id: externalId, method: 'ton', reason, detail: safeJson(tx).slice(0, 4000) })
      .onConflict((oc) => oc.column('external_id').doNothing())
      .returning('external_id')
      .executeTakeFirst();
    if (inserted) this.options.log?.info({ tx: externalId, reason }, 'TON watcher: transaction not credited');
  }

  private async readCursor(): Promise<bigint | null> {
    const row = await this.ctx.db
      .selectFrom('payment_cursors')
      .select('position')
      .where('name', '=', this.cursorName)
      .executeTakeFirst();
    return row ? row.position : null;
  }

  /** Only moves forward: an instance that read less never pulls the shared cursor back. */
  private async saveCursor(lt: bigint): Promise<void> {
    await this.ctx.db
      .insertInto('payment_cursors')
      .values({ name: this.cursorName, position: lt })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          position: sql`GREATEST(payment_cursors.position, excluded.position)`,
          updated_at: new Date(),
        }),
      )
      .execute();
  }

  /**
   * Where the very first read starts, before any cursor exists: an hour before the first deposit comment
   * was issued (no transfer can name a player earlier), or an hour ago when none was issued yet.
   */
  private async initialUtime(): Promise<number> {
    const first = await firstCommentIssuedAt(this.ctx.db);
    const from = Math.min(first ? first.getTime() : Date.now(), Date.now());
    return Math.max(0, Math.floor(from / 1000) - 3600);
  }
}

function hasLt(tx: unknown): tx is ToncenterTransaction {
  const lt = typeof tx === 'object' && tx !== null ? (tx as { lt?: unknown }).lt : undefined;
  return typeof lt === 'string' && /^\d{1,20}$/.test(lt);
}
