/** 1 TON = 10^9 nanoTON. The server keeps money as integer nanoTON (bigint) and never does float money math. */
export const NANO_PER_TON = 1_000_000_000n;

/** nanoTON → TON number for the API (display only; never fed back into money math). */
export function nanoToTon(nano: bigint): number {
  const whole = nano / NANO_PER_TON;
  const frac = nano % NANO_PER_TON;
  return Number(whole) + Number(frac) / 1e9;
}

/**
 * TON amount as given by a person or an API (number or decimal string) → nanoTON, floored.
 * Parses the decimal text itself so 0.1 + 0.2 style float errors never reach money.
 */
export function tonToNano(amount: number | string): bigint {
  const text = typeof amount === 'number' ? numberToPlainString(amount) : amount.trim();
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) throw new RangeError(`not a non-negative TON amount: ${String(amount)}`);
  const whole = BigInt(m[1]!);
  const frac = (m[2] ?? '').slice(0, 9).padEnd(9, '0');
  return whole * NANO_PER_TON + BigInt(frac);
}

function numberToPlainString(n: number): string {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`not a non-negative TON amount: ${n}`);
  // toFixed(9) would round; take 12 digits then floor by truncating the text.
  return n.toFixed(12);
}
