import { describe, expect, it } from 'vitest';
import { bonusMotion, pickSpin } from '../../scenes/bonus-wheel/index.ts';
import { discKeyframes as bonusKeyframes, motion as bonusPose } from '../../scenes/bonus-wheel/motion.ts';
import { chanceMotion } from '../../scenes/chance-wheel/index.ts';
import { discKeyframes as chanceKeyframes, motion as chancePose } from '../../scenes/chance-wheel/motion.ts';
import { KEYFRAME_MIN_MS, turnKeyframesOf } from '../../scenes/shared/keyframes.ts';
import { linearEasing } from '../../scenes/shared/linear-easing.ts';
import { seededRandom } from '../../scenes/shared/random.ts';
import { turnEasing, type SpinDirection } from '../../scenes/shared/wheel.ts';

// A wheel's spin handed to the page's compositor is a linear-keyframed rotate() animation: between its
// keyframes it must stay within a quarter degree of the pure motion the canvas draws, start at the spin's
// start and end exactly where (and when) the canvas takes the wheel back.

type Keyframes = { t: number; angle: number }[];

/** The angle the linear keyframes give at time t. */
function interpolate(keyframes: Keyframes, t: number): number {
  let i = 1;
  while (i < keyframes.length - 1 && keyframes[i]!.t < t) i++;
  const a = keyframes[i - 1]!;
  const b = keyframes[i] ?? a;
  if (b.t === a.t) return b.angle;
  return a.angle + ((b.angle - a.angle) * (t - a.t)) / (b.t - a.t);
}

/** The most the keyframes stray from the motion over dense samples (every 0.5 ms). */
function worstError(keyframes: Keyframes, durationMs: number, angleAt: (t: number) => number): number {
  let worst = 0;
  for (let t = 0; t <= durationMs; t += 0.5) {
    worst = Math.max(worst, Math.abs(interpolate(keyframes, t) - angleAt(t)));
  }
  return worst;
}

const sign = (direction: SpinDirection) => (direction === 'counterclockwise' ? -1 : 1);
const degrees = (radians: number) => (radians * 180) / Math.PI;
/** a mod 360 in [0, 360). */
const wrap = (a: number) => ((a % 360) + 360) % 360;

/** What every wheel's keyframes must hold, given its pose in turns and its rotation at the end. */
function checkKeyframes(
  keyframes: Keyframes,
  durationMs: number,
  direction: SpinDirection,
  turnsAt: (t: number) => number,
  finalTurns: number,
  finalRotation: number,
): void {
  const angleAt = (t: number) => sign(direction) * 360 * turnsAt(t);
  expect(keyframes[0]).toEqual({ t: 0, angle: angleAt(0) });
  expect(keyframes.at(-1)!.t).toBe(durationMs);
  for (let i = 1; i < keyframes.length; i++) {
    expect(keyframes[i]!.t).toBeGreaterThan(keyframes[i - 1]!.t);
    // no step shorter than a 240 Hz frame, but the last (cut short by the end)
    if (i < keyframes.length - 1)
      expect(keyframes[i]!.t - keyframes[i - 1]!.t).toBeGreaterThanOrEqual(KEYFRAME_MIN_MS - 1e-9);
    // the turn never goes back: angles move one way, by the direction's sign
    expect(sign(direction) * (keyframes[i]!.angle - keyframes[i - 1]!.angle)).toBeGreaterThanOrEqual(0);
  }
  expect(worstError(keyframes, durationMs, angleAt)).toBeLessThanOrEqual(0.25);
  // the last angle is the final cumulative turn, and the rotation the canvas draws once it stops
  const last = keyframes.at(-1)!.angle;
  expect(last).toBe(sign(direction) * 360 * finalTurns);
  const apart = Math.abs(wrap(last) - wrap(degrees(finalRotation)));
  expect(Math.min(apart, 360 - apart)).toBeLessThan(1e-6);
}

describe('chance wheel keyframes', () => {
  it('follow motion() within a quarter degree, from 0 to the stop, ending on the rolled point', () => {
    const random = seededRandom('chance-keyframes');
    for (const direction of ['clockwise', 'counterclockwise'] as const) {
      for (const reducedMotion of [false, true]) {
        for (let n = 0; n < 4; n++) {
          const wheel = chanceMotion({
            chance: random(),
            rolled: random(),
            startFraction: random(),
            config: { direction },
            reducedMotion,
          });
          const keyframes = chanceKeyframes(wheel);
          checkKeyframes(
            keyframes,
            wheel.durationMs,
            direction,
            (t) => chancePose(wheel, t).turns,
            wheel.finalTurns,
            chancePose(wheel, wheel.durationMs).rotation,
          );
          // a 5 s roll of five turns and more needs many keyframes, but far fewer than one a frame
          if (!reducedMotion) expect(keyframes.length).toBeLessThan(wheel.durationMs / 16);
        }
      }
    }
  });

  it('turn a whole turn in whole degrees: five turns are at least 1800°', () => {
    const wheel = chanceMotion({ chance: 0.26, rolled: 0.5 });
    const keyframes = chanceKeyframes(wheel);
    expect(keyframes[0]!.angle).toBe(0);
    expect(keyframes.at(-1)!.angle).toBe(360 * 5.5);
    expect(degrees(chancePose(wheel, wheel.durationMs).rotation)).toBeCloseTo(180, 9);
  });
});

describe('a wheel turn’s keyframes, from its ease’s shared curve', () => {
  it('are made once per roll, and two rolls of one ease and length share the curve’s times', () => {
    const first = chanceMotion({ chance: 0.26, rolled: 0.5 });
    const second = chanceMotion({ chance: 0.26, rolled: 0.9, startFraction: 0.5 });
    expect(turnKeyframesOf(first, 360, 0.2)).toBe(turnKeyframesOf(first, 360, 0.2));
    expect(second.finalTurns - second.startTurns).not.toBe(first.finalTurns - first.startTurns);
    const times = (wheel: typeof first) => chanceKeyframes(wheel).map((k) => k.t);
    expect(times(second)).toEqual(times(first));
    // each roll still starts and ends exactly on its own turns
    expect(chanceKeyframes(second)[0]!.angle).toBeCloseTo(360 * second.startTurns, 9);
    expect(chanceKeyframes(second).at(-1)!.angle).toBe(360 * second.finalTurns);
  });

  it('of a roll without duration (reduced motion) hold the stop, not the start', () => {
    const wheel = { ...chanceMotion({ chance: 0.26, rolled: 0.5 }), durationMs: 0 };
    expect(chanceKeyframes(wheel)).toEqual([{ t: 0, angle: 360 * wheel.finalTurns }]);
  });
});

describe('bonus wheel keyframes', () => {
  it('follow motion() within a quarter degree, from 0 to the end, ending on the segment', () => {
    const random = seededRandom('bonus-keyframes');
    for (const direction of ['clockwise', 'counterclockwise'] as const) {
      for (const reducedMotion of [false, true]) {
        for (let n = 0; n < 4; n++) {
          const wheel = bonusMotion({
            ...pickSpin(random),
            startFraction: random(),
            config: { direction },
            reducedMotion,
          });
          checkKeyframes(
            bonusKeyframes(wheel),
            wheel.durationMs,
            direction,
            (t) => bonusPose(wheel, t).turns,
            wheel.finalTurns,
            bonusPose(wheel, wheel.durationMs).rotation,
          );
        }
      }
    }
  });
});

describe('a spin’s CSS easing', () => {
  /** The easing the page would make from the keyframes themselves (as it does without the scene's). */
  const fromKeyframes = (keyframes: Keyframes) => linearEasing(keyframes, (k) => k.angle);
  /** The points of a linear() easing, as numbers. */
  const points = (easing: string | null) =>
    (easing ?? '')
      .replace(/^linear\(|\)$/g, '')
      .split(', ')
      .map((point) => point.split(' ').map((n) => Number.parseFloat(n)));

  it('is the curve of the spin’s own keyframes', () => {
    const wheel = chanceMotion({ chance: 0.3, rolled: 0.62, startFraction: 0.1 });
    const made = turnEasing(wheel, wheel.direction);
    const own = fromKeyframes(chanceKeyframes(wheel));
    expect(made).toMatch(/^linear\(0 0%, /);
    expect(points(made)).toHaveLength(points(own).length);
    points(made).forEach(([value, at], i) => {
      expect(value).toBeCloseTo(points(own)[i]![0]!, 5);
      expect(at).toBeCloseTo(points(own)[i]![1]!, 5);
    });
  });

  it('is one string for every roll of the chance wheel, whatever it rolls and wherever it starts', () => {
    const random = seededRandom('easings');
    const easings = new Set<string | null>();
    for (let i = 0; i < 40; i++) {
      const wheel = chanceMotion({ chance: random(), rolled: random(), startFraction: random() });
      easings.add(turnEasing(wheel, wheel.direction));
    }
    expect(easings.size).toBe(1);
    expect([...easings][0]).toMatch(/^linear\(/);
  });

  it('is one string for every spin of the bonus wheel, 5 to 7 turns, any segment, either way round', () => {
    const random = seededRandom('bonus easings');
    const easings = new Set<string | null>();
    for (let i = 0; i < 40; i++) {
      const spin = pickSpin(random);
      for (const direction of ['clockwise', 'counterclockwise'] as SpinDirection[]) {
        const wheel = bonusMotion({ ...spin, startFraction: random(), config: { direction } });
        easings.add(turnEasing(wheel, wheel.direction));
      }
    }
    expect(easings.size).toBe(1);
  });
});
