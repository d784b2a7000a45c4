import { describe, expect, it } from 'vitest';
import type { CaseItem, Item, OpenResult } from '../../contract/cases.ts';
import {
  buildReels,
  canAfford,
  expectedValue,
  formatChance,
  rouletteItems,
  sortForDisplay,
  totalPrice,
} from '../../src/features/case/model.ts';
import { CASE_TABS, casesOfTab } from '../../src/features/cases/tabs.ts';
import { i18n } from '../../src/i18n/index.ts';

function item(id: string, price: string, rarity: Item['rarity'] = 'common'): Item {
  return { id, name: id, price, imageUrl: `/assets/items/${id}.svg`, imageBase64: null, rarity };
}

function entries(list: [Item, number][]): CaseItem[] {
  const total = list.reduce((sum, [, weight]) => sum + weight, 0);
  return list.map(([it, weight]) => ({ id: `c:${it.id}`, dropChance: weight / total, weight, item: it }));
}

function result(it: Item, nonce: number): OpenResult {
  return {
    openingId: String(nonce),
    betId: `bet${nonce}`,
    item: it,
    proof: {
      serverSeedHash: 'abc',
      clientSeed: 'client',
      nonce,
      roll: 0,
      totalWeight: 1,
      weightTableHash: null,
    },
  };
}

describe('case list tabs', () => {
  const list = Array.from({ length: 9 }, (_, i) => i);
  it('slice the list by position as the spec says', () => {
    expect(CASE_TABS).toEqual(['free', 'limited', 'mix', 'allin', 'tickets']);
    expect(casesOfTab(list, 'free')).toEqual(list);
    expect(casesOfTab(list, 'limited')).toEqual([0, 1, 2]);
    expect(casesOfTab(list, 'mix')).toEqual([3, 4, 5]);
    expect(casesOfTab(list, 'allin')).toEqual([2, 3, 4]);
    expect(casesOfTab(list, 'tickets')).toEqual([4, 5, 6]);
  });
  it('cope with short lists', () => {
    expect(casesOfTab([0, 1], 'mix')).toEqual([]);
    expect(casesOfTab([0, 1, 2, 3, 4], 'tickets')).toEqual([4]);
  });
});

describe('affordability', () => {
  it('needs balance ≥ price × count, exactly', () => {
    expect(canAfford('1.5', '0.5', 3)).toBe(true);
    expect(canAfford('1.49', '0.5', 3)).toBe(false);
    expect(canAfford('0.3', '0.1', 3)).toBe(true); // 0.1 * 3 is 0.30000000000000004 in floats
    expect(canAfford('0.299999999', '0.1', 3)).toBe(false); // one nanoTON short
    expect(canAfford(undefined, '0.5', 1)).toBe(false);
    expect(canAfford('100', '75', 2)).toBe(false);
  });
  it('totals price × count exactly, in nanoTON', () => {
    expect(totalPrice('0.1', 3)).toBe(300_000_000n);
    expect(totalPrice('2.5', 3)).toBe(7_500_000_000n);
    expect(totalPrice('1000000000', 3)).toBe(3_000_000_000_000_000_000n);
  });
});

describe('odds disclosure', () => {
  const a = item('a', '0.1');
  const b = item('b', '5', 'rare');
  const c = item('c', '1', 'uncommon');
  const list = entries([
    [a, 90],
    [b, 1],
    [c, 9],
  ]);

  it('expected value is Σ weight × price / Σ weight, exact', () => {
    // (90 × 0.1 + 1 × 5 + 9 × 1) / 100 = 0.23 TON, in nanoTON
    expect(expectedValue(list)).toBe(230_000_000n);
    expect(expectedValue([])).toBe(0n);
  });

  it('lists rarest and dearest first', () => {
    expect(sortForDisplay(list).map((e) => e.item.id)).toEqual(['b', 'c', 'a']);
  });

  it('formats chances as percents in the interface language', async () => {
    await i18n.changeLanguage('en');
    expect(formatChance(0.9)).toBe('90%');
    expect(formatChance(0.125)).toBe('12.5%');
    expect(formatChance(0.0125)).toBe('1.25%');
    expect(formatChance(0.0005)).toBe('0.05%');
    expect(formatChance(0.00001)).toBe('<0.01%');
    // the same chances in Russian: a decimal comma and a non-breaking space before the sign, as Intl has it
    await i18n.changeLanguage('ru');
    expect(formatChance(0.125)).toBe('12,5\u00a0%');
    expect(formatChance(0.0005)).toBe('0,05\u00a0%');
    expect(formatChance(0.00001)).toBe('<0,01\u00a0%');
    expect(formatChance(0)).toBe('0\u00a0%');
  });
});

describe('roulette reels', () => {
  const a = item('a', '0.1');
  const b = item('b', '5', 'rare');
  const pieces = rouletteItems(
    entries([
      [a, 90],
      [b, 10],
    ]),
  );

  it('carry the integer weights', () => {
    expect(pieces.map((p) => [p.id, p.weight])).toEqual([
      ['a', 90],
      ['b', 10],
    ]);
  });

  it('one reel per result, the dropped item as the winner, seeded by the proof', () => {
    const reels = buildReels(pieces, [result(b, 7), result(a, 8)]);
    expect(reels).toHaveLength(2);
    expect(reels[0]).toMatchObject({ winnerIndex: 1, seed: 'abc:7' });
    expect(reels[1]).toMatchObject({ winnerIndex: 0, seed: 'abc:8' });
    expect(reels[0]!.items).toBe(pieces);
  });

  it('an item the case no longer lists joins that reel with weight 0', () => {
    const [reel] = buildReels(pieces, [result(item('gone', '3'), 1)]);
    expect(reel!.items).toHaveLength(3);
    expect(reel!.winnerIndex).toBe(2);
    expect(reel!.items[2]).toMatchObject({ id: 'gone', weight: 0 });
  });
});
