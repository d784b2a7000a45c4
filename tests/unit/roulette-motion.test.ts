import { describe, expect, it } from 'vitest';
import {
  buildTrack,
  crossings,
  landingOffset,
  motion,
  KEYFRAME_MAX_MS,
  reelMotion,
  reelStrip,
  rouletteConfig,
  stopIndex,
  type RouletteItem,
} from '../../scenes/roulette/index.ts';
import { cubicBezier, parseEase } from '../../scenes/shared/easing.ts';
import { linearEasing } from '../../scenes/shared/linear-easing.ts';
import { seededRandom } from '../../scenes/shared/random.ts';

const items: RouletteItem[] = ['a', 'b', 'c', 'd'].map((id, i) => ({
  id,
  name: id,
  price: `${i}.25`,
  imageUrl: `/${id}.svg`,
  rarity: 'rare',
  weight: 4 - i,
}));

describe('motion', () => {
  it('puts the landing point exactly under the marker at the end, for many widths, seeds and layouts', () => {
    const random = seededRandom('motion-cases');
    for (let n = 0; n < 300; n++) {
      const widthPx = 240 + Math.floor(random() * 900);
      const config = {
        itemWidth: 60 + Math.floor(random() * 120),
        cardGap: Math.floor(random() * 16),
        targetTrackLength: 100 + Math.floor(random() * 400),
        ease: n % 2 ? 'expo.out' : 'cubic-bezier(0.12, 0.8, 0.2, 1)',
      };
      const winnerIndex = n % items.length;
      const plan = {
        items,
        winnerIndex,
        seed: `${n}:${random()}`,
        widthPx,
        config,
        reducedMotion: n % 5 === 0,
      };
      const reel = reelMotion(plan);
      const resolved = { ...rouletteConfig, ...config };
      const stop = stopIndex(resolved);
      const landingPoint = stop * (config.itemWidth + config.cardGap) + landingOffset(plan);

      const end = motion(reel, reel.durationMs);
      expect(end.done).toBe(true);
      expect(end.progress).toBe(1);
      expect(end.x + widthPx / 2).toBeCloseTo(landingPoint, 9);
      expect(end.index).toBe(stop);
      expect(buildTrack(plan)[end.index]).toBe(winnerIndex);
    }
  });

  it('takes durationMs, or the reduced-motion duration and a short distance', () => {
    const plan = { items, winnerIndex: 1, seed: 'd', widthPx: 400 };
    const normal = reelMotion(plan);
    expect(normal.durationMs).toBe(10_000);
    expect(normal.startX).toBe(0);
    expect(motion(normal, 9_999).done).toBe(false);

    const reduced = reelMotion({ ...plan, reducedMotion: true });
    expect(reduced.durationMs).toBe(3_000);
    expect(reduced.finalX).toBe(normal.finalX);
    expect(reduced.finalX - reduced.startX).toBeCloseTo(rouletteConfig.reducedMotionCards * 138, 9);
    expect(motion(reduced, 3_000).done).toBe(true);
  });

  it('starts at startX, never moves backwards and holds still after the end', () => {
    for (const ease of ['power4.out', 'expo.out', 'cubic-bezier(0.2, 0.9, 0.1, 1)', 'none']) {
      const reel = reelMotion({ seed: ease, widthPx: 375, config: { ease } });
      expect(motion(reel, -500).x).toBe(reel.startX);
      expect(motion(reel, 0).x).toBe(reel.startX);
      let previous = -Infinity;
      for (let t = 0; t <= reel.durationMs; t += 7) {
        const { x } = motion(reel, t);
        expect(x).toBeGreaterThanOrEqual(previous);
        previous = x;
      }
      expect(motion(reel, reel.durationMs * 0.5).x).toBeLessThan(reel.finalX);
      for (const t of [reel.durationMs, reel.durationMs + 1, 60_000]) {
        const pose = motion(reel, t);
        expect(pose.x).toBe(reel.finalX);
        expect(pose.done).toBe(true);
        expect(pose.progress).toBe(1);
      }
    }
  });

  it('follows the ease: linear is half way at half time, power4.out far ahead', () => {
    const linear = reelMotion({ seed: 'e', widthPx: 500, config: { ease: 'none' } });
    expect(motion(linear, 5_000).x).toBeCloseTo(linear.finalX / 2, 9);
    const power4 = reelMotion({ seed: 'e', widthPx: 500 });
    expect(motion(power4, 5_000).x).toBeCloseTo(power4.finalX * (1 - 0.5 ** 5), 6);
  });

  it('reports the card under the marker', () => {
    const reel = reelMotion({ seed: 'i', widthPx: 276, config: { ease: 'none' } });
    // at x = 0 the marker (138 px) sits exactly on the left edge of card 1 (pitch 138)
    expect(motion(reel, 0).index).toBe(1);
    const pose = motion(reel, 4_321);
    expect(pose.index).toBe(Math.floor((pose.x + 138) / 138));
  });
});

describe('crossings', () => {
  it('lists each card passing the marker exactly once, in order, frame by frame', () => {
    const reel = reelMotion({ seed: 'ticks', widthPx: 390 });
    const seen: number[] = [];
    let last = 0;
    for (let t = 16; t <= reel.durationMs + 100; t += 16.7) {
      seen.push(...crossings(reel, last, t));
      last = t;
    }
    const first = motion(reel, 0).index;
    expect(seen).toEqual(Array.from({ length: reel.stopIndex - first }, (_, k) => first + 1 + k));
  });

  it('counts the left edges between two times on a linear reel', () => {
    const reel = reelMotion({ seed: 'lin', widthPx: 276, config: { ease: 'none' } });
    const speed = reel.finalX / reel.durationMs;
    // marker at track point 138 + x: card 2 starts at 276, card 3 at 414
    const at = (point: number) => (point - 138) / speed;
    expect(crossings(reel, 0, at(276) - 0.01)).toEqual([]);
    expect(crossings(reel, 0, at(276) + 0.01)).toEqual([2]);
    expect(crossings(reel, at(276) + 0.01, at(414 + 138 * 3) + 0.01)).toEqual([3, 4, 5, 6]);
    expect(crossings(reel, 5_000, 5_000)).toEqual([]);
    expect(crossings(reel, 6_000, 5_000)).toEqual([]);
    expect(crossings(reel, reel.durationMs, reel.durationMs + 1_000)).toEqual([]);
  });
});

describe('parseEase', () => {
  it('reads gsap names and cubic-bezier, and falls back to linear', () => {
    expect(parseEase('power4.out')(0.5)).toBeCloseTo(1 - 0.5 ** 5, 12);
    expect(parseEase('cubic-bezier(0, 0, 1, 1)')(0.3)).toBeCloseTo(0.3, 9);
    expect(parseEase('no-such-ease')(0.3)).toBe(0.3);
  });

  it('matches a CSS ease-out curve and stays monotonic', () => {
    const ease = cubicBezier(0, 0, 0.58, 1);
    expect(ease(0)).toBe(0);
    expect(ease(1)).toBe(1);
    // at bezier parameter s = 0.5: x = 3(0.5)(0.25)(0.58) + 0.125 and y = 3(0.5)(0.25)(1) + 0.125 = 0.5
    expect(ease(3 * 0.5 * 0.25 * 0.58 + 0.125)).toBeCloseTo(0.5, 9);
    expect(ease(0.5)).toBeGreaterThan(0.6);
    let previous = 0;
    for (let p = 0; p <= 1; p += 0.0005) {
      const value = ease(p);
      expect(value).toBeGreaterThanOrEqual(previous);
      previous = value;
    }
  });
});

describe('reelStrip (a spin handed to the page compositor)', () => {
  it('carries its curve as a CSS easing: the keyframes’ own, one string for every spin of a width', () => {
    const easings = new Set<string | null>();
    for (let n = 0; n < 20; n++) {
      const reel = reelMotion({ seed: `easing:${n}`, widthPx: 390 });
      const { keyframes, easing } = reelStrip(reel, 200, 390);
      easings.add(easing);
      const own = linearEasing(keyframes, (k) => k.x)!;
      const numbers = (text: string) => text.match(/[\d.]+/g)!.map(Number);
      expect(easing).toMatch(/^linear\(0 0%, /);
      const [made, expected] = [numbers(easing!), numbers(own)];
      expect(made).toHaveLength(expected.length);
      made.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, 4));
    }
    expect(easings.size).toBe(1);
  });

  it('keyframes the scroll within a fraction of a pixel of motion() and ends exactly on the landing', () => {
    const random = seededRandom('strip-cases');
    for (let n = 0; n < 40; n++) {
      const widthPx = 240 + Math.floor(random() * 900);
      const config = {
        ease: n % 2 ? 'power4.out' : 'cubic-bezier(0.1, 0, 0.2, 1)',
        durationMs: 4000 + n * 150,
      };
      const reel = reelMotion({ seed: `strip:${n}`, widthPx, config, reducedMotion: n % 5 === 0 });
      const { keyframes } = reelStrip(reel, 200, widthPx);
      expect(keyframes[0]).toEqual({ t: 0, x: reel.startX });
      expect(keyframes.at(-1)).toEqual({ t: reel.durationMs, x: reel.finalX });
      for (let k = 1; k < keyframes.length; k++) {
        const [a, b] = [keyframes[k - 1]!, keyframes[k]!];
        expect(b.t - a.t).toBeLessThanOrEqual(KEYFRAME_MAX_MS + 1e-9);
        expect(b.x).toBeGreaterThanOrEqual(a.x);
        // halfway between two keyframes, the straight piece stays within half a pixel of the curve
        const mid = (a.t + b.t) / 2;
        expect(Math.abs((a.x + b.x) / 2 - motion(reel, mid).x)).toBeLessThan(0.5);
      }
      // dense where the reel is fast, sparse where it crawls
      const tail = keyframes.filter((k) => k.t > reel.durationMs * 0.75);
      expect(tail.length).toBeLessThan(keyframes.length / 4);
    }
  });

  it('holds the same cards for every landing of a width, so a strip staged before the answer fits the play', () => {
    for (const reducedMotion of [false, true]) {
      for (const widthPx of [320, 390, 430]) {
        const cardSets = new Set<string>();
        for (let n = 0; n < 40; n++) {
          const reel = reelMotion({ seed: `landing:${n}`, widthPx, reducedMotion });
          cardSets.add(JSON.stringify(reelStrip(reel, 200, widthPx).cards));
        }
        expect(cardSets.size).toBe(1);
      }
    }
  });

  it('holds every card that is ever on screen, in track order, and no other', () => {
    const widthPx = 390;
    const reel = reelMotion({ seed: 'cards', widthPx, config: {}, reducedMotion: false });
    const length = stopIndex(rouletteConfig) + 5;
    const { cards } = reelStrip(reel, length, widthPx);
    const onScreen = new Set<number>();
    for (let t = 0; t <= reel.durationMs; t += 2) {
      const { x } = motion(reel, t);
      for (let i = Math.floor(x / reel.pitch); i * reel.pitch < x + widthPx; i++)
        if (i < length) onScreen.add(i);
    }
    const shown = cards.map((card) => card.index);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    for (const index of onScreen) expect(shown).toContain(index);
    expect(shown.length).toBeLessThanOrEqual(onScreen.size + 2);
    for (const card of cards) expect(card.x).toBe(card.index * reel.pitch);
    expect(shown.at(-1)).toBeLessThan(length);
  });
});
