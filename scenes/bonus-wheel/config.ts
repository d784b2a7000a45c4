import type { SpinDirection } from '../shared/wheel.ts';

/** Tuning of the bonus wheel: plain data, edited live by the debug scene switcher. */
export interface BonusWheelConfig {
  /** Number of segments on the wheel (spec §9: 12). */
  segmentCount: number;
  /** Length of a spin, ms (spec §9: 3 s). */
  durationMs: number;
  /** Fewest full turns pickSpin() chooses (spec §4: 5). */
  minTurns: number;
  /** Most full turns pickSpin() chooses (spec §4: 7). */
  maxTurns: number;
  /** Length of a spin when the player asks for reduced motion, ms. */
  reducedMotionDurationMs: number;
  /** Full turns of a spin when the player asks for reduced motion (replaces the plan's turns). */
  reducedMotionTurns: number;
  /** Rotation easing (monotonic): a gsap ease name such as 'power3.out', or 'cubic-bezier(x1, y1, x2, y2)'. */
  ease: string;
  /** Which way the wheel turns; segments are numbered from the top against it (shared/wheel.ts). */
  direction: SpinDirection;
  /** Fraction of a segment's width kept clear of both its borders when choosing where the pointer lands. */
  edgeMargin: number;
  /** Space between the canvas edge and the wheel, as a fraction of the wheel's radius. */
  padding: number;
  /** Segment colours, used in turn (segment i gets colours[i mod length]) unless a segment brings its own. */
  segmentColors: number[];
  /** Colour of the lines between segments and of the rim. */
  borderColor: number;
  /** Width of the rim, as a fraction of the wheel's radius. */
  rimWidth: number;
  /** Colour of the hub in the centre. */
  hubColor: number;
  /** Radius of the hub, as a fraction of the wheel's radius. */
  hubSize: number;
  /** Length of the pointer triangle, as a fraction of the wheel's radius. */
  pointerSize: number;
  /** Colour of the pointer at the top. */
  pointerColor: number;
  /** Colour of the segment labels. */
  labelColor: number;
  /** Size of the segment labels, as a fraction of the wheel's radius. */
  labelSize: number;
  /** Distance of a label from the centre, as a fraction of the radius (with an icon: the icon's distance). */
  labelRadius: number;
  /** Size of a segment's icon, as a fraction of the wheel's radius. */
  iconSize: number;
  /** Font family of the segment labels. */
  fontFamily: string;
}

export const bonusWheelConfig: BonusWheelConfig = {
  segmentCount: 12,
  durationMs: 3000,
  minTurns: 5,
  maxTurns: 7,
  reducedMotionDurationMs: 1200,
  reducedMotionTurns: 1,
  ease: 'power3.out',
  direction: 'clockwise',
  edgeMargin: 0.2,
  padding: 0.08,
  segmentColors: [0x2a2f45, 0x3d8bfd],
  borderColor: 0x12151f,
  rimWidth: 0.035,
  hubColor: 0x12151f,
  hubSize: 0.14,
  pointerSize: 0.16,
  pointerColor: 0xffd34d,
  labelColor: 0xffffff,
  labelSize: 0.085,
  labelRadius: 0.68,
  iconSize: 0.2,
  fontFamily: 'Inter, Roboto, Arial, sans-serif',
};

/** The defaults with a plan's overrides on top. */
export function resolveConfig(overrides?: Partial<BonusWheelConfig>): BonusWheelConfig {
  return overrides ? { ...bonusWheelConfig, ...overrides } : bonusWheelConfig;
}
