/**
 * The provably fair roll, recomputed in the browser with WebCrypto (crypto.subtle), so a player can check
 * a past opening without trusting the server. The same algorithm as the server's (server/games/fair.ts):
 *
 *   rollInt(serverSeed, clientSeed, nonce, n), 1 <= n <= 2^52:
 *     limit = floor(2^52 / n) * n
 *     for round = 0, 1, 2, ...
 *       message = round == 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`
 *       digest  = hex HMAC-SHA256(key = UTF-8 of the server seed string, data = UTF-8 of message)
 *       for i = 0..3: v = the 13 hex characters at 13 * i (52 bits); if v < limit: return v mod n
 *
 *   pickWeighted(weights, r): the index i with w0 + … + w(i-1) <= r < w0 + … + wi
 *
 * Every function here is pure (same input, same output) and async because WebCrypto is.
 */

/** 2^52: the size of one 13-hex-character chunk of the digest. */
export const TWO_POW_52 = 2 ** 52;

const CHUNK_HEX = 13;
const CHUNKS_PER_DIGEST = 4;

const encoder = new TextEncoder();

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error('WebCrypto is not available here (it needs a secure context: https or localhost)');
  return s;
}

function toHex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** hex SHA-256 of a string's UTF-8 bytes: the commitment shown before playing. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(await subtle().digest('SHA-256', encoder.encode(text)));
}

function hmacKey(serverSeed: string): Promise<CryptoKey> {
  return subtle().importKey('raw', encoder.encode(serverSeed), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
}

async function digestWith(key: CryptoKey, clientSeed: string, nonce: number, round: number): Promise<string> {
  const message = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
  return toHex(await subtle().sign('HMAC', key, encoder.encode(message)));
}

/** hex HMAC-SHA256 keyed with the server seed over `${clientSeed}:${nonce}` (round 0) or `…:${round}`. */
export async function rollDigest(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  round = 0,
): Promise<string> {
  return digestWith(await hmacKey(serverSeed), clientSeed, nonce, round);
}

/** An unbiased integer in [0, n), 1 <= n <= 2^52. */
export async function rollInt(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  n: number,
): Promise<number> {
  if (!Number.isSafeInteger(n) || n < 1 || n > TWO_POW_52) {
    throw new RangeError(`n must be an integer in [1, 2^52], got ${n}`);
  }
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new RangeError('nonce must be a non-negative integer');
  const key = await hmacKey(serverSeed);
  const limit = Math.floor(TWO_POW_52 / n) * n;
  for (let round = 0; ; round++) {
    const digest = await digestWith(key, clientSeed, nonce, round);
    for (let i = 0; i < CHUNKS_PER_DIGEST; i++) {
      const v = parseInt(digest.slice(CHUNK_HEX * i, CHUNK_HEX * (i + 1)), 16);
      if (v < limit) return v % n;
    }
  }
}

/** A fraction in [0, 1): rollInt(..., 2^52) / 2^52. */
export async function rollFraction(serverSeed: string, clientSeed: string, nonce: number): Promise<number> {
  return (await rollInt(serverSeed, clientSeed, nonce, TWO_POW_52)) / TWO_POW_52;
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

/** The index whose cumulative weight range holds r, an integer in [0, sum of weights). */
export function pickWeighted(weights: readonly number[], r: number): number {
  const sum = totalWeight(weights);
  if (!Number.isSafeInteger(r) || r < 0 || r >= sum)
    throw new RangeError(`r must be an integer in [0, ${sum})`);
  let upper = 0;
  for (let i = 0; i < weights.length; i++) {
    upper += weights[i]!;
    if (r < upper) return i;
  }
  throw new RangeError('r is out of range');
}

/** One weighted draw: the roll in [0, total) and the index it picks. */
export async function rollWeighted(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  weights: readonly number[],
): Promise<{ roll: number; total: number; index: number }> {
  const total = totalWeight(weights);
  const roll = await rollInt(serverSeed, clientSeed, nonce, total);
  return { roll, total, index: pickWeighted(weights, roll) };
}

/** What an opening claims, and the revealed seed to check it with. */
export interface OpeningToVerify {
  serverSeed: string;
  proof: { serverSeedHash: string; clientSeed: string; nonce: number; roll: number; totalWeight: number };
  /** the item the opening gave */
  itemId: string;
  /** the case's entries in roll order (as GET /cases/{id} lists them); omit to skip the item check */
  entries?: readonly { itemId: string; weight: number }[];
}

export interface Verification {
  /** all three checks passed: the hash, the roll and the item */
  ok: boolean;
  /** sha256(serverSeed) equals the hash shown before the opening */
  hashMatches: boolean;
  /** the roll recomputed from the seeds */
  roll: number;
  /** it equals the roll the server recorded */
  rollMatches: boolean;
  /** the item the recomputed roll picks from the entries; null when it could not be checked */
  itemId: string | null;
  /** that item is the one the opening gave; null when the entries' weights no longer add up to the proof's total */
  itemMatches: boolean | null;
}

/** Recomputes an opening from its revealed server seed: the hash, the roll and the item it picks. */
export async function verifyOpening(input: OpeningToVerify): Promise<Verification> {
  const { serverSeed, proof } = input;
  const hashMatches = (await sha256Hex(serverSeed)) === proof.serverSeedHash.toLowerCase();
  const roll = await rollInt(serverSeed, proof.clientSeed, proof.nonce, proof.totalWeight);
  const rollMatches = roll === proof.roll;
  let itemId: string | null = null;
  let itemMatches: boolean | null = null;
  const entries = input.entries;
  if (entries && entries.length > 0) {
    const weights = entries.map((e) => e.weight);
    // the weights the roll was drawn over must be the ones we have (a re-tuned case no longer maps)
    if (totalWeight(weights) === proof.totalWeight) {
      itemId = entries[pickWeighted(weights, roll)]!.itemId;
      itemMatches = itemId === input.itemId;
    }
  }
  return {
    ok: hashMatches && rollMatches && itemMatches === true,
    hashMatches,
    roll,
    rollMatches,
    itemId,
    itemMatches,
  };
}

/** One HMAC round of rollInt, as shown by the public verifier. */
export interface RollRound {
  round: number;
  /** the HMAC message: `${clientSeed}:${nonce}` or `…:${round}` */
  message: string;
  digest: string;
  /** the four 13-hex-character chunks read as 52-bit integers; `accepted` marks the one taken */
  chunks: { hex: string; value: number; accepted: boolean }[];
}

/** rollInt with every step of the computation: the rounds, the limit, the integer taken and its residue. */
export async function rollIntSteps(
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  n: number,
): Promise<{ n: number; limit: number; rounds: RollRound[]; taken: number; roll: number }> {
  if (!Number.isSafeInteger(n) || n < 1 || n > TWO_POW_52) {
    throw new RangeError(`n must be an integer in [1, 2^52], got ${n}`);
  }
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new RangeError('nonce must be a non-negative integer');
  const key = await hmacKey(serverSeed);
  const limit = Math.floor(TWO_POW_52 / n) * n;
  const rounds: RollRound[] = [];
  for (let round = 0; ; round++) {
    const message = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
    const digest = await digestWith(key, clientSeed, nonce, round);
    const chunks: RollRound['chunks'] = [];
    let taken: number | null = null;
    for (let i = 0; i < CHUNKS_PER_DIGEST; i++) {
      const hex = digest.slice(CHUNK_HEX * i, CHUNK_HEX * (i + 1));
      const value = parseInt(hex, 16);
      const accepted = taken === null && value < limit;
      if (accepted) taken = value;
      chunks.push({ hex, value, accepted });
    }
    rounds.push({ round, message, digest, chunks });
    if (taken !== null) return { n, limit, rounds, taken, roll: taken % n };
  }
}

/** An upgrade succeeds when roll / 2^52 < numerator / denominator, compared exactly. */
export function upgradeSucceeds(roll: number, numerator: string, denominator: string): boolean {
  return BigInt(roll) * BigInt(denominator) < BigInt(numerator) * BigInt(TWO_POW_52);
}
