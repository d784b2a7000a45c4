import type { InventoryEntry } from '../../../contract/inventory.ts';
import { parseTon } from '../../../contract/money.ts';

/** The inventory's orders: dearest first, rarest first, or what came in last first. */
export const INVENTORY_SORTS = ['price', 'rarity', 'newest'] as const;
export type InventorySort = (typeof INVENTORY_SORTS)[number];

const RARITY_RANK = { common: 0, uncommon: 1, rare: 2, epic: 3, legendary: 4 } as const;

function byPrice(a: InventoryEntry, b: InventoryEntry): number {
  const pa = parseTon(a.item.price);
  const pb = parseTon(b.item.price);
  return pa === pb ? a.id.localeCompare(b.id) : pa > pb ? -1 : 1;
}

/** The entries in the given order (a new array); ties fall back to dearest first, then the item id. */
export function sortInventory(entries: readonly InventoryEntry[], sort: InventorySort): InventoryEntry[] {
  const sorted = [...entries];
  if (sort === 'price') return sorted.sort(byPrice);
  if (sort === 'rarity')
    return sorted.sort((a, b) => RARITY_RANK[b.item.rarity] - RARITY_RANK[a.item.rarity] || byPrice(a, b));
  return sorted.sort((a, b) => Date.parse(b.acquiredAt) - Date.parse(a.acquiredAt) || byPrice(a, b));
}

/** What the given entries are worth at the server's prices, in nanoTON (exact). */
export function worthOf(entries: readonly Pick<InventoryEntry, 'quantity' | 'item'>[]): bigint {
  return entries.reduce((sum, e) => sum + parseTon(e.item.price) * BigInt(e.quantity), 0n);
}
