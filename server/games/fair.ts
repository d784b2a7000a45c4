/**
 * Provably fair rolls (DESIGN.md rule 4).
 *
 * Before playing, the player sees hashSeed(serverSeed) = hex SHA-256 of the server seed string. Each roll
 * is derived from (serverSeed, clientSeed, nonce); once the server seed is rotated away and revealed, the
 * player can recompute every past roll and check that the seed matches the hash shown beforehand.
 *
 * The algorithm, so that a verifier (for example in the browser with WebCrypto) can re-implement it:
 *
 *   rollInt(serverSeed, clientSeed, nonce, n)  — an integer in [0, n), 1 <= n <= 2^52
 *     limit = floor(2^52 / n) * n            (the largest multiple of n not above 2^52)
 *     for round = 0, 1, 2, ...
 *       message = round == 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`
 *       digest  = hex( HMAC-SHA256(key = UTF-8 bytes of the serverSeed string as given (the 64 hex
 *                                   characters, not the bytes they encode),
 *                                  data = UTF-8 bytes of message) )   — 64 lowercase hex characters
 *       for i = 0, 1, 2, 3
 *         v = parseInt(digest.slice(13 * i, 13 * i + 13), 16)     — 52 bits, 0 <= v < 2^52
 *         if v < limit: return v mod n                            — otherwise reject v, try the next one
 *       (the last 12 hex characters of the digest are not used)
 *
 *   Rejecting v >= limit makes every result in [0, n) exactly equally likely: each residue has exactly
 *   floor(2^52 / n) accepted values. All numbers stay below 2^53, so plain JavaScript numbers are exact.
 *
 *   rollFraction(serverSeed, clientSeed, nonce) = rollInt(serverSeed, clientSeed, nonce, 2^52) / 2^52
 *     — a fraction in [0, 1) with 52 random bits (with n = 2^52 nothing is ever rejected).
 *
 *   pickWeighted(weights, r) — with r = rollInt(..., sum of weights), the index i such that
 *     weights[0] + ... + weights[i-1] <= r < weights[0] + ... + weights[i]
 *     so item i is drawn with probability exactly weights[i] / sum.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** 2^52: the size of one 13-hex-character chunk of the digest. */
export const TWO_POW_52 = 2 ** 52;

/** hex characters per chunk (13 × 4 bits = 52 bits) and chunks used per digest */
const CHUNK_HEX = 13;
const CHUNKS_PER_DIGEST = 4;

/** A fresh server seed: 32 random bytes as 64 lowercase hex characters. */
export function newServerSeed(): string {
  return randomBytes(32).toString('hex');
}

/** A fresh client seed: 16 random lowercase hex characters (8 bytes). */
export function newClientSeed(): string {
  return randomBytes(8).toString('hex');
}

/** The commitment shown to the player before playing: hex SHA-256 of the seed string (UTF-8). */
export function hashSeed(seed: string): string {
  return createHash('sha256').update(seed, 'utf8').digest('hex');
}

/** hex HMAC-SHA256 keyed with the server seed string over `${clientSeed}:${nonce}` (round 0) or `…:${round}`. */
export function rollDigest(serverSeed: string, clientSeed: string, nonce: number, round = 0): string {
  const message = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
  return createHmac('sha256', Buffer.from(serverSeed, 'utf8')).update(message, 'utf8').digest('hex');
}

function assertNonce(nonce: number): void {
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new RangeError(`nonce must be a non-negative integer`);
}

/** An unbiased integer in [0, n), 1 <= n <= 2^52, by the algorithm described at the top of this file. */
export function rollInt(serverSeed: string, clientSeed: string, nonce: number, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1 || n > TWO_POW_52) {
    throw new RangeError(`n must be an integer in [1, 2^52], got ${n}`);
  }
  assertNonce(nonce);
  const limit = Math.floor(TWO_POW_52 / n) * n;
  for (let round = 0; ; round++) {
    const digest = rollDigest(serverSeed, clientSeed, nonce, round);
    for (let i = 0; i < CHUNKS_PER_DIGEST; i++) {
      const v = parseInt(digest.slice(CHUNK_HEX * i, CHUNK_HEX * (i + 1)), 16);
      if (v < limit) return v % n;
    }
  }
}

/** A fraction in [0, 1): rollInt(..., 2^52) / 2^52. Used by the upgrade and chance wheels. */
export function rollFraction(serverSeed: string, clientSeed: string, nonce: number): number {
  return rollInt(serverSeed, clientSeed, nonce, TWO_POW_52) / TWO_POW_52;
}

/** The sum of integer drop weights; throws unless every weight is a positive safe integer. */
export function totalWeight(weights: readonly number[]): number {
  if (weights.length === 0) throw new RangeError('weights must not be empty');
  let sum = 0;
  for (const w of weights) {
    if (!Number.isSafeInteger(w) || w < 1)
      throw new RangeError(`weights must be positive integers, got ${w}`);
    sum += w;
  }
  if (!Number.isSafeInteger(sum) || sum > TWO_POW_52) throw new RangeError('total weight is too large');
  return sum;
}

/**
 * The index i whose cumulative range [w0 + … + w(i-1), w0 + … + wi) holds r.
 * r must be an integer in [0, sum of weights).
 */
export function pickWeighted(weights: readonly number[], r: number): number {
  const sum = totalWeight(weights);
  if (!Number.isSafeInteger(r) || r < 0 || r >= sum) {
    throw new RangeError(`r must be an integer in [0, ${sum}), got ${r}`);
  }
  let upper = 0;
  for (let i = 0; i < weights.length; i++) {
    upper += weights[i]!;
    if (r < upper) return i;
  }
  // unreachable: r < sum
  throw new RangeError('r is out of range');
}

/** One weighted draw: the roll in [0, total) (what the proof records) and the index it picks. */
export function rollWeighted(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  weights: readonly number[],
): { roll: number; total: number; index: number } {
  const total = totalWeight(weights);
  const roll = rollInt(serverSeed, clientSeed, nonce, total);
  return { roll, total, index: pickWeighted(weights, roll) };
}
