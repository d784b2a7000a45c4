import { describe, expect, it } from 'vitest';
import { battleMotion, motion, type BattleCase } from '../../scenes/battle-reel/index.ts';
import type { BattleReelPlan } from '../../scenes/battle-reel/plan.ts';
import { battleStrip, wrapIndex, type BattleReelMotion } from '../../scenes/battle-reel/motion.ts';
import { KEYFRAME_MAX_MS, KEYFRAME_MIN_MS } from '../../scenes/shared/keyframes.ts';
import { seededRandom } from '../../scenes/shared/random.ts';

// The battle reel's spin handed to the page's compositor (main-thread scene path): one strip of tiles
// scrolled by a linear-keyframed animation. What the page shows must be what frame() would have drawn.

const cases = (n: number): BattleCase[] =>
  Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: `c${i}`, imageUrl: `/assets/cases/c${i}.svg` }));

/** The scroll a linear-keyframed animation shows at time t (held before the first and after the last). */
function scrollAt(keyframes: readonly { t: number; x: number }[], t: number): number {
  if (t <= keyframes[0]!.t) return keyframes[0]!.x;
  for (let k = 1; k < keyframes.length; k++) {
    const [a, b] = [keyframes[k - 1]!, keyframes[k]!];
    if (t <= b.t) return a.x + ((b.x - a.x) * (t - a.t)) / (b.t - a.t);
  }
  return keyframes.at(-1)!.x;
}

/** Slots whose tile (drawn tileGap / 2 into its slot, pitch - tileGap wide) is on a reel at scroll x. */
function visibleSlots(reel: BattleReelMotion, x: number, widthPx: number, tileGap: number): number[] {
  const slots: number[] = [];
  for (let slot = Math.floor(x / reel.pitch) - 2; slot * reel.pitch <= x + widthPx + reel.pitch; slot++) {
    const left = slot * reel.pitch + tileGap / 2;
    const right = left + reel.pitch - tileGap;
    if (left < x + widthPx && right > x) slots.push(slot);
  }
  return slots;
}

/**
 * Many spins as the battle room plays them and as the debug switcher tunes them: widths, strip lengths,
 * starts, winners, eases, loops, lengths, reduced motion.
 */
function spins(): { reel: BattleReelMotion; widthPx: number; tileGap: number; plan: BattleReelPlan }[] {
  const random = seededRandom('battle-strip');
  const eases = ['power3.out', 'power4.out', 'cubic-bezier(0.2, 0.8, 0.2, 1)', 'none', 'expo.out'];
  return Array.from({ length: 40 }, (_, n) => {
    const count = 1 + Math.floor(random() * 12);
    const widthPx = 150 + Math.floor(random() * 500) + (n % 3) * 0.5;
    const tileGap = Math.floor(random() * 12);
    const plan: BattleReelPlan = {
      images: cases(count),
      winnerIndex: Math.floor(random() * count),
      startIndex: Math.floor(random() * count),
      widthPx,
      loops: n % 7 === 0 ? 0 : 1 + Math.floor(random() * 4),
      reducedMotion: n % 5 === 0,
      config: {
        ease: eases[n % eases.length]!,
        itemWidth: 60 + Math.floor(random() * 60),
        durationMs: 1500 + Math.floor(random() * 3000),
      },
    };
    return { reel: battleMotion(plan), widthPx, tileGap, plan };
  });
}

/** The spin of every winner from the plan's start. */
const winners = (plan: BattleReelPlan) =>
  plan.images.map((_, winnerIndex) => battleMotion({ ...plan, winnerIndex }));

describe('battleStrip (a battle spin handed to the page compositor)', () => {
  it('keyframes the scroll within a quarter pixel of motion(), from 0 to exactly the end', () => {
    for (const { reel, widthPx, tileGap } of spins()) {
      const { keyframes } = battleStrip(reel, widthPx, tileGap);
      expect(keyframes.length).toBeGreaterThan(reel.finalX > reel.startX ? 2 : 0);
      expect(keyframes[0]).toEqual({ t: 0, x: reel.startX });
      expect(keyframes.at(-1)).toEqual({ t: reel.durationMs, x: reel.finalX });
      for (let k = 1; k < keyframes.length; k++) {
        expect(keyframes[k]!.t).toBeGreaterThan(keyframes[k - 1]!.t);
        expect(keyframes[k]!.t - keyframes[k - 1]!.t).toBeLessThanOrEqual(KEYFRAME_MAX_MS + 1e-9);
      }
      let worst = 0;
      for (let t = -100; t <= reel.durationMs + 100; t += 0.5)
        worst = Math.max(worst, Math.abs(scrollAt(keyframes, t) - motion(reel, t).x));
      expect(worst).toBeLessThanOrEqual(0.25);
    }
  });

  it('strays further only where keyframes are already one 240 Hz frame apart (a spin far faster than any played)', () => {
    // 48 slots of 120 px in 1.6 s on a steep curve: at its start the reel moves 3.5 px a millisecond
    const reel = battleMotion({
      images: cases(12),
      winnerIndex: 0,
      widthPx: 400,
      loops: 4,
      config: { ease: 'cubic-bezier(0.1, 0, 0.2, 1)', itemWidth: 120, durationMs: 1600 },
    });
    const { keyframes } = battleStrip(reel, 400, 8);
    let strayed = 0;
    for (let k = 1; k < keyframes.length; k++) {
      const [a, b] = [keyframes[k - 1]!, keyframes[k]!];
      let worst = 0;
      for (let t = a.t; t <= b.t; t += 0.25)
        worst = Math.max(worst, Math.abs(scrollAt(keyframes, t) - motion(reel, t).x));
      if (worst <= 0.25) continue;
      strayed += 1;
      expect(b.t - a.t).toBeLessThanOrEqual(KEYFRAME_MIN_MS + 1e-9);
    }
    expect(strayed).toBeGreaterThan(0);
  });

  it('holds every slot on screen at any time of the spin, each with its wrapped image and drawn edge', () => {
    for (const { reel, widthPx, tileGap, plan } of spins()) {
      const { tiles } = battleStrip(reel, widthPx, tileGap);
      // consecutive slots, each tile where draw() puts it, its image the slot's case
      tiles.forEach((tile, i) => {
        expect(tile.slot).toBe(tiles[0]!.slot + i);
        expect(tile.x).toBe(tile.slot * reel.pitch + tileGap / 2);
        expect(tile.image).toBe(wrapIndex(tile.slot, reel.count));
        expect(tile.image).toBeGreaterThanOrEqual(0);
        expect(tile.image).toBeLessThan(reel.count);
      });
      const held = new Set(tiles.map((tile) => tile.slot));
      const missing: string[] = [];
      for (let t = 0; t <= reel.durationMs; t += 2) {
        for (const slot of visibleSlots(reel, motion(reel, t).x, widthPx, tileGap))
          if (!held.has(slot)) missing.push(`slot ${slot} at ${t} ms`);
      }
      expect(missing).toEqual([]);
      // no tile that never shows from this start: the first is on screen at the start, the last at the end of
      // the farthest landing (the winner count − 1 slots past the nearest)
      const farthestX = Math.max(...winners(plan).map((other) => other.finalX));
      expect(visibleSlots(reel, reel.startX, widthPx, tileGap)).toContain(tiles[0]!.slot);
      expect(visibleSlots(reel, farthestX, widthPx, tileGap)).toContain(tiles.at(-1)!.slot);
    }
  });

  it('holds the same tiles for every winner from one start, so a strip staged before the answer fits', () => {
    for (const { widthPx, tileGap, plan } of spins()) {
      const tileSets = new Set(
        winners(plan).map((reel) => JSON.stringify(battleStrip(reel, widthPx, tileGap).tiles)),
      );
      expect(tileSets.size).toBe(1);
    }
  });

  it('starts left of slot 0 (negative x) and wraps the images there', () => {
    // 7 cases, a 390 px reel: slot 0 is centred under the marker at the start, two slots show left of it
    const reel = battleMotion({ images: cases(7), winnerIndex: 3, widthPx: 390 });
    expect(reel.startX).toBe(-150);
    const { tiles } = battleStrip(reel, 390, 8);
    expect(tiles.slice(0, 3)).toEqual([
      { slot: -2, image: 5, x: -176 },
      { slot: -1, image: 6, x: -86 },
      { slot: 0, image: 0, x: 4 },
    ]);
    // the end: the winner (slot 3 loops × 7 + 3) centred, and the slots right of it to the reel's edge
    const stop = tiles.find((tile) => tile.slot === reel.stopSlot)!;
    expect(stop.image).toBe(3);
    expect(tiles.at(-1)!.x).toBeGreaterThanOrEqual(reel.finalX + 390 - 90);
  });

  it('a spin that does not move has one keyframe, and the tiles of its pose on to the farthest landing', () => {
    const plan: BattleReelPlan = {
      images: cases(5),
      winnerIndex: 2,
      startIndex: 2,
      widthPx: 300,
      reducedMotion: true,
      config: { reducedMotionLoops: 0 },
    };
    const reel = battleMotion(plan);
    expect(reel.finalX).toBe(reel.startX);
    const { tiles, keyframes } = battleStrip(reel, 300, 8);
    expect(keyframes.every((k) => k.x === reel.finalX)).toBe(true);
    const shown = tiles.map((tile) => tile.slot);
    const atRest = visibleSlots(reel, reel.startX, 300, 8);
    expect(shown.slice(0, atRest.length)).toEqual(atRest);
    const farthestX = Math.max(...winners(plan).map((other) => other.finalX));
    expect(shown.at(-1)).toBe(visibleSlots(reel, farthestX, 300, 8).at(-1));
  });
});
