import { describe, expect, it } from 'vitest';
import {
  PLACEHOLDER_CASES,
  PLACEHOLDER_COUNT,
  PLACEHOLDER_MAX_PRICE,
  PLACEHOLDER_MIN_PRICE,
  placeholderCases,
} from '../../src/features/upgrade/placeholders.ts';

// The spec's 56 placeholder cases (spec §9: "Demo cases 56 with random prices 5 to 54").

describe('upgrade placeholder cases', () => {
  it('are 56 cases with whole TON prices from 5 to 54, each with its own id and art', () => {
    expect(PLACEHOLDER_COUNT).toBe(56);
    expect(PLACEHOLDER_CASES).toHaveLength(56);
    expect(new Set(PLACEHOLDER_CASES.map((c) => c.id)).size).toBe(56);
    expect(PLACEHOLDER_CASES.map((c) => c.number)).toEqual(Array.from({ length: 56 }, (_, i) => i + 1));
    for (const box of PLACEHOLDER_CASES) {
      expect(box.price).toMatch(/^\d+$/);
      const price = Number(box.price);
      expect(price).toBeGreaterThanOrEqual(PLACEHOLDER_MIN_PRICE);
      expect(price).toBeLessThanOrEqual(PLACEHOLDER_MAX_PRICE);
      expect(box.imageUrl).toMatch(/^\/assets\/cases\/[a-z]+\.svg$/);
    }
  });

  it('draw their prices from a fixed seed: the same grid every time, spread over the range', () => {
    expect(placeholderCases()).toEqual(PLACEHOLDER_CASES);
    expect(placeholderCases(7).map((c) => c.price)).not.toEqual(PLACEHOLDER_CASES.map((c) => c.price));
    const prices = new Set(PLACEHOLDER_CASES.map((c) => Number(c.price)));
    expect(prices.size).toBeGreaterThan(20);
    expect(Math.min(...prices)).toBeLessThan(15);
    expect(Math.max(...prices)).toBeGreaterThan(44);
  });
});
