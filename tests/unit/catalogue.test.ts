import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  buildCatalogue,
  expectedValueNano,
  RTP_TOLERANCE,
  SEED_CASES,
  SEED_ITEMS,
  SEED_ITEMS_BY_ID,
  type SeedCase,
} from '../../server/games/catalogue.ts';
import { NANO_PER_TON } from '../../contract/money.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'];

/** EV / price in parts per million, exactly (floor). */
const ratioPpm = (c: SeedCase) => Number((expectedValueNano(c, SEED_ITEMS_BY_ID) * 1_000_000n) / c.priceNano);

describe('items', () => {
  it('has at least 30 items with unique ids, names, positive nanoTON prices and rarities', () => {
    expect(SEED_ITEMS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(SEED_ITEMS.map((i) => i.id)).size).toBe(SEED_ITEMS.length);
    for (const item of SEED_ITEMS) {
      expect(item.id).toMatch(/^[a-z0-9_]+$/);
      expect(item.name.trim()).not.toBe('');
      expect(typeof item.priceNano).toBe('bigint');
      expect(item.priceNano).toBeGreaterThan(0n);
      expect(RARITIES).toContain(item.rarity);
      expect(item.imageUrl).toBe(`/assets/items/${item.id}.svg`);
    }
  });

  it('includes the ids the spec maps', () => {
    for (const id of ['flower_pink', 'ton_balance', 'nft_1', 'nft_2'])
      expect(SEED_ITEMS_BY_ID.has(id)).toBe(true);
    expect(SEED_ITEMS_BY_ID.get('flower_pink')!.name).toBe('Pink Flower');
    expect(SEED_ITEMS_BY_ID.get('ton_balance')!.name).toBe('TON Balance');
    expect(SEED_ITEMS_BY_ID.get('nft_1')!.name).toBe('NFT Gift #1');
    expect(SEED_ITEMS_BY_ID.get('nft_2')!.name).toBe('NFT Gift #2');
  });

  it('every item drops from some case', () => {
    const used = new Set(SEED_CASES.flatMap((c) => c.items.map((i) => i.itemId)));
    for (const item of SEED_ITEMS) expect(used.has(item.id), item.id).toBe(true);
  });
});

describe('cases', () => {
  it('has at least 8 cases with unique ids and positions, including the ids the spec maps', () => {
    expect(SEED_CASES.length).toBeGreaterThanOrEqual(8);
    expect(new Set(SEED_CASES.map((c) => c.id)).size).toBe(SEED_CASES.length);
    expect(new Set(SEED_CASES.map((c) => c.position)).size).toBe(SEED_CASES.length);
    const ids = SEED_CASES.map((c) => c.id);
    for (const id of ['starter', 'premium', 'surfboard', 'legendary']) expect(ids).toContain(id);
  });

  it('each case has a name, description, price, image and 6 to 12 known items with positive integer weights', () => {
    for (const c of SEED_CASES) {
      expect(c.name.trim()).not.toBe('');
      expect(c.description.trim()).not.toBe('');
      expect(c.priceNano).toBeGreaterThan(0n);
      expect(c.imageUrl).toBe(`/assets/cases/${c.id}.svg`);
      expect(c.items.length).toBeGreaterThanOrEqual(6);
      expect(c.items.length).toBeLessThanOrEqual(12);
      expect(new Set(c.items.map((i) => i.itemId)).size).toBe(c.items.length);
      for (const { itemId, weight } of c.items) {
        expect(SEED_ITEMS_BY_ID.has(itemId), `${c.id}: ${itemId}`).toBe(true);
        expect(Number.isSafeInteger(weight) && weight >= 1, `${c.id}: ${itemId} weight ${weight}`).toBe(true);
      }
    }
  });

  it('has a locked case and an unlocked, active case over 50 TON (High Roller)', () => {
    expect(SEED_CASES.some((c) => c.isLocked)).toBe(true);
    expect(SEED_CASES.find((c) => c.id === 'legendary')!.isLocked).toBe(true);
    expect(SEED_CASES.some((c) => c.isActive && !c.isLocked && c.priceNano > 50n * NANO_PER_TON)).toBe(true);
  });

  it('every case ranges from cheap to valuable; Lucky Strike (an item worth 5x the case) is reachable', () => {
    for (const c of SEED_CASES) {
      const prices = c.items.map((i) => SEED_ITEMS_BY_ID.get(i.itemId)!.priceNano);
      expect(prices.some((p) => p < c.priceNano)).toBe(true);
      expect(
        prices.some((p) => p >= 5n * c.priceNano),
        c.id,
      ).toBe(true);
    }
  });
});

describe('expected value', () => {
  it('is floor(sum(weight * price) / sum(weights))', () => {
    const c: SeedCase = {
      ...SEED_CASES[0]!,
      items: [
        { itemId: 'lollipop', weight: 2 }, // 0.1 TON
        { itemId: 'ton_balance', weight: 1 }, // 1 TON
      ],
    };
    // (2 * 0.1 + 1) / 3 = 0.4 TON
    expect(expectedValueNano(c, SEED_ITEMS_BY_ID)).toBe(400_000_000n);
    const odd: SeedCase = {
      ...c,
      items: [
        { itemId: 'lollipop', weight: 1 },
        { itemId: 'candle', weight: 2 },
      ],
    };
    // (0.1 + 0.3) / 3 = 0.1333… TON, floored
    expect(expectedValueNano(odd, SEED_ITEMS_BY_ID)).toBe(133_333_333n);
  });

  it.each([0.9, 0.8])('is within %s ± 0.005 of each case price', (rtp) => {
    for (const c of buildCatalogue(rtp)) {
      expect(Math.abs(ratioPpm(c) / 1e6 - rtp), `${c.id} at rtp ${rtp}`).toBeLessThan(RTP_TOLERANCE);
    }
  });

  it('the default catalogue is built at 0.9, and building is deterministic', () => {
    expect(buildCatalogue()).toEqual(SEED_CASES);
    expect(buildCatalogue(0.9)).toEqual(buildCatalogue(0.9));
  });

  it('reaches other shares too, and refuses one no case can reach', () => {
    for (const rtp of [0.5, 0.7, 0.95, 0.98, 1]) {
      for (const c of buildCatalogue(rtp))
        expect(Math.abs(ratioPpm(c) / 1e6 - rtp)).toBeLessThan(RTP_TOLERANCE);
    }
    expect(() => buildCatalogue(0.01)).toThrow(RangeError);
    expect(() => buildCatalogue(50)).toThrow(RangeError);
    expect(() => buildCatalogue(Number.NaN)).toThrow(RangeError);
  });
});

describe('art', () => {
  const svgFiles = [...SEED_ITEMS.map((i) => i.imageUrl), ...SEED_CASES.map((c) => c.imageUrl)];

  it.each(svgFiles)('%s exists, is a small 128×128 SVG', (url) => {
    const file = repoRoot + url.replace(/^\//, '');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBeLessThan(3 * 1024);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 128"')).toBe(true);
    expect(text.trimEnd().endsWith('</svg>')).toBe(true);
  });

  it('has a 180×180 PNG app icon and a license', () => {
    const png = readFileSync(repoRoot + 'assets/icon-180.png');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(180);
    expect(png.readUInt32BE(20)).toBe(180);
    expect(existsSync(repoRoot + 'assets/LICENSE.md')).toBe(true);
  });
});
