import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  NANO_PER_TON,
  TON_PATTERN,
  compareTon,
  displayTon,
  formatTon,
  parseTon,
  sumTon,
  tryParseTon,
} from '../../contract/money.ts';

// The one money module: parseTon (decimal text → nanoTON), formatTon (nanoTON → canonical API text) and
// displayTon (for people, in the locale's separators). Exact at every size; no float on the way.

const canonical = new RegExp(TON_PATTERN);

describe('parseTon and formatTon', () => {
  it('round-trip every typed amount from 0.000000001 to 10^9 TON exactly', () => {
    const samples = [
      '0.000000001',
      '0.01',
      '0.1',
      '0.25',
      '3.97',
      '8191.999999999',
      '8192.000000001', // a float conversion (toFixed) lost a nanoTON from 8192 TON up
      '9007199.254740993', // past 2^53 nanoTON
      '123456789.123456789',
      '999999999.999999999',
      '1000000000',
    ];
    // and every power of ten times every digit, and random nanoTON amounts up to 10^18 (10^9 TON)
    for (let exp = -9; exp <= 8; exp++) {
      for (let d = 1; d <= 9; d++) samples.push(formatTon(BigInt(d) * 10n ** BigInt(exp + 9)));
    }
    for (let i = 0; i < 2000; i++) {
      const nano = BigInt('0x' + randomBytes(8).toString('hex')) % (10n ** 18n + 1n);
      samples.push(formatTon(nano === 0n ? 1n : nano));
    }
    for (const text of samples) {
      const nano = parseTon(text);
      expect(nano >= 1n && nano <= 10n ** 18n, text).toBe(true);
      expect(formatTon(nano), text).toBe(text);
      expect(text, text).toMatch(canonical);
    }
  });

  it('reads what people type: comma or point, padding zeros, exponents', () => {
    expect(parseTon('3,97')).toBe(3_970_000_000n);
    expect(parseTon(' 12.50 ')).toBe(12_500_000_000n);
    expect(parseTon('.5')).toBe(500_000_000n);
    expect(parseTon('5.')).toBe(5_000_000_000n);
    expect(parseTon('007.100')).toBe(7_100_000_000n);
    expect(parseTon('1e-9')).toBe(1n);
    expect(parseTon('1.5E+2')).toBe(150n * NANO_PER_TON);
    expect(parseTon('0.300000000000')).toBe(300_000_000n); // zeros past the 9th decimal are exact
    expect(parseTon('0')).toBe(0n);
    expect(parseTon(String(0.1 + 0.2).slice(0, 11))).toBe(300_000_000n);
  });

  it('refuses what is not an exact, non-negative amount of nanoTON', () => {
    for (const bad of ['', ' ', '-1', 'abc', '1.2.3', '1,2,3', 'e5', '.', 'NaN', 'Infinity', '0x10']) {
      expect(tryParseTon(bad), bad).toBeNull();
      expect(() => parseTon(bad), bad).toThrow(RangeError);
    }
    // finer than a nanoTON: not rounded, not floored, refused
    expect(tryParseTon('0.0000000001')).toBeNull();
    expect(tryParseTon('2.0000000019')).toBeNull();
    expect(tryParseTon(String(0.1 + 0.2))).toBeNull(); // 0.30000000000000004
  });

  it('writes the canonical API form: no trailing zeros, no float artifacts', () => {
    expect(formatTon(3_970_000_000n)).toBe('3.97');
    expect(formatTon(250_000_000n)).toBe('0.25');
    expect(formatTon(1n)).toBe('0.000000001');
    expect(formatTon(0n)).toBe('0');
    expect(formatTon(12n * NANO_PER_TON)).toBe('12');
    expect(formatTon(-1_500_000_000n)).toBe('-1.5');
    expect(formatTon(5_000_000_000n * NANO_PER_TON)).toBe('5000000000');
  });

  it('sums and compares API amounts exactly', () => {
    expect(sumTon(['0.1', '0.2'])).toBe(300_000_000n);
    expect(formatTon(sumTon(['0.25', '0.75', '3.97']))).toBe('4.97');
    expect(['1.5', '0.25', '10', '0.3'].sort(compareTon)).toEqual(['0.25', '0.3', '1.5', '10']);
  });
});

describe('displayTon', () => {
  it('shows every significant decimal, padded to the minimum', () => {
    expect(displayTon('0.25', 'en-US', { minDecimals: 1 })).toBe('0.25');
    expect(displayTon('0.25', 'en-US', { minDecimals: 2 })).toBe('0.25');
    expect(displayTon('3', 'en-US', { minDecimals: 1 })).toBe('3.0');
    expect(displayTon('3', 'en-US', { minDecimals: 2 })).toBe('3.00');
    expect(displayTon('1.25', 'en-US', { minDecimals: 1 })).toBe('1.25');
    expect(displayTon('0.000000001', 'en-US')).toBe('0.000000001');
    expect(displayTon(15n * 10n ** 7n, 'en-US', { minDecimals: 1 })).toBe('0.15');
  });

  it('uses the locale separators: Russian comma and space groups', () => {
    expect(displayTon('0.25', 'ru-RU')).toBe('0,25');
    expect(displayTon('1234567.5', 'ru-RU', { minDecimals: 2 })).toBe('1\u00a0234\u00a0567,50');
    expect(displayTon('1234567.5', 'en-US', { minDecimals: 2 })).toBe('1,234,567.50');
    expect(displayTon('1000000000', 'en-US')).toBe('1,000,000,000');
  });

  it('cuts (never rounds up) when a maximum is asked for: a balance shows no money that is not there', () => {
    expect(displayTon('3.999', 'en-US', { minDecimals: 2, maxDecimals: 2 })).toBe('3.99');
    expect(displayTon('3.97', 'en-US', { minDecimals: 2, maxDecimals: 2 })).toBe('3.97');
    expect(displayTon('0.009', 'en-US', { minDecimals: 2, maxDecimals: 2 })).toBe('0.00');
    expect(displayTon(-9_000_000n, 'en-US', { minDecimals: 2, maxDecimals: 2 })).toBe('0.00');
  });
});
