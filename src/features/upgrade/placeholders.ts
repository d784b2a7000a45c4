/**
 * The spec's grid of 56 placeholder cases (spec §2, §9: "Demo cases 56 with random prices 5 to 54"), shown
 * in 'Desired gift' when the catalogue has no gift to aim at (nothing is dearer than the stake). The
 * prices are drawn once from a fixed seed, so the grid is the same on every visit and every device.
 */

export const PLACEHOLDER_COUNT = 56;
export const PLACEHOLDER_MIN_PRICE = 5;
export const PLACEHOLDER_MAX_PRICE = 54;

/** The case art the placeholders cycle through. */
const ART = ['starter', 'sweet', 'flowers', 'surfboard', 'premium', 'gems', 'royal', 'legendary', 'holiday'];

export interface PlaceholderCase {
  id: string;
  /** 1-based, for the translated name ("Case 7") */
  number: number;
  imageUrl: string;
  /** whole TON, as API amounts are written */
  price: string;
}

/** mulberry32: a small deterministic generator of fractions in [0, 1). */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function placeholderCases(seed = 56): PlaceholderCase[] {
  const next = generator(seed);
  const span = PLACEHOLDER_MAX_PRICE - PLACEHOLDER_MIN_PRICE + 1;
  return Array.from({ length: PLACEHOLDER_COUNT }, (_, i) => ({
    id: `placeholder-${i + 1}`,
    number: i + 1,
    imageUrl: `/assets/cases/${ART[i % ART.length]}.svg`,
    price: String(PLACEHOLDER_MIN_PRICE + Math.floor(next() * span)),
  }));
}

export const PLACEHOLDER_CASES: readonly PlaceholderCase[] = placeholderCases();
