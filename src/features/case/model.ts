import type { CaseItem, Item, OpenResult, Rarity } from '../../../contract/cases.ts';
import type { RouletteItem, RouletteReel } from '../../../scenes/roulette';
import { parseTon, tryParseTon } from '../../../contract/money.ts';
import { formatPercent, formatTon } from '../../lib/format';

/** How many copies can be opened at once (spec §9: x1, x2, x3). */
export const COUNTS = [1, 2, 3] as const;
export type OpenCount = (typeof COUNTS)[number];

/** Balance covers price × count (spec §5), compared exactly in nanoTON. */
export function canAfford(balance: string | undefined, price: string, count: number): boolean {
  const have = balance === undefined ? null : tryParseTon(balance);
  if (have === null) return false;
  return have >= parseTon(price) * BigInt(count);
}

/** price × count in nanoTON, exactly. */
export function totalPrice(price: string, count: number): bigint {
  return parseTon(price) * BigInt(count);
}

const RARITY_RANK: Record<Rarity, number> = { common: 0, uncommon: 1, rare: 2, epic: 3, legendary: 4 };

/** The case's items as the page lists them: rarest and dearest first, then by name. */
export function sortForDisplay(items: readonly CaseItem[]): CaseItem[] {
  return [...items].sort(
    (a, b) =>
      RARITY_RANK[b.item.rarity] - RARITY_RANK[a.item.rarity] ||
      compareNano(parseTon(b.item.price), parseTon(a.item.price)) ||
      a.item.name.localeCompare(b.item.name),
  );
}

const compareNano = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** The case's expected value: Σ weight × price / Σ weight, in nanoTON (floored, as the server solves it). */
export function expectedValue(items: readonly CaseItem[]): bigint {
  const total = items.reduce((sum, entry) => sum + BigInt(entry.weight), 0n);
  if (total === 0n) return 0n;
  return items.reduce((sum, entry) => sum + BigInt(entry.weight) * parseTon(entry.item.price), 0n) / total;
}

/**
 * A drop chance (a fraction) as a percent in the interface's locale: '12.5%', '1.25%', '0.05%', '<0.01%'
 * (Russian: '12,5 %', '<0,01 %').
 */
export function formatChance(fraction: number): string {
  const value = Math.max(fraction, 0);
  if (value === 0) return formatPercent(0);
  if (value < 0.0001) return `<${formatPercent(0.0001, 2)}`;
  return formatPercent(value, value >= 0.1 ? 1 : 2);
}

function roulettePiece(item: Item, weight: number): RouletteItem {
  return {
    id: item.id,
    name: item.name,
    price: formatTon(item.price, 2),
    imageUrl: item.imageUrl,
    rarity: item.rarity,
    weight,
  };
}

/** The reel cards of a case: each item with its integer weight, so common items show up more. */
export function rouletteItems(items: readonly CaseItem[]): RouletteItem[] {
  return items.map((entry) => roulettePiece(entry.item, entry.weight));
}

/** The seed a reel's landing inside the winner's card comes from: the opening's proof. */
function reelSeed(result: OpenResult): string {
  return `${result.proof.serverSeedHash}:${result.proof.nonce}`;
}

/**
 * One reel per opened copy: the case's cards with the server's item as the winner. An item the case no
 * longer lists (the catalogue changed meanwhile) joins that reel's cards with weight 0: it shows only where
 * it lands. `trackSeeds` (one per reel) are the seeds the roulette staged the reels' tracks with.
 */
export function buildReels(
  pieces: readonly RouletteItem[],
  results: readonly OpenResult[],
  trackSeeds: readonly string[] = [],
): RouletteReel[] {
  return results.map((result, i) => {
    const index = pieces.findIndex((piece) => piece.id === result.item.id);
    // the track the roulette staged for this reel before the tap, when there is one
    const trackSeed = trackSeeds[i];
    const seeds = { seed: reelSeed(result), ...(trackSeed ? { trackSeed } : {}) };
    if (index >= 0) return { items: pieces, winnerIndex: index, ...seeds };
    return { items: [...pieces, roulettePiece(result.item, 0)], winnerIndex: pieces.length, ...seeds };
  });
}
