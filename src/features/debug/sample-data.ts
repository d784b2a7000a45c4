import type { Case } from '../../../contract/cases.ts';
import type { Rarity, RouletteItem } from '../../../scenes/roulette';
import { formatTon } from '../../lib/format';

/** Roulette items when the server's catalogue is out of reach: art from /assets/items, made-up prices. */
export const STATIC_ITEMS: readonly RouletteItem[] = (
  [
    ['rose', 'Rose', '0.80', 'common', 30],
    ['candy', 'Candy', '0.50', 'common', 30],
    ['cake', 'Cake', '1.50', 'common', 20],
    ['ring', 'Ring', '4.00', 'uncommon', 10],
    ['rocket', 'Rocket', '3.00', 'uncommon', 10],
    ['teddy_bear', 'Teddy bear', '6.50', 'rare', 6],
    ['crown', 'Crown', '12.00', 'epic', 3],
    ['diamond', 'Diamond', '25.00', 'legendary', 1],
  ] as const
).map(([id, name, price, rarity, weight]) => ({
  id,
  name,
  price,
  rarity: rarity as Rarity,
  weight,
  imageUrl: `/assets/items/${id}.svg`,
}));

/** The items of the first case with a few of them (GET /cases), as roulette cards; null when none has. */
export function itemsOfCatalogue(cases: readonly Case[] | undefined): RouletteItem[] | null {
  const chosen = cases?.find((c) => c.items.length >= 4);
  if (!chosen) return null;
  return chosen.items.map(({ item, weight }) => ({
    id: item.id,
    name: item.name,
    price: formatTon(item.price, 2),
    imageUrl: item.imageUrl,
    rarity: item.rarity,
    weight,
  }));
}

/** The chance wheel's sample odds: the upgrade game's 0.39 at x2 (spec §9). */
export const SAMPLE_CHANCE = 0.39 / 2;
