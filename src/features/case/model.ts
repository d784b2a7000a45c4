import type { CaseItem, Item, OpenResult, Rarity } from '../../../contract/cases.ts';
import type { RouletteItem, RouletteReel } from '../../../scenes/roulette';

/** How many copies can be opened at once (spec §9: x1, x2, x3). */
export const COUNTS = [1, 2, 3] as const;
export type OpenCount = (typeof COUNTS)[number];

const NANO_PER_TON = 1_000_000_000;
const toNano = (ton: number) => Math.round(ton * NANO_PER_TON);

/** Balance covers price × count (spec §5), compared in whole nanoTON so 0.1 + 0.2 style errors cannot bite. */
export function canAfford(balance: number | undefined, price: number, count: number): boolean {
  if (balance === undefined || !Number.isFinite(balance)) return false;
  return toNano(balance) >= toNano(price) * count;
}

/** price × count, rounded to nanoTON. */
export function totalPrice(price: number, count: number): number {
  return (toNano(price) * count) / NANO_PER_TON;
}

const RARITY_RANK: Record<Rarity, number> = { common: 0, uncommon: 1, rare: 2, epic: 3, legendary: 4 };

/** The case's items as the page lists them: rarest and dearest first, then by name. */
export function sortForDisplay(items: readonly CaseItem[]): CaseItem[] {
  return [...items].sort(
    (a, b) =>
      RARITY_RANK[b.item.rarity] - RARITY_RANK[a.item.rarity] ||
      b.item.price - a.item.price ||
      a.item.name.localeCompare(b.item.name),
  );
}

/** The case's expected value: Σ dropChance × price, in TON. */
export function expectedValue(items: readonly CaseItem[]): number {
  return items.reduce((sum, entry) => sum + entry.dropChance * entry.item.price, 0);
}

/** A drop chance (a fraction) as a percent: '12.5%', '1.25%', '0.05%', '<0.01%'. */
export function formatChance(fraction: number): string {
  const percent = Math.max(fraction, 0) * 100;
  if (percent === 0) return '0%';
  if (percent < 0.01) return '<0.01%';
  const text = percent >= 10 ? percent.toFixed(1) : percent.toFixed(2);
  return `${text.replace(/\.?0+$/, '')}%`;
}

function roulettePiece(item: Item, weight: number): RouletteItem {
  return {
    id: item.id,
    name: item.name,
    price: item.price,
    imageUrl: item.imageUrl,
    rarity: item.rarity,
    weight,
  };
}

/** The reel cards of a case: each item with its integer weight, so common items show up more. */
export function rouletteItems(items: readonly CaseItem[]): RouletteItem[] {
  return items.map((entry) => roulettePiece(entry.item, entry.weight));
}

/** The seed a reel lays its track out from: the opening's proof, so the same opening draws the same reel. */
export function reelSeed(result: OpenResult): string {
  return `${result.proof.serverSeedHash}:${result.proof.nonce}`;
}

/**
 * One reel per opened copy: the case's cards with the server's item as the winner. An item the case no
 * longer lists (the catalogue changed meanwhile) joins that reel's cards with weight 0: it shows only where
 * it lands.
 */
export function buildReels(pieces: readonly RouletteItem[], results: readonly OpenResult[]): RouletteReel[] {
  return results.map((result) => {
    const index = pieces.findIndex((piece) => piece.id === result.item.id);
    if (index >= 0) return { items: pieces, winnerIndex: index, seed: reelSeed(result) };
    return {
      items: [...pieces, roulettePiece(result.item, 0)],
      winnerIndex: pieces.length,
      seed: reelSeed(result),
    };
  });
}
