import { describe, expect, it } from 'vitest';
import {
  buildTrack,
  landingOffset,
  resolveConfig,
  rouletteConfig,
  stopIndex,
  trackLength,
  type RouletteItem,
} from '../../scenes/roulette/index.ts';

const item = (id: string, weight: number): RouletteItem => ({
  id,
  name: id,
  price: '1.50',
  imageUrl: `/assets/items/${id}.svg`,
  rarity: 'common',
  weight,
});
const items = [item('rose', 600), item('cake', 250), item('ring', 100), item('crown', 45), item('ton', 5)];
const plan = { items, winnerIndex: 4, seed: 'a3f1c9:7' };

describe('buildTrack', () => {
  it('is deterministic: same seed, same track; another seed, another track', () => {
    expect(buildTrack(plan)).toEqual(buildTrack({ ...plan }));
    expect(buildTrack({ ...plan, seed: 'a3f1c9:8' })).not.toEqual(buildTrack(plan));
  });

  it('holds about 200 cards, at least minCopies, with the winner at the stop index', () => {
    const track = buildTrack(plan);
    expect(track.length).toBe(200);
    expect(stopIndex(rouletteConfig)).toBe(195);
    expect(track[195]).toBe(4);
    for (const index of track)
      expect(index >= 0 && index < items.length && Number.isInteger(index)).toBe(true);

    const short = buildTrack({ ...plan, config: { targetTrackLength: 10 } });
    expect(short.length).toBe(50);
    expect(short[50 - rouletteConfig.stopFromEnd]).toBe(4);
  });

  it('puts the winner at the stop index for every seed and winner', () => {
    for (let n = 0; n < 200; n++) {
      const winnerIndex = n % items.length;
      const track = buildTrack({ ...plan, winnerIndex, seed: `seed-${n}` });
      expect(track[stopIndex(rouletteConfig)]).toBe(winnerIndex);
    }
  });

  it('shows every item at least once, even the rarest', () => {
    const rare = [item('common', 1_000_000), item('a', 1), item('b', 1), item('c', 1)];
    for (let n = 0; n < 50; n++) {
      const track = buildTrack({ items: rare, winnerIndex: 0, seed: `rare-${n}` });
      for (let i = 0; i < rare.length; i++) expect(track.includes(i)).toBe(true);
    }
  });

  it('draws cards in proportion to their weights', () => {
    const counts = new Array<number>(items.length).fill(0);
    for (let n = 0; n < 100; n++) for (const i of buildTrack({ ...plan, seed: `w-${n}` })) counts[i]! += 1;
    const total = counts.reduce((a, b) => a + b, 0);
    expect(counts[0]! / total).toBeGreaterThan(0.55);
    expect(counts[0]! / total).toBeLessThan(0.65);
    expect(counts[1]! / total).toBeGreaterThan(0.2);
    expect(counts[1]! / total).toBeLessThan(0.3);
    expect(counts[0]!).toBeGreaterThan(counts[1]!);
    expect(counts[1]!).toBeGreaterThan(counts[2]!);
    expect(counts[2]!).toBeGreaterThan(counts[3]!);
  });

  it('treats missing weights as equal', () => {
    const plain = items.map(({ weight: _weight, ...rest }) => rest);
    const counts = new Array<number>(plain.length).fill(0);
    for (let n = 0; n < 50; n++)
      for (const i of buildTrack({ items: plain, winnerIndex: 0, seed: `${n}` })) counts[i]! += 1;
    for (const count of counts) expect(count / (50 * 200)).toBeGreaterThan(0.15);
  });

  it('lays the cards out from the seed and items alone: another winner changes only the stop', () => {
    const stop = stopIndex(rouletteConfig);
    for (let n = 0; n < 50; n++) {
      const staged = buildTrack({ items, seed: 'proof', trackSeed: `stage-${n}` });
      for (let winnerIndex = 0; winnerIndex < items.length; winnerIndex++) {
        const track = buildTrack({ items, winnerIndex, seed: `proof-${n}`, trackSeed: `stage-${n}` });
        expect(track[stop]).toBe(winnerIndex);
        expect(track.filter((_, at) => at !== stop)).toEqual(staged.filter((_, at) => at !== stop));
      }
    }
    // the track seed, when given, is the one the cards follow
    expect(buildTrack({ ...plan, trackSeed: 't' })).toEqual(
      buildTrack({ ...plan, seed: 'other', trackSeed: 't' }),
    );
    expect(buildTrack({ ...plan, trackSeed: 't' })).not.toEqual(buildTrack(plan));
  });

  it('shows every weighted item before the stop, whatever lands there; a weightless one only where it lands', () => {
    const rare = [item('common', 1_000_000), item('a', 1), item('b', 1), item('gone', 0)];
    const stop = stopIndex(rouletteConfig);
    for (let n = 0; n < 50; n++) {
      const track = buildTrack({ items: rare, winnerIndex: n % 2 === 0 ? 1 : 3, seed: `cover-${n}` });
      const before = track.slice(0, stop);
      for (const i of [0, 1, 2]) expect(before).toContain(i);
      expect(before).not.toContain(3);
      expect(track.slice(stop + 1)).not.toContain(3);
    }
  });

  it('rejects a winner outside the items and an empty case', () => {
    expect(() => buildTrack({ ...plan, winnerIndex: 5 })).toThrow(RangeError);
    expect(() => buildTrack({ ...plan, winnerIndex: -1 })).toThrow(RangeError);
    expect(() => buildTrack({ items: [], winnerIndex: 0, seed: 'x' })).toThrow();
  });

  it('follows the length settings', () => {
    expect(trackLength(resolveConfig({ targetTrackLength: 2000 }))).toBe(2000);
    expect(trackLength(resolveConfig({ targetTrackLength: 20, minCopies: 50 }))).toBe(50);
    expect(stopIndex(resolveConfig({ targetTrackLength: 300, stopFromEnd: 7 }))).toBe(293);
  });
});

describe('landingOffset', () => {
  it('is deterministic and varies with the seed', () => {
    expect(landingOffset({ seed: 's:1' })).toBe(landingOffset({ seed: 's:1' }));
    expect(landingOffset({ seed: 's:1' })).not.toBe(landingOffset({ seed: 's:2' }));
  });

  it('never lands within the edge margin of a border, over many seeds', () => {
    const { itemWidth, edgeMargin } = rouletteConfig;
    const margin = itemWidth * edgeMargin;
    let min = Infinity;
    let max = -Infinity;
    for (let n = 0; n < 5000; n++) {
      const offset = landingOffset({ seed: `hash-${n}:${n * 7}` });
      min = Math.min(min, offset);
      max = Math.max(max, offset);
    }
    expect(min).toBeGreaterThanOrEqual(margin);
    expect(max).toBeLessThanOrEqual(itemWidth - margin);
    // and it uses the whole allowed span, not one spot
    expect(min).toBeLessThan(margin + 2);
    expect(max).toBeGreaterThan(itemWidth - margin - 2);
  });

  it('follows the configured width and margin', () => {
    for (let n = 0; n < 1000; n++) {
      const offset = landingOffset({ seed: `${n}`, config: { itemWidth: 90, edgeMargin: 0.25 } });
      expect(offset).toBeGreaterThanOrEqual(22.5);
      expect(offset).toBeLessThanOrEqual(67.5);
    }
  });
});
