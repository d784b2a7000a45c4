/**
 * Small deterministic PRNG for scene layouts that must replay identically from a seed (no Math.random):
 * xmur3 hashes the seed string to 32 bits, mulberry32 expands it into a stream of floats in [0, 1).
 */

function xmur3(text: string): number {
  let h = 1779033703 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (h ^ (h >>> 16)) >>> 0;
}

function mulberry32(state: number): () => number {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stream of floats in [0, 1), the same for the same seed. */
export function seededRandom(seed: string): () => number {
  return mulberry32(xmur3(seed));
}

/** An index drawn with probability proportional to its weight (weights >= 0, total > 0). */
export function pickWeighted(weights: readonly number[], total: number, random: () => number): number {
  let r = random() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i] ?? 0;
    if (r < 0) return i;
  }
  // float rounding can leave r at ~0 after the last weight: fall back to the last positive one
  for (let i = weights.length - 1; i >= 0; i--) if ((weights[i] ?? 0) > 0) return i;
  return 0;
}
