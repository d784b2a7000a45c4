import { describe, expect, it } from 'vitest';
import {
  chanceMotion,
  chanceWheelConfig,
  crossings,
  formatChance,
  isInsideArc,
  landingFraction,
  motion,
  phaseAt,
  upgradeChance,
} from '../../scenes/chance-wheel/index.ts';
import { seededRandom } from '../../scenes/shared/random.ts';
import {
  fractionAtPointer,
  localAngle,
  wheelRotation,
  type SpinDirection,
} from '../../scenes/shared/wheel.ts';

const BASE = 0.39;
const COEFS = [1.5, 2, 3, 5, 10, 20];

/** The same comparison the server makes: rollFraction() < chance. */
const serverSuccess = (rolled: number, chance: number) => rolled < chance;

describe('displayed chance', () => {
  it('shows baseChance / coef as percent with 1 decimal for every multiplier', () => {
    expect(COEFS.map((coef) => formatChance(upgradeChance(BASE, coef)))).toEqual([
      '26.0%',
      '19.5%',
      '13.0%',
      '7.8%',
      '3.9%',
      '2.0%',
    ]);
  });

  it('rounds halves up, clamps to [0, 100] and survives bad input', () => {
    expect(formatChance(0.0195)).toBe('2.0%');
    expect(formatChance(0.00049)).toBe('0.0%');
    expect(formatChance(0.00051)).toBe('0.1%');
    expect(formatChance(1)).toBe('100.0%');
    expect(formatChance(1.7)).toBe('100.0%');
    expect(formatChance(-0.2)).toBe('0.0%');
    expect(formatChance(Number.NaN)).toBe('0.0%');
    expect(upgradeChance(BASE, 0)).toBe(0);
    expect(upgradeChance(BASE, 2)).toBe(0.39 / 2);
  });
});

describe('motion', () => {
  it('ends exactly on the rolled fraction after 5 full turns at t = 5000', () => {
    const random = seededRandom('chance-end');
    for (let n = 0; n < 500; n++) {
      const rolled = n === 0 ? 0 : random();
      const wheel = chanceMotion({ chance: upgradeChance(BASE, COEFS[n % COEFS.length]!), rolled });
      expect(wheel.durationMs).toBe(5_000);
      expect(wheel.fullTurns).toBe(5);
      const end = motion(wheel, 5_000);
      expect(end.done).toBe(true);
      expect(end.progress).toBe(1);
      expect(end.fraction).toBe(rolled);
      expect(landingFraction(wheel, 5_000)).toBe(rolled);
      expect(end.turns).toBe(5 + rolled);
      expect(Math.floor(end.turns)).toBe(5);
      expect(motion(wheel, 4_999).done).toBe(false);
      expect(motion(wheel, 60_000).fraction).toBe(rolled);
    }
  });

  it('from any start fraction: 5 full turns plus the way to the rolled point, ending on it exactly', () => {
    const random = seededRandom('chance-start');
    for (let n = 0; n < 300; n++) {
      const rolled = random();
      const startFraction = random();
      const wheel = chanceMotion({ chance: 0.2, rolled, startFraction });
      const travel = wheel.finalTurns - wheel.startTurns;
      expect(travel).toBeGreaterThanOrEqual(5);
      expect(travel).toBeLessThan(6);
      expect(motion(wheel, 0).fraction).toBeCloseTo(startFraction, 12);
      expect(landingFraction(wheel, wheel.durationMs)).toBe(rolled);
    }
  });

  it('starts at rest, never turns backwards and holds still after the end', () => {
    for (const ease of ['power3.out', 'power4.out', 'expo.out', 'cubic-bezier(0.2, 0.9, 0.1, 1)', 'none']) {
      for (const rolled of [0, 0.1, 0.5, 0.999999]) {
        const wheel = chanceMotion({ chance: 0.26, rolled, config: { ease } });
        expect(motion(wheel, -100).turns).toBe(0);
        expect(motion(wheel, 0).turns).toBe(0);
        let previous = -Infinity;
        for (let t = 0; t <= 5_000; t += 5) {
          const { turns } = motion(wheel, t);
          expect(turns).toBeGreaterThanOrEqual(previous);
          previous = turns;
        }
        expect(motion(wheel, 2_500).turns).toBeLessThan(wheel.finalTurns);
        expect(motion(wheel, 5_001).turns).toBe(wheel.finalTurns);
      }
    }
  });

  it('follows the config ease and takes the reduced-motion settings', () => {
    const linear = chanceMotion({ chance: 0.1, rolled: 0.5, config: { ease: 'none' } });
    expect(motion(linear, 2_500).turns).toBeCloseTo(5.5 / 2, 9);
    const reduced = chanceMotion({ chance: 0.1, rolled: 0.25, reducedMotion: true });
    expect(reduced.durationMs).toBe(chanceWheelConfig.reducedMotionDurationMs);
    expect(reduced.fullTurns).toBe(chanceWheelConfig.reducedMotionTurns);
    expect(landingFraction(reduced, reduced.durationMs)).toBe(0.25);
  });

  it('refuses a roll outside [0, 1)', () => {
    for (const rolled of [-0.01, 1, 1.5, Number.NaN, Infinity]) {
      expect(() => chanceMotion({ chance: 0.2, rolled })).toThrow(RangeError);
    }
  });
});

describe('success iff the pointer is inside the arc', () => {
  const tiny = [Number.EPSILON, 1e-12, 1e-9, 1e-6];

  function check(rolled: number, chance: number, direction: SpinDirection = 'clockwise') {
    const wheel = chanceMotion({ chance, rolled, config: { direction } });
    const end = motion(wheel, wheel.durationMs);
    const expected = serverSuccess(rolled, chance);
    // the wheel's verdict, the arc test on the landing point and the server's comparison agree
    expect(wheel.success).toBe(expected);
    expect(isInsideArc(end.fraction, wheel.chance)).toBe(expected);
    // and the drawing agrees: the point drawn at the top of the screen is the landing point
    expect(fractionAtPointer(end.rotation, direction)).toBeCloseTo(rolled, 9);
  }

  it('holds for many seeded (rolled, chance) pairs', () => {
    const random = seededRandom('chance-arc');
    for (let n = 0; n < 5_000; n++) {
      const chance = n % 3 === 0 ? upgradeChance(BASE, COEFS[n % COEFS.length]!) : random();
      check(random(), chance, n % 2 ? 'clockwise' : 'counterclockwise');
    }
  });

  it('holds on the arc edges: rolled = 0, rolled = chance and chance ± tiny', () => {
    for (const coef of COEFS) {
      const chance = upgradeChance(BASE, coef);
      check(0, chance);
      check(chance, chance); // the end of the arc is outside: [0, chance)
      expect(serverSuccess(chance, chance)).toBe(false);
      for (const d of tiny) {
        check(chance - d, chance);
        check(chance + d, chance);
        expect(serverSuccess(chance - d, chance)).toBe(true);
        expect(serverSuccess(chance + d, chance)).toBe(false);
      }
      const below = chance - chance * Number.EPSILON; // the largest doubles below chance
      check(below, chance);
      check(1 - Number.EPSILON / 2, chance);
    }
    check(0.5, 0);
    check(0, 0);
    check(0.999999, 1);
  });

  it('lays the arc out from the top, against the spin, so the pointer reads it in order', () => {
    // clockwise spin: fraction 0.25 of the wheel sits a quarter turn counter-clockwise of the top, at rest
    expect(localAngle(0, 'clockwise')).toBeCloseTo(-Math.PI / 2, 12);
    expect(localAngle(0.25, 'clockwise')).toBeCloseTo(-Math.PI, 12);
    expect(localAngle(0.25, 'counterclockwise')).toBeCloseTo(0, 12);
    // a clockwise quarter turn brings that point under the pointer
    expect(fractionAtPointer(wheelRotation(0.25, 'clockwise'), 'clockwise')).toBeCloseTo(0.25, 12);
    expect(wheelRotation(0.25, 'clockwise')).toBeCloseTo(Math.PI / 2, 12);
  });
});

describe('phases and the result delay', () => {
  it('rolls for 5 s, stands stopped for 500 ms, then the result is due', () => {
    const wheel = chanceMotion({ chance: 0.195, rolled: 0.1 });
    expect(wheel.resultDelayMs).toBe(500);
    expect(phaseAt(wheel, 0)).toBe('rolling');
    expect(phaseAt(wheel, 4_999.9)).toBe('rolling');
    expect(phaseAt(wheel, 5_000)).toBe('stopped');
    expect(phaseAt(wheel, 5_499.9)).toBe('stopped');
    expect(phaseAt(wheel, 5_500)).toBe('result');
    expect(phaseAt(wheel, 90_000)).toBe('result');
    expect(motion(wheel, 5_200).phase).toBe('stopped');
    expect(motion(wheel, 5_200).done).toBe(true);
  });

  it('takes resultDelayMs from the config', () => {
    const wheel = chanceMotion({ chance: 0.195, rolled: 0.1, config: { resultDelayMs: 800 } });
    expect(phaseAt(wheel, 5_799)).toBe('stopped');
    expect(phaseAt(wheel, 5_800)).toBe('result');
  });
});

describe('ticks', () => {
  it('reports each notch passing the pointer exactly once, in order, frame by frame', () => {
    const wheel = chanceMotion({ chance: 0.3, rolled: 0.55 });
    const seen: number[] = [];
    let last = 0;
    for (let t = 16; t <= wheel.durationMs + 100; t += 16.7) {
      seen.push(...crossings(wheel, last, t));
      last = t;
    }
    const n = wheel.tickCount;
    const expected = Array.from({ length: Math.floor(wheel.finalTurns * n) }, (_, k) => (k + 1) % n);
    expect(seen).toEqual(expected);
    expect(crossings(wheel, 3_000, 3_000)).toEqual([]);
    expect(crossings(wheel, 5_000, 9_000)).toEqual([]);
  });
});
