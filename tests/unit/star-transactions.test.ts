import { describe, expect, it } from 'vitest';
import type { StarTransaction, StarTransactions } from 'grammy/types';
import { starTransactionsSince } from '../../server/telegram/star-transactions.ts';

// The Bot API's getStarTransactions over a list kept in memory: offset and limit as documented (limit 1–100),
// counting the calls.
function botApi(list: StarTransaction[]) {
  const calls: { offset: number; limit: number }[] = [];
  return {
    calls,
    getStarTransactions: async (other: { offset?: number; limit?: number }): Promise<StarTransactions> => {
      const offset = other.offset ?? 0;
      const limit = other.limit ?? 100;
      expect(limit).toBeGreaterThanOrEqual(1);
      expect(limit).toBeLessThanOrEqual(100);
      calls.push({ offset, limit });
      return { transactions: list.slice(offset, offset + limit) };
    },
  };
}

const tx = (n: number, date: number): StarTransaction => ({ id: `tx-${n}`, amount: 15, date });

/** `old` transactions dated before 1,000, then `recent` dated 1,000 and later, oldest first. */
function chronological(old: number, recent: number): StarTransaction[] {
  return [
    ...Array.from({ length: old }, (_, i) => tx(i, 100 + Math.floor((i * 800) / Math.max(old, 1)))),
    ...Array.from({ length: recent }, (_, i) => tx(old + i, 1_000 + i)),
  ];
}

async function collect(list: StarTransaction[], since = 1_000) {
  const api = botApi(list);
  const found: string[] = [];
  for await (const t of starTransactionsSince(api, since)) found.push(t.id);
  return { found, calls: api.calls.length };
}

const ids = (list: StarTransaction[]) => list.map((t) => t.id);

describe('the Star transactions since a moment', () => {
  it('finds the recent ones at the end of a long history in a few dozen calls, not one per page', async () => {
    const list = chronological(25_000, 3);
    const { found, calls } = await collect(list);
    expect(found).toEqual(ids(list.slice(-3)));
    // reading from the start would take 251 pages (the old limit of 200 pages never reached them)
    expect(calls).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(25_000)) + 3);
  });

  it.each([
    ['all recent', 0, 40],
    ['recent within the first page', 30, 20],
    ['recent from the second page on', 100, 5],
    ['recent from a page boundary deep in', 1_600, 7],
    ['more than a page of recent ones', 1_000, 250],
    ['nothing recent, one page', 60, 0],
    ['nothing recent, many pages', 5_000, 0],
    ['empty', 0, 0],
  ])('%s: exactly the recent ones, in order', async (_name, old, recent) => {
    const list = chronological(old, recent);
    const { found } = await collect(list);
    expect(found).toEqual(ids(list.slice(old)));
  });

  it('a list that comes newest first is read from the start until it passes the moment', async () => {
    const list = chronological(5_000, 150).reverse();
    const { found, calls } = await collect(list);
    expect(found).toEqual(ids(list.slice(0, 150)));
    expect(calls).toBe(2);
  });

  it('transactions of the same second as the moment count as recent', async () => {
    const list = [...chronological(300, 0), tx(300, 1_000), tx(301, 1_000)];
    const { found } = await collect(list);
    expect(found).toEqual(['tx-300', 'tx-301']);
  });
});
