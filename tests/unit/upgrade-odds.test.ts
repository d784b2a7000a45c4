import { describe, expect, it } from 'vitest';
import { UPGRADE_MULTIPLIERS } from '../../contract/upgrade.ts';
import { loadConfig } from '../../server/config.ts';
import { SEED_ITEMS } from '../../server/games/catalogue.ts';
import type { ItemRow } from '../../server/games/cases.ts';
import { newClientSeed, newServerSeed, rollFraction, TWO_POW_52 } from '../../server/games/fair.ts';
import {
  baseChancePpm,
  chanceValue,
  chooseTargets,
  coefTenths,
  drawUpgrade,
  insideChance,
  isUpgradeMultiplier,
  upgradeChance,
} from '../../server/games/upgrade.ts';
import { formatChance, upgradeChance as wheelChance } from '../../scenes/chance-wheel/chance.ts';

const BASE = 0.39;
const BASE_PPM = baseChancePpm(BASE);
const TON = 1_000_000_000n;
/** the chance of aiming a 2 TON stake at a gift worth exactly stake × coef */
const atCoef = (coef: number) => upgradeChance(BASE_PPM, 2n * TON, (2n * TON * BigInt(coef * 10)) / 10n);

describe('the upgrade chance', () => {
  it('is baseChance × stake ÷ target exactly: baseChance / coef for a target worth stake × coef', () => {
    const expected: Record<number, [number, number]> = {
      1.5: [13, 50],
      2: [39, 200],
      3: [13, 100],
      5: [39, 500],
      10: [39, 1000],
      20: [39, 2000],
    };
    for (const coef of UPGRADE_MULTIPLIERS) {
      const chance = atCoef(coef);
      expect([chance.numerator, chance.denominator], `x${coef}`).toEqual(expected[coef]!.map(BigInt));
      expect(chanceValue(chance)).toBeCloseTo(BASE / coef, 15);
      // the wheel shows the same chance the server plays
      expect(formatChance(chanceValue(chance))).toBe(formatChance(wheelChance(BASE, coef)));
    }
    expect(formatChance(chanceValue(atCoef(1.5)))).toBe('26.0%');
    expect(formatChance(chanceValue(atCoef(20)))).toBe('2.0%');
    // real prices: 0.39 × 0.25 / 0.35, reduced
    expect(upgradeChance(BASE_PPM, TON / 4n, (35n * TON) / 100n)).toEqual({
      numerator: 39n,
      denominator: 140n,
    });
    // exact at any size: a 10^9 TON target against a 1 nanoTON stake
    const tiny = upgradeChance(BASE_PPM, 1n, 10n ** 18n);
    expect(tiny).toEqual({ numerator: 39n, denominator: 10n ** 20n });
    // only a dearer target is a target: the chance stays below the base chance, so below 1
    expect(() => upgradeChance(BASE_PPM, TON, TON)).toThrow(RangeError);
    expect(() => upgradeChance(1_000_000, 2n * TON, TON)).toThrow(RangeError);
  });

  it('gives every target the same expected return, base × stake, within 1e-6 over the catalogue', () => {
    const prices = [...new Set(SEED_ITEMS.map((i) => i.priceNano))].sort((a, b) => (a < b ? -1 : 1));
    let pairs = 0;
    for (const stake of prices) {
      for (const target of prices) {
        if (target <= stake) continue;
        const c = upgradeChance(BASE_PPM, stake, target);
        // expected return as a share of the stake: chance × target / stake
        const share = (chanceValue(c) * Number(target)) / Number(stake);
        expect(Math.abs(share - BASE), `${stake} → ${target}`).toBeLessThan(1e-6);
        // and exactly, in integers: numerator × target × 10^6 = denominator × stake × ppm
        expect(c.numerator * target * 1_000_000n).toBe(c.denominator * stake * BigInt(BASE_PPM));
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(100);
  });

  it('accepts only the six multipliers', () => {
    for (const coef of UPGRADE_MULTIPLIERS) expect(isUpgradeMultiplier(coef)).toBe(true);
    for (const bad of [0, 1, 4, 1.49, 2.0000001, -2, NaN, Infinity, '2', null, undefined]) {
      expect(isUpgradeMultiplier(bad), String(bad)).toBe(false);
    }
    expect(UPGRADE_MULTIPLIERS.map((c) => coefTenths(c))).toEqual([15, 20, 30, 50, 100, 200]);
  });

  it('takes a base chance in (0, 1] with at most 6 decimals', () => {
    expect(baseChancePpm(0.39)).toBe(390_000);
    expect(baseChancePpm(1)).toBe(1_000_000);
    expect(baseChancePpm(0.000001)).toBe(1);
    for (const bad of [0, -0.1, 1.01, 0.1234567, NaN])
      expect(() => baseChancePpm(bad), String(bad)).toThrow();
  });

  it('is configured by UPGRADE_BASE_CHANCE, 0.39 by default', () => {
    expect(loadConfig({}).upgradeBaseChance).toBe(0.39);
    expect(loadConfig({ UPGRADE_BASE_CHANCE: '0.5' }).upgradeBaseChance).toBe(0.5);
    for (const bad of ['0', '1.5', '0.1234567', 'abc', '-0.2']) {
      expect(() => loadConfig({ UPGRADE_BASE_CHANCE: bad }), bad).toThrow(/UPGRADE_BASE_CHANCE|non-negative/);
    }
  });

  it('compares the roll with the chance in integers, edges included', () => {
    const chance = atCoef(1.5); // 13/50
    // the largest 52-bit roll strictly below 13/50 of 2^52, and the first one at or above it
    const edge = Math.ceil((13 * TWO_POW_52) / 50);
    expect(BigInt(edge) * 50n >= 13n * BigInt(TWO_POW_52)).toBe(true);
    expect(BigInt(edge - 1) * 50n < 13n * BigInt(TWO_POW_52)).toBe(true);
    expect(insideChance(edge - 1, chance)).toBe(true);
    expect(insideChance(edge, chance)).toBe(false);
    expect(insideChance(0, chance)).toBe(true);
    expect(insideChance(TWO_POW_52 - 1, chance)).toBe(false);
    expect(insideChance(TWO_POW_52 - 1, { numerator: 1n, denominator: 1n })).toBe(true);
  });

  it('rolls the same fraction as rollFraction, so a revealed seed verifies it', () => {
    for (let i = 0; i < 200; i++) {
      const server = newServerSeed();
      const client = newClientSeed();
      const draw = drawUpgrade(server, client, i, atCoef(2));
      expect(draw.rolled).toBe(rollFraction(server, client, i));
      expect(draw.roll).toBe(draw.rolled * TWO_POW_52);
      expect(draw.success).toBe(draw.rolled < BASE / 2);
    }
  });
});

describe('the upgrade odds', () => {
  // 10^4 rolls at each multiplier, each batch of 500 on a fresh random seed pair. The successes are
  // binomial(n, p): the count must lie within 4.5 standard deviations of n·p (a false alarm about once in
  // 150,000 runs per multiplier), which is far tighter than any mistake in the chance would pass.
  const N = 10_000;
  const BATCH = 500;
  const SIGMAS = 4.5;

  for (const coef of UPGRADE_MULTIPLIERS) {
    it(`succeeds at ${BASE} / ${coef} over ${N} rolls`, () => {
      const chance = atCoef(coef);
      const p = chanceValue(chance);
      let successes = 0;
      let server = '';
      let client = '';
      for (let i = 0; i < N; i++) {
        if (i % BATCH === 0) {
          server = newServerSeed();
          client = newClientSeed();
        }
        if (drawUpgrade(server, client, i % BATCH, chance).success) successes++;
      }
      const mean = N * p;
      const sd = Math.sqrt(N * p * (1 - p));
      expect(
        Math.abs(successes - mean),
        `${successes} successes, expected ${mean.toFixed(0)} ± ${sd.toFixed(1)}`,
      ).toBeLessThan(SIGMAS * sd);
    });
  }
});

describe('upgrade targets', () => {
  const items: ItemRow[] = SEED_ITEMS.map((i) => ({
    id: i.id,
    name: i.name,
    name_ru: i.nameRu,
    price_nano: i.priceNano,
    rarity: i.rarity,
    image_url: i.imageUrl,
    created_at: new Date(0),
    updated_at: new Date(0),
  }));
  const byId = (id: string) => items.find((i) => i.id === id)!;

  it('defaults to the dearer item closest to stake × coef, the cheaper one on a tie', () => {
    // lollipop 0.1 × 1.5 = 0.15: the candle exactly
    expect(chooseTargets(items, byId('lollipop'), 1.5).defaultTarget?.id).toBe('candle');
    // candle 0.15 × 1.5 = 0.225: pink flower 0.2 and clover 0.25 are as close; the cheaper wins
    expect(chooseTargets(items, byId('candle'), 1.5).defaultTarget?.id).toBe('flower_pink');
    // ton_stack 5 × 1.5 = 7.5: potion 8 is closer than champagne 6 (the default may cost a little more)
    expect(chooseTargets(items, byId('ton_stack'), 1.5).defaultTarget?.id).toBe('potion');
    // sports car 500 × 1.5 = 750: only the yacht is dearer
    expect(chooseTargets(items, byId('sports_car'), 1.5).defaultTarget?.id).toBe('yacht');
    // nothing is dearer than the yacht
    expect(chooseTargets(items, byId('yacht'), 20)).toEqual({ defaultTarget: null, targets: [] });
  });

  it('lists the default first, then the dearer items up to stake × coef, closest first', () => {
    const { targets } = chooseTargets(items, byId('ton_stack'), 1.5);
    expect(targets.map((t) => t.id)).toEqual(['potion', 'champagne']);
    const cake = chooseTargets(items, byId('cake'), 3); // 2 × 3 = 6
    expect(cake.targets.map((t) => t.id)).toEqual([
      'champagne',
      'ton_stack',
      'surfboard',
      'gift_box',
      'bouquet',
      'teddy_bear',
      'xmas_tree',
    ]);
    for (const coef of UPGRADE_MULTIPLIERS) {
      for (const stake of items) {
        const { defaultTarget, targets } = chooseTargets(items, stake, coef);
        if (!defaultTarget) continue;
        expect(targets[0]).toBe(defaultTarget);
        for (const t of targets) expect(t.price_nano > stake.price_nano).toBe(true);
        for (const t of targets.slice(1))
          expect(t.price_nano * 10n <= stake.price_nano * BigInt(coefTenths(coef))).toBe(true);
      }
    }
  });
});
