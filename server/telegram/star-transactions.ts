import type { StarTransaction } from 'grammy/types';
import type { TelegramCalls } from './api.ts';

/** Transactions per page, the Bot API's most. */
const PAGE = 100;
/** Pages read at most past the first recent transaction (a few minutes of the bot's transactions). */
const MAX_RECENT_PAGES = 200;

type Calls = Pick<TelegramCalls, 'getStarTransactions'>;

/**
 * The bot's Star transactions dated `since` (Unix seconds) or later.
 *
 * The Bot API lists them in chronological order, oldest first, paged by offset, so the recent ones sit at the
 * end of a list that only grows. Reading it from the start would cost a call per hundred transactions the
 * bot ever made, and any page limit would sooner or later stop short of the recent ones: a delivered gift
 * would then look undelivered and be sent again. So the first transaction dated `since` or later is found by
 * probing single transactions, galloping forward from the first page and then bisecting (about 2·log2(n)
 * calls for n transactions), and the list is read forward from there.
 *
 * Should the list come newest first (its first page's dates fall), it is read from the start until it
 * passes `since`.
 */
export async function* starTransactionsSince(
  calls: Calls,
  since: number,
  signal?: AbortSignal,
): AsyncGenerator<StarTransaction> {
  const page = (offset: number, limit = PAGE) =>
    calls.getStarTransactions({ offset, limit }, signal).then((r) => r.transactions);
  const first = await page(0);
  if (first.length === 0) return;

  if (first.length > 1 && first[0]!.date > first.at(-1)!.date) {
    // newest first: everything recent is at the start
    let current = first;
    for (let n = 0; n < MAX_RECENT_PAGES; n++) {
      for (const tx of current) {
        if (tx.date < since) return;
        yield tx;
      }
      if (current.length < PAGE) return;
      current = await page((n + 1) * PAGE);
    }
    return;
  }

  // oldest first: where do the recent ones begin?
  let start = first.findIndex((tx) => tx.date >= since);
  if (start < 0) {
    if (first.length < PAGE) return;
    // reached(offset): the transaction there is recent, or there is none (past the end)
    const reached = async (offset: number) => {
      const [tx] = await page(offset, 1);
      return tx === undefined || tx.date >= since;
    };
    let before = first.length - 1; // known not reached
    let step = PAGE;
    let after = before + step;
    while (!(await reached(after))) {
      before = after;
      step *= 2;
      after = before + step;
    }
    while (after - before > 1) {
      const mid = before + Math.floor((after - before) / 2);
      if (await reached(mid)) after = mid;
      else before = mid;
    }
    start = after;
  }

  let offset = start;
  let current = start < first.length ? first.slice(start) : await page(start);
  let atEnd = start < first.length ? first.length < PAGE : current.length < PAGE;
  for (let n = 1; ; n++) {
    for (const tx of current) if (tx.date >= since) yield tx;
    offset += current.length;
    if (atEnd || n >= MAX_RECENT_PAGES) return;
    current = await page(offset);
    atEnd = current.length < PAGE;
  }
}
