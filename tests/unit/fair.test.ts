import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  hashSeed,
  newClientSeed,
  newServerSeed,
  pickWeighted,
  rollDigest,
  rollFraction,
  rollInt,
  rollWeighted,
  totalWeight,
  TWO_POW_52,
} from '../../server/games/fair.ts';
import { SEED_CASES } from '../../server/games/catalogue.ts';

const SERVER_SEED = '3f1c2a9be0d84c7e95b6a1f0c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b';
const CLIENT_SEED = 'a1b2c3d4e5f60718';

/**
 * An independent reference of the documented algorithm, written differently on purpose: BigInt chunks,
 * BigInt rejection limit, the digest taken as bytes. If it and rollInt ever disagree, one of them is wrong.
 */
function referenceRoll(serverSeed: string, clientSeed: string, nonce: number, n: number) {
  const N = BigInt(n);
  const limit = ((1n << 52n) / N) * N;
  for (let round = 0; round < 1000; round++) {
    const msg = round === 0 ? `${clientSeed}:${nonce}` : `${clientSeed}:${nonce}:${round}`;
    const bytes = createHmac('sha256', serverSeed).update(msg).digest();
    let bits = 0n;
    for (const b of bytes) bits = (bits << 8n) | BigInt(b);
    for (let i = 0; i < 4; i++) {
      const v = (bits >> BigInt(256 - 52 * (i + 1))) & ((1n << 52n) - 1n);
      if (v < limit) return { value: Number(v % N), round, chunk: i };
    }
  }
  throw new Error('no roll within 1000 rounds');
}

/** Upper tail of the chi-square distribution: Q(k/2, x/2), the regularized upper incomplete gamma. */
function chiSquarePValue(x: number, dof: number): number {
  const a = dof / 2;
  const z = x / 2;
  const lnGammaA = lnGamma(a);
  if (z < a + 1) {
    // series for P(a, z), then Q = 1 - P
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= z / (a + n);
      sum += term;
      if (term < sum * 1e-15) break;
    }
    return 1 - sum * Math.exp(-z + a * Math.log(z) - lnGammaA);
  }
  // continued fraction for Q(a, z) (modified Lentz)
  let b = z + 1 - a;
  let c = 1 / 1e-300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-z + a * Math.log(z) - lnGammaA) * h;
}

function lnGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9)
  const g = 7;
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const xx = x - 1;
  let s = c[0]!;
  for (let i = 1; i < g + 2; i++) s += c[i]! / (xx + i);
  const t = xx + g + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(s);
}

describe('seeds', () => {
  it('makes a 64-hex server seed and a 16-hex client seed, fresh each time', () => {
    const a = newServerSeed();
    const b = newServerSeed();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).not.toBe(a);
    const c = newClientSeed();
    expect(c).toMatch(/^[0-9a-f]{16}$/);
    expect(newClientSeed()).not.toBe(c);
  });

  it('hashes the seed string with SHA-256 (hex)', () => {
    // the standard SHA-256 test vector
    expect(hashSeed('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSeed(SERVER_SEED)).toBe('d559634a762143e04f10e4eb6f65ca445fcd400677064a8e914a4ad712f5626d');
    expect(hashSeed(SERVER_SEED)).toBe(createHash('sha256').update(SERVER_SEED).digest('hex'));
  });
});

describe('rollDigest', () => {
  it('is HMAC-SHA256 keyed with the server seed string over clientSeed:nonce[:round]', () => {
    // computed once with an independent HMAC tool
    expect(rollDigest(SERVER_SEED, CLIENT_SEED, 17)).toBe(
      'a566b8c7689878298918e97d51987e67ef81a938e7c1c311fa1791be6db4b005',
    );
    expect(rollDigest(SERVER_SEED, CLIENT_SEED, 17, 1)).toBe(
      'a5b6cd430f28ac1a8ce4d1889d1f186136f1c5055b2c9f02515308b0fe159763',
    );
    for (const nonce of [0, 1, 99, 123456]) {
      expect(rollDigest(SERVER_SEED, CLIENT_SEED, nonce)).toBe(
        createHmac('sha256', SERVER_SEED).update(`${CLIENT_SEED}:${nonce}`).digest('hex'),
      );
    }
  });
});

describe('rollInt', () => {
  // [nonce, n, expected]: computed once, also checked against the reference below
  const vectors: [number, number, number][] = [
    [0, 6, 3],
    [1, 100, 23],
    [2, 1_000_000, 694545],
    [3, 8554, 6951],
    [42, TWO_POW_52, 3107756173715014],
    // n just above 2^51: about half of all chunks are rejected
    [2, 2 ** 51 + 1, 1737322097982987], // first chunk rejected, second accepted
    [17, 2 ** 51 + 1, 547033130671184], // all 4 chunks of round 0 rejected; round 1, third chunk
  ];

  it.each(vectors)('nonce %i, n %i gives %i', (nonce, n, expected) => {
    expect(rollInt(SERVER_SEED, CLIENT_SEED, nonce, n)).toBe(expected);
    expect(referenceRoll(SERVER_SEED, CLIENT_SEED, nonce, n).value).toBe(expected);
  });

  it('exercises the rejection path, including a second HMAC round', () => {
    expect(referenceRoll(SERVER_SEED, CLIENT_SEED, 2, 2 ** 51 + 1)).toEqual({
      value: 1737322097982987,
      round: 0,
      chunk: 1,
    });
    expect(referenceRoll(SERVER_SEED, CLIENT_SEED, 17, 2 ** 51 + 1)).toEqual({
      value: 547033130671184,
      round: 1,
      chunk: 2,
    });
    // round 0 of nonce 17: every chunk is >= the limit (= n here, since floor(2^52 / n) = 1)
    const d = rollDigest(SERVER_SEED, CLIENT_SEED, 17);
    for (let i = 0; i < 4; i++)
      expect(parseInt(d.slice(13 * i, 13 * i + 13), 16)).toBeGreaterThanOrEqual(2 ** 51 + 1);
  });

  it('agrees with the reference over many nonces and sizes, n close to 2^52 / 1.5 included', () => {
    const sizes = [
      1,
      2,
      3,
      7,
      10,
      37,
      1000,
      8554,
      2 ** 31 - 1,
      Math.floor(TWO_POW_52 / 1.5) + 1,
      2 ** 51 + 1,
    ];
    let rejectedRounds = 0;
    for (const n of sizes) {
      for (let nonce = 0; nonce < 300; nonce++) {
        const ref = referenceRoll(SERVER_SEED, CLIENT_SEED, nonce, n);
        if (ref.round > 0) rejectedRounds++;
        expect(rollInt(SERVER_SEED, CLIENT_SEED, nonce, n)).toBe(ref.value);
      }
    }
    expect(rejectedRounds).toBeGreaterThan(0);
  });

  it('is deterministic and depends on every input', () => {
    const a = rollInt(SERVER_SEED, CLIENT_SEED, 5, 1_000_000_007);
    expect(rollInt(SERVER_SEED, CLIENT_SEED, 5, 1_000_000_007)).toBe(a);
    expect(rollInt(SERVER_SEED, CLIENT_SEED, 6, 1_000_000_007)).not.toBe(a);
    expect(rollInt(SERVER_SEED, 'other', 5, 1_000_000_007)).not.toBe(a);
    expect(rollInt(newServerSeed(), CLIENT_SEED, 5, 1_000_000_007)).not.toBe(a);
  });

  it('stays in [0, n)', () => {
    expect(rollInt(SERVER_SEED, CLIENT_SEED, 0, 1)).toBe(0);
    for (let nonce = 0; nonce < 200; nonce++) {
      const v = rollInt(SERVER_SEED, CLIENT_SEED, nonce, 3);
      expect(Number.isInteger(v) && v >= 0 && v < 3).toBe(true);
    }
  });

  it('rejects bad arguments', () => {
    for (const n of [0, -1, 1.5, TWO_POW_52 + 1, Number.NaN]) {
      expect(() => rollInt(SERVER_SEED, CLIENT_SEED, 0, n)).toThrow(RangeError);
    }
    for (const nonce of [-1, 0.5, Number.NaN]) {
      expect(() => rollInt(SERVER_SEED, CLIENT_SEED, nonce, 10)).toThrow(RangeError);
    }
  });
});

describe('rollFraction', () => {
  it('is rollInt over 2^52 divided by 2^52', () => {
    expect(rollFraction(SERVER_SEED, CLIENT_SEED, 7)).toBe(4371750131728454 / TWO_POW_52);
    expect(rollFraction(SERVER_SEED, CLIENT_SEED, 7)).toBeCloseTo(0.9707235308305981, 15);
    for (let nonce = 0; nonce < 100; nonce++) {
      const f = rollFraction(SERVER_SEED, CLIENT_SEED, nonce);
      expect(f).toBe(referenceRoll(SERVER_SEED, CLIENT_SEED, nonce, TWO_POW_52).value / TWO_POW_52);
      expect(f >= 0 && f < 1).toBe(true);
    }
  });
});

describe('pickWeighted', () => {
  it('maps the whole range [0, sum) onto exactly weight_i values per index', () => {
    const weights = [3, 1, 4, 1, 5, 9, 2, 6];
    const sum = totalWeight(weights);
    expect(sum).toBe(31);
    const hits = weights.map(() => 0);
    let previous = 0;
    for (let r = 0; r < sum; r++) {
      const i = pickWeighted(weights, r);
      expect(i).toBeGreaterThanOrEqual(previous); // cumulative ranges, in order
      previous = i;
      hits[i]!++;
    }
    expect(hits).toEqual(weights);
  });

  it('puts the boundaries where the cumulative sums are', () => {
    const weights = [2, 3, 5];
    expect([0, 1, 2, 4, 5, 9].map((r) => pickWeighted(weights, r))).toEqual([0, 0, 1, 1, 2, 2]);
    expect(pickWeighted([1], 0)).toBe(0);
  });

  it('rejects r outside [0, sum) and weights that are not positive integers', () => {
    expect(() => pickWeighted([2, 3], 5)).toThrow(RangeError);
    expect(() => pickWeighted([2, 3], -1)).toThrow(RangeError);
    expect(() => pickWeighted([2, 3], 1.5)).toThrow(RangeError);
    expect(() => pickWeighted([], 0)).toThrow(RangeError);
    expect(() => pickWeighted([2, 0], 0)).toThrow(RangeError);
    expect(() => pickWeighted([2, 1.5], 0)).toThrow(RangeError);
  });
});

describe('distribution over a real case', () => {
  it('10^6 rolls match the drop weights (chi-square, p > 1e-6)', { timeout: 120_000 }, () => {
    const starter = SEED_CASES.find((c) => c.id === 'starter')!;
    const weights = starter.items.map((i) => i.weight);
    const total = totalWeight(weights);
    const rolls = 1_000_000;
    const counts = weights.map(() => 0);
    for (let nonce = 0; nonce < rolls; nonce++) {
      counts[rollWeighted(SERVER_SEED, CLIENT_SEED, nonce, weights).index]!++;
    }
    let chi2 = 0;
    weights.forEach((w, i) => {
      const expected = (rolls * w) / total;
      chi2 += (counts[i]! - expected) ** 2 / expected;
    });
    const p = chiSquarePValue(chi2, weights.length - 1);
    expect(p).toBeGreaterThan(1e-6);
    // and the bound is a real one: a 2% tilt towards the first item would fail it
    let tilted = 0;
    weights.forEach((w, i) => {
      const expected = (rolls * w) / total;
      const observed = i === 0 ? counts[i]! * 1.02 : counts[i]!;
      tilted += (observed - expected) ** 2 / expected;
    });
    expect(chiSquarePValue(tilted, weights.length - 1)).toBeLessThan(1e-6);
  });

  it('the chi-square tail is computed correctly', () => {
    // known quantiles: P(X > 16.919) = 0.05 for 9 degrees of freedom; P(X > 3.841) = 0.05 for 1
    expect(chiSquarePValue(16.919, 9)).toBeCloseTo(0.05, 4);
    expect(chiSquarePValue(3.841, 1)).toBeCloseTo(0.05, 3);
    expect(chiSquarePValue(2, 2)).toBeCloseTo(Math.exp(-1), 10);
  });
});
