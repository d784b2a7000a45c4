import { describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../contract/inventory.ts';
import { sortInventory, worthOf } from '../../src/features/inventory/sort.ts';

function entry(
  id: string,
  price: string,
  rarity: InventoryEntry['item']['rarity'],
  acquiredAt: string,
  quantity = 1,
): InventoryEntry {
  return {
    id,
    quantity,
    acquiredAt,
    withdrawable: true,
    item: { id, name: id, imageUrl: `/assets/items/${id}.svg`, price, rarity },
  };
}

const entries = [
  entry('candy', '0.3', 'common', '2026-11-20T10:00:00.000Z', 3),
  entry('diamond', '45', 'epic', '2026-11-18T10:00:00.000Z'),
  entry('crown', '80', 'legendary', '2026-11-19T10:00:00.000Z'),
  entry('rose', '2', 'rare', '2026-11-25T10:00:00.000Z', 2),
  entry('cake', '2', 'uncommon', '2026-11-25T10:00:00.000Z'),
];

describe('inventory sort orders', () => {
  it('price: dearest first, equal prices by id', () => {
    expect(sortInventory(entries, 'price').map((e) => e.id)).toEqual([
      'crown',
      'diamond',
      'cake',
      'rose',
      'candy',
    ]);
  });
  it('rarity: rarest first, then dearest', () => {
    expect(sortInventory(entries, 'rarity').map((e) => e.id)).toEqual([
      'crown',
      'diamond',
      'rose',
      'cake',
      'candy',
    ]);
  });
  it('newest: last received first, the same moment by price then id', () => {
    expect(sortInventory(entries, 'newest').map((e) => e.id)).toEqual([
      'cake',
      'rose',
      'candy',
      'crown',
      'diamond',
    ]);
  });
  it('leaves the given array alone', () => {
    const copy = [...entries];
    sortInventory(entries, 'rarity');
    expect(entries).toEqual(copy);
  });
  it('worth: price × quantity summed exactly in nanoTON', () => {
    expect(worthOf(entries)).toBe(
      900_000_000n + 45_000_000_000n + 80_000_000_000n + 4_000_000_000n + 2_000_000_000n,
    );
    expect(worthOf([entry('a', '0.000000001', 'common', '', 7), entry('b', '0.1', 'common', '', 3)])).toBe(
      300_000_007n,
    );
    expect(worthOf([])).toBe(0n);
  });
});
