import { describe, expect, it } from 'vitest';
import { OfflineError } from '../../src/api';
import { answeredBetweenTaps, runMoneyAction } from '../../src/lib/money-action';

// The one guard of every money tap (src/lib/money-action.ts): one action per tap, one Idempotency-Key per
// intent, kept for a retry of the same intent only while its outcome is unknown.

const lost = () => Object.assign(new Error('no answer'), { status: undefined });
const refused = () => Object.assign(new Error('refused'), { status: 400 });

describe('runMoneyAction', () => {
  it('swallows a second tap while the first runs, and a quick second tap of the same intent after it', async () => {
    let calls = 0;
    const first = runMoneyAction('s1', 'sell:a', async () => {
      calls++;
      return 'sold';
    });
    expect(runMoneyAction('s1', 'sell:b', async () => calls++)).toBeNull();
    await expect(first).resolves.toBe('sold');
    // done already, but 60 ms after the same tap: the same intent, not a second sale
    expect(runMoneyAction('s1', 'sell:a', async () => calls++)).toBeNull();
    expect(calls).toBe(1);
  });

  it('takes a quick tap after the player answered something in between (a closed wallet modal) as a new tap', async () => {
    let calls = 0;
    const first = runMoneyAction('s5', 'deposit:ton:1', async () => {
      calls++;
      answeredBetweenTaps('deposit:ton:1'); // the wallet connection was closed: nothing was sent
    });
    // still under way: the scope stays guarded
    expect(runMoneyAction('s5', 'deposit:ton:1', async () => calls++)).toBeNull();
    await first;
    // at once, well inside the double-tap window, but a deliberate second tap: it runs
    await expect(runMoneyAction('s5', 'deposit:ton:1', async () => ++calls)).resolves.toBe(2);
    // and a double tap of that one is swallowed again
    expect(runMoneyAction('s5', 'deposit:ton:1', async () => calls++)).toBeNull();
  });

  it('reuses the key of an intent whose answer was lost, and makes a new one after an answer', async () => {
    const keys: string[] = [];
    const attempt = (intent: string, outcome: () => unknown) =>
      runMoneyAction('s2', intent, async (key) => {
        keys.push(key);
        const result = outcome();
        if (result instanceof Error) throw result;
        return result;
      });
    const wait = () => new Promise((resolve) => setTimeout(resolve, 650));

    await expect(attempt('open:x', lost)).rejects.toThrow('no answer');
    await wait();
    await expect(attempt('open:x', () => 'won')).resolves.toBe('won');
    expect(keys[1]).toBe(keys[0]); // the retry of the lost intent: the server answers it once
    await wait();
    await expect(attempt('open:x', refused)).rejects.toThrow('refused');
    expect(keys[2]).not.toBe(keys[1]); // a new intent after an answer
    await wait();
    await expect(attempt('open:x', () => new OfflineError())).rejects.toBeInstanceOf(OfflineError);
    expect(keys[3]).not.toBe(keys[2]); // a refused intent is settled
    expect(new Set(keys.slice(0, 1).concat(keys.slice(2))).size).toBe(3);
  });
});
