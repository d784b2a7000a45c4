import { describe, expect, it } from 'vitest';
import {
  bonusMotion,
  bonusWheelConfig,
  clampLanding,
  crossings,
  motion,
  pickSpin,
  segmentAt,
} from '../../scenes/bonus-wheel/index.ts';
import { seededRandom } from '../../scenes/shared/random.ts';
import { fractionAtPointer } from '../../scenes/shared/wheel.ts';

const SEGMENTS = 12;

describe('bonus wheel motion', () => {
  it('lands on the centre of the chosen segment for all 12 segments × 5 to 7 turns, in 3 s', () => {
    for (let segment = 0; segment < SEGMENTS; segment++) {
      for (let turns = 5; turns <= 7; turns++) {
        const wheel = bonusMotion({ turns, segment });
        expect(wheel.durationMs).toBe(3_000);
        const end = motion(wheel, 3_000);
        expect(end.done).toBe(true);
        expect(end.segment).toBe(segment);
        expect(end.fraction).toBe((segment + 0.5) / SEGMENTS);
        expect(segmentAt(end.fraction, SEGMENTS)).toBe(segment);
        expect(fractionAtPointer(end.rotation, 'clockwise')).toBeCloseTo((segment + 0.5) / SEGMENTS, 9);
        // full turns, then less than one more to the segment
        expect(Math.floor(end.turns)).toBe(turns);
        expect(end.turns - turns).toBeCloseTo((segment + 0.5) / SEGMENTS, 12);
        expect(motion(wheel, 2_999).done).toBe(false);
      }
    }
  });

  it('lands inside the segment, clear of both borders, from any start and landing', () => {
    const random = seededRandom('bonus-landing');
    const margin = bonusWheelConfig.edgeMargin / SEGMENTS;
    for (let n = 0; n < 3_000; n++) {
      const spin = pickSpin(random);
      const wheel = bonusMotion({
        ...spin,
        landing: n % 4 === 0 ? random() * 1.4 - 0.2 : spin.landing, // also out-of-range landings
        startFraction: random(),
        config: { direction: n % 2 ? 'clockwise' : 'counterclockwise' },
      });
      const end = motion(wheel, wheel.durationMs);
      expect(end.segment).toBe(spin.segment);
      const inSegment = end.fraction * SEGMENTS - spin.segment;
      expect(inSegment).toBeGreaterThanOrEqual(bonusWheelConfig.edgeMargin - 1e-9);
      expect(inSegment).toBeLessThanOrEqual(1 - bonusWheelConfig.edgeMargin + 1e-9);
      expect(end.fraction - spin.segment / SEGMENTS).toBeGreaterThan(margin - 1e-9);
      const travel = wheel.finalTurns - wheel.startTurns;
      expect(travel).toBeGreaterThanOrEqual(spin.turns);
      expect(travel).toBeLessThan(spin.turns + 1);
    }
  });

  it('never turns backwards and holds still after the end', () => {
    for (const ease of ['power3.out', 'expo.out', 'cubic-bezier(0.1, 0.7, 0.2, 1)', 'none']) {
      for (const segment of [0, 5, 11]) {
        const wheel = bonusMotion({ turns: 6, segment, startFraction: 0.3, config: { ease } });
        expect(motion(wheel, 0).turns).toBe(wheel.startTurns);
        let previous = -Infinity;
        for (let t = -10; t <= 3_000; t += 4) {
          const { turns } = motion(wheel, t);
          expect(turns).toBeGreaterThanOrEqual(previous);
          previous = turns;
        }
        expect(motion(wheel, 10_000).turns).toBe(wheel.finalTurns);
      }
    }
  });

  it('ticks once per segment border, in order', () => {
    const wheel = bonusMotion({ turns: 5, segment: 3 });
    const seen: number[] = [];
    let last = 0;
    for (let t = 16; t <= 3_100; t += 16.7) {
      seen.push(...crossings(wheel, last, t));
      last = t;
    }
    expect(seen).toEqual(Array.from({ length: 5 * SEGMENTS + 3 }, (_, k) => (k + 1) % SEGMENTS));
  });

  it('refuses a segment that is not on the wheel, and uses reduced-motion settings', () => {
    expect(() => bonusMotion({ turns: 5, segment: 12 })).toThrow(RangeError);
    expect(() => bonusMotion({ turns: 5, segment: -1 })).toThrow(RangeError);
    expect(() => bonusMotion({ turns: 5, segment: 1.5 })).toThrow(RangeError);
    const reduced = bonusMotion({ turns: 7, segment: 4, reducedMotion: true });
    expect(reduced.fullTurns).toBe(bonusWheelConfig.reducedMotionTurns);
    expect(reduced.durationMs).toBe(bonusWheelConfig.reducedMotionDurationMs);
    expect(motion(reduced, reduced.durationMs).segment).toBe(4);
  });
});

describe('pickSpin', () => {
  it('picks 5 to 7 turns and every segment, with the landing clear of the borders', () => {
    const random = seededRandom('pick');
    const turns = new Set<number>();
    const segments = new Set<number>();
    for (let n = 0; n < 2_000; n++) {
      const spin = pickSpin(random);
      turns.add(spin.turns);
      segments.add(spin.segment);
      expect(spin.landing).toBe(clampLanding(spin.landing!, bonusWheelConfig));
    }
    expect([...turns].sort()).toEqual([5, 6, 7]);
    expect(segments.size).toBe(SEGMENTS);
  });

  it('stays in range at the ends of the random stream', () => {
    expect(pickSpin(() => 0)).toEqual({ turns: 5, segment: 0, landing: bonusWheelConfig.edgeMargin });
    const top = pickSpin(() => 0.9999999999);
    expect(top.turns).toBe(7);
    expect(top.segment).toBe(11);
    const one = pickSpin(() => 1); // a stream that breaks the [0, 1) contract still yields a valid spin
    expect(one.turns).toBe(7);
    expect(one.segment).toBe(11);
  });
});
