import { describe, expect, it } from 'vitest';
import {
  battleMotion,
  battleReelConfig,
  crossings,
  motion,
  pickWinner,
  slotAt,
  type BattleCase,
} from '../../scenes/battle-reel/index.ts';
import { seededRandom } from '../../scenes/shared/random.ts';

const images: BattleCase[] = ['starter', 'flowers', 'sweet', 'gems', 'royal', 'premium', 'legendary'].map(
  (id) => ({ id, name: id, imageUrl: `/assets/cases/${id}.svg` }),
);

describe('battle reel motion', () => {
  it('ends after exactly 3 loops plus the chosen case, centred under the marker, at 3000 ms', () => {
    for (const widthPx of [300, 343, 390, 414.5]) {
      const centring = 90 / 2 - widthPx / 2;
      for (let winnerIndex = 0; winnerIndex < 7; winnerIndex++) {
        const reel = battleMotion({ images, winnerIndex, widthPx });
        expect(reel.durationMs).toBe(3_000);
        expect(reel.pitch).toBe(90);
        expect(reel.startX).toBe(centring);
        expect(reel.finalX).toBe((3 * 7 + winnerIndex) * 90 + centring);
        const end = motion(reel, 3_000);
        expect(end.done).toBe(true);
        expect(end.x).toBe(reel.finalX);
        expect(end.caseIndex).toBe(winnerIndex);
        expect(slotAt(reel, end.x)).toBe(3 * 7 + winnerIndex);
        // the winner's centre sits exactly under the marker
        expect(end.x + widthPx / 2).toBe((3 * 7 + winnerIndex) * 90 + 45);
        expect(motion(reel, 2_999).done).toBe(false);
      }
    }
  });

  it('from a later start: 3 loops plus the way on to the winner', () => {
    const random = seededRandom('battle-start');
    for (let n = 0; n < 500; n++) {
      const startIndex = Math.floor(random() * 7);
      const winnerIndex = Math.floor(random() * 7);
      const reel = battleMotion({ images, winnerIndex, widthPx: 360, startIndex });
      const slots = (reel.finalX - reel.startX) / 90;
      expect(slots).toBe(21 + ((winnerIndex - startIndex + 7) % 7));
      expect(motion(reel, 3_000).caseIndex).toBe(winnerIndex);
      expect(motion(reel, 0).caseIndex).toBe(startIndex);
    }
  });

  it('never moves backwards and holds still after the end', () => {
    for (const ease of ['power3.out', 'power4.out', 'cubic-bezier(0.2, 0.8, 0.2, 1)', 'none']) {
      const reel = battleMotion({ images, winnerIndex: 4, widthPx: 390, config: { ease } });
      expect(motion(reel, -50).x).toBe(reel.startX);
      let previous = -Infinity;
      for (let t = 0; t <= 3_000; t += 3) {
        const { x } = motion(reel, t);
        expect(x).toBeGreaterThanOrEqual(previous);
        previous = x;
      }
      expect(motion(reel, 1_500).x).toBeLessThan(reel.finalX);
      expect(motion(reel, 3_001).x).toBe(reel.finalX);
      expect(motion(reel, 99_000).x).toBe(reel.finalX);
    }
  });

  it('takes loops from the plan and reduced motion from the config', () => {
    const two = battleMotion({ images, winnerIndex: 2, widthPx: 300, loops: 2 });
    expect(two.finalX - two.startX).toBe((2 * 7 + 2) * 90);
    const reduced = battleMotion({ images, winnerIndex: 2, widthPx: 300, reducedMotion: true });
    expect(reduced.durationMs).toBe(battleReelConfig.reducedMotionDurationMs);
    expect(reduced.finalX - reduced.startX).toBe((battleReelConfig.reducedMotionLoops * 7 + 2) * 90);
  });

  it('ticks once per case passing the marker, in order', () => {
    const reel = battleMotion({ images, winnerIndex: 5, widthPx: 390 });
    const seen: number[] = [];
    let last = 0;
    for (let t = 16; t <= 3_100; t += 16.7) {
      seen.push(...crossings(reel, last, t));
      last = t;
    }
    const first = motion(reel, 0).slot;
    expect(seen).toEqual(Array.from({ length: reel.stopSlot - first }, (_, k) => first + 1 + k));
  });

  it('refuses a winner that is not on the strip', () => {
    expect(() => battleMotion({ images, winnerIndex: 7, widthPx: 300 })).toThrow(RangeError);
    expect(() => battleMotion({ images: [], winnerIndex: 0, widthPx: 300 })).toThrow();
  });

  it('pickWinner stays in range', () => {
    expect(pickWinner(() => 0, 7)).toBe(0);
    expect(pickWinner(() => 0.99999, 7)).toBe(6);
    expect(pickWinner(() => 1, 7)).toBe(6);
  });
});
