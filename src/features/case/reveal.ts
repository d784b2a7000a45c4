import type { Rarity } from '../../../contract/cases.ts';
import { parseTon } from '../../../contract/money.ts';
import type { RevealTier } from '../../../scenes/win-reveal';

/** Each rarity's colour (the same as the case page's --rarity-* colours), for the reveal's glow and sparks. */
export const RARITY_COLORS: Record<Rarity, number> = {
  common: 0x8b93a7,
  uncommon: 0x4cc38a,
  rare: 0x3d8bfd,
  epic: 0xa35cf0,
  legendary: 0xf5a524,
};

const RARITY_TIER: Record<Rarity, RevealTier> = { common: 0, uncommon: 1, rare: 2, epic: 3, legendary: 4 };

/** Value tiers by what the item is worth against what was paid: under 1×, 1×, 2×, 5×, 20× and more. */
const VALUE_STEPS = [1, 2, 5, 20] as const;

/** A TON amount as nanoTON: a decimal string as the API speaks it, or already nanoTON. */
const nano = (amount: string | bigint) => (typeof amount === 'bigint' ? amount : parseTon(amount));

/**
 * What a win is worth against what was paid for it (item price ÷ case price), or null when nothing was paid
 * (a free case). Exact to 1/1000: both are nanoTON.
 */
export function winMultiplier(itemPrice: string | bigint, paid: string | bigint): number | null {
  const p = nano(paid);
  if (p <= 0n) return null;
  return Number((nano(itemPrice) * 1000n) / p) / 1000;
}

/** How big a win looks: its rarity's tier or its value's tier against the price, whichever is higher. */
export function revealTier(rarity: Rarity, itemPrice: string | bigint, paid: string | bigint): RevealTier {
  const multiplier = winMultiplier(itemPrice, paid) ?? 0;
  const byValue = VALUE_STEPS.filter((step) => multiplier >= step).length as RevealTier;
  return Math.max(RARITY_TIER[rarity], byValue) as RevealTier;
}

/** The multiplier worth a badge (2× and more), or null: a win under twice the price needs none. */
export function badgeMultiplier(itemPrice: string | bigint, paid: string | bigint): number | null {
  const multiplier = winMultiplier(itemPrice, paid);
  return multiplier !== null && multiplier >= 2 ? multiplier : null;
}

/** A multiplier as the locale writes it: ×2.5, ×12, ×1 234 (one decimal under 10). */
export function formatMultiplier(multiplier: number, language: string): string {
  const digits = multiplier < 10 ? 1 : 0;
  return `×${new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(multiplier)}`;
}
