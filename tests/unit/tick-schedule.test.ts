import { afterEach, describe, expect, it, vi } from 'vitest';
import { crossings, crossingSchedule, motion, reelMotion, reelStrip } from '../../scenes/roulette/index.ts';
import {
  battleMotion,
  crossings as battleCrossings,
  crossingSchedule as battleSchedule,
} from '../../scenes/battle-reel/index.ts';
import {
  chanceMotion,
  crossings as chanceCrossings,
  crossingSchedule as chanceSchedule,
  motion as chancePose,
} from '../../scenes/chance-wheel/index.ts';
import {
  bonusMotion,
  crossings as bonusCrossings,
  crossingSchedule as bonusSchedule,
  motion as bonusPose,
} from '../../scenes/bonus-wheel/index.ts';
import { crossingTimes } from '../../scenes/shared/ticks.ts';
import { atTimes, spacedTimes } from '../../src/lib/schedule.ts';

describe('a play’s tick schedule', () => {
  const reel = reelMotion({ seed: 'schedule', widthPx: 390 });

  it('has one time per crossing the frames would report, ascending, inside the play', () => {
    const times = crossingTimes(reel.durationMs, (a, b) => crossings(reel, a, b));
    expect(times.length).toBe(crossings(reel, 0, reel.durationMs).length);
    expect(times.length).toBeGreaterThan(20);
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
    expect(times[0]!).toBeGreaterThan(0);
    expect(times.at(-1)!).toBeLessThanOrEqual(reel.durationMs);
  });

  it('places each crossing within a few ms of when the motion passes it', () => {
    const times = crossingTimes(reel.durationMs, (a, b) => crossings(reel, a, b));
    times.forEach((t, k) => {
      // by time t the (k+1)th crossing has happened, and 4 ms before it had not
      expect(crossings(reel, 0, t).length).toBeGreaterThanOrEqual(k + 1);
      expect(crossings(reel, 0, t - 4).length).toBeLessThanOrEqual(k + 1);
    });
  });

  it('slows down: the gaps between the last crossings are longer than between the first', () => {
    const times = crossingTimes(reel.durationMs, (a, b) => crossings(reel, a, b));
    const gap = (i: number) => times[i + 1]! - times[i]!;
    expect(gap(times.length - 2)).toBeGreaterThan(gap(1) * 5);
  });
});

describe('spacedTimes', () => {
  it('keeps no two times closer than the gap, the first of a close run winning', () => {
    expect(spacedTimes([0, 10, 50, 60, 120, 121, 300], 55)).toEqual([0, 60, 120, 300]);
  });

  it('counts the gap from a time before the list', () => {
    expect(spacedTimes([10, 40, 80], 55, 0)).toEqual([80]);
  });
});

describe('atTimes', () => {
  afterEach(() => vi.useRealTimers());

  it('runs once per due time, once for times due together, and nothing after cancel', () => {
    vi.useFakeTimers();
    let now = 0;
    const clock = () => now;
    const runs: number[] = [];
    const cancel = atTimes([100, 100.5, 250, 400, 900], () => runs.push(now), clock);
    const advance = (ms: number) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    };
    advance(99);
    expect(runs).toEqual([]);
    advance(1);
    expect(runs).toEqual([100]);
    advance(150);
    expect(runs).toEqual([100, 250]);
    cancel();
    advance(1000);
    expect(runs).toEqual([100, 250]);
  });
});

describe('the roulette’s schedule solved on its keyframes', () => {
  for (const reducedMotion of [false, true]) {
    const reel = reelMotion({ seed: `solved-${reducedMotion}`, widthPx: 390, reducedMotion });
    const stepped = crossingTimes(reel.durationMs, (a, b) => crossings(reel, a, b));
    const solved = crossingSchedule(reel);

    it(`has the crossings the frames report, each within the stepped schedule's step${reducedMotion ? ' (reduced motion)' : ''}`, () => {
      expect(solved.length).toBe(stepped.length);
      expect(solved.length).toBeGreaterThan(5);
      solved.forEach((t, k) => {
        expect(t).toBeGreaterThanOrEqual(solved[k - 1] ?? 0);
        // the stepped time is the end of the 4 ms step the crossing fell in; a quarter pixel of keyframe
        // tolerance moves the solved one by well under a ms while the reel is fast, a few where it crawls
        expect(Math.abs(t - (stepped[k]! - 2))).toBeLessThanOrEqual(6);
      });
    });
  }

  it('keeps the strip within a quarter pixel of the motion, from its start to its exact end', () => {
    const reel = reelMotion({ seed: 'strip', widthPx: 390 });
    const { keyframes } = reelStrip(reel, 400, 390);
    expect(keyframes[0]).toEqual({ t: 0, x: reel.startX });
    expect(keyframes.at(-1)).toEqual({ t: reel.durationMs, x: reel.finalX });
    for (let i = 1; i < keyframes.length; i++) {
      const a = keyframes[i - 1]!;
      const b = keyframes[i]!;
      for (const f of [0.25, 0.5, 0.75]) {
        const t = a.t + (b.t - a.t) * f;
        expect(Math.abs(a.x + (b.x - a.x) * f - motion(reel, t).x)).toBeLessThanOrEqual(0.25);
      }
    }
  });
});

describe('the battle reel’s schedule solved on its keyframes', () => {
  const reel = battleMotion({
    images: ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: id, imageUrl: '' })),
    winnerIndex: 3,
    widthPx: 180,
    startIndex: 2,
  });
  const stepped = crossingTimes(reel.durationMs, (a, b) => battleCrossings(reel, a, b));
  const solved = battleSchedule(reel);

  it('has the crossings the frames report, each within the stepped schedule’s step', () => {
    expect(solved.length).toBe(stepped.length);
    expect(solved.length).toBeGreaterThan(5);
    solved.forEach((t, k) => expect(Math.abs(t - (stepped[k]! - 2))).toBeLessThanOrEqual(6));
  });
});

describe('the wheels’ schedules solved on their keyframes', () => {
  // each wheel with the part count its crossings are reported in: the chance wheel's notches, the bonus
  // wheel's segment borders
  const wheels = [
    ...[0, 0.37, 0.999].flatMap((rolled) =>
      (['clockwise', 'counterclockwise'] as const).map((direction) => {
        const wheel = chanceMotion({ chance: 0.26, rolled, startFraction: 0.61, config: { direction } });
        return {
          name: `chance wheel rolling ${rolled}, ${direction}`,
          parts: wheel.tickCount,
          stepped: crossingTimes(wheel.durationMs, (a, b) => chanceCrossings(wheel, a, b)),
          solved: chanceSchedule(wheel),
          turnsAt: (t: number) => chancePose(wheel, t).turns,
        };
      }),
    ),
    ...[0, 5, 11].flatMap((segment) =>
      [false, true].map((reducedMotion) => {
        const wheel = bonusMotion({ turns: 6, segment, startFraction: 0.3, reducedMotion });
        return {
          name: `bonus wheel landing on ${segment}${reducedMotion ? ' (reduced motion)' : ''}`,
          parts: wheel.segments,
          stepped: crossingTimes(wheel.durationMs, (a, b) => bonusCrossings(wheel, a, b)),
          solved: bonusSchedule(wheel),
          turnsAt: (t: number) => bonusPose(wheel, t).turns,
        };
      }),
    ),
  ];

  for (const { name, parts, stepped, solved, turnsAt } of wheels) {
    it(`${name}: one time per crossing the frames report, each where the motion is on its border`, () => {
      expect(solved.length).toBe(stepped.length);
      expect(solved.length).toBeGreaterThan(parts);
      solved.forEach((t, k) => {
        expect(t).toBeGreaterThanOrEqual(solved[k - 1] ?? 0);
        // at the solved time the wheel's exact motion stands within the keyframes' quarter degree of a
        // border, and that border is the (k+1)th the stepped schedule passes
        const degrees = turnsAt(t) * 360;
        const border = Math.round((degrees * parts) / 360) * (360 / parts);
        expect(Math.abs(degrees - border)).toBeLessThanOrEqual(0.25);
        expect(t).toBeGreaterThan((stepped[k - 1] ?? 0) - 4 - 1e-9);
        expect(t).toBeLessThanOrEqual((stepped[k + 1] ?? Infinity) + 1e-9);
      });
    });
  }
});
