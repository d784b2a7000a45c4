import { describe, expect, it } from 'vitest';
import { nanoToTon, tonToNano } from '../../server/lib/money.ts';
import { nanoToDecimal } from '../../server/payments/amounts.ts';

describe('TON ↔ nanoTON', () => {
  it('floors to whole nanoTON and never goes through float arithmetic', () => {
    expect(tonToNano(1)).toBe(1_000_000_000n);
    expect(tonToNano(1.5)).toBe(1_500_000_000n);
    expect(tonToNano(0.1)).toBe(100_000_000n);
    expect(tonToNano(0.3)).toBe(300_000_000n); // 0.1 + 0.2 style errors never reach money
    expect(tonToNano('1.9999999999')).toBe(1_999_999_999n); // floor, not round
    expect(tonToNano(1.9999999999)).toBe(1_999_999_999n);
    expect(tonToNano('0.0000000019')).toBe(1n);
    expect(tonToNano(0)).toBe(0n);
    expect(tonToNano('12.')).toBe(12_000_000_000n);
  });

  it('handles tiny amounts: one nanoTON, and less than one (floored to zero)', () => {
    expect(tonToNano(0.000000001)).toBe(1n);
    expect(tonToNano(1e-9)).toBe(1n);
    expect(tonToNano('0.000000001')).toBe(1n);
    expect(tonToNano(5e-10)).toBe(0n);
    expect(tonToNano(1e-12)).toBe(0n);
  });

  it('handles large amounts exactly as text, and as far as a number is exact', () => {
    expect(tonToNano('5000000000')).toBe(5_000_000_000_000_000_000n); // the whole TON supply
    expect(tonToNano('123456789012345.123456789')).toBe(123_456_789_012_345_123_456_789n);
    expect(tonToNano(10_000)).toBe(10_000_000_000_000n);
    expect(tonToNano(9_007_199)).toBe(9_007_199_000_000_000n);
  });

  it('refuses what is not a non-negative decimal amount', () => {
    for (const bad of [-1, Number.NaN, Infinity, '-1', '1e3', 'abc', '', ' ', '1.2.3', '0x10']) {
      expect(() => tonToNano(bad), String(bad)).toThrow(RangeError);
    }
  });

  it('prints nanoTON as exact decimal text for provider APIs, the inverse of tonToNano', () => {
    expect(nanoToDecimal(1_500_000_000n)).toBe('1.5');
    expect(nanoToDecimal(1n)).toBe('0.000000001');
    expect(nanoToDecimal(12_000_000_000n)).toBe('12');
    expect(nanoToDecimal(0n)).toBe('0');
    expect(nanoToDecimal(123_456_789_012_345_123_456_789n)).toBe('123456789012345.123456789');
    for (const nano of [1n, 10n, 999_999_999n, 1_000_000_001n, 5_000_000_000_000_000_000n]) {
      expect(tonToNano(nanoToDecimal(nano))).toBe(nano);
    }
    expect(nanoToTon(1_500_000_000n)).toBe(1.5);
  });
});
