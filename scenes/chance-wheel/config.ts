import type { SpinDirection } from '../shared/wheel.ts';

/** Tuning of the upgrade game's chance wheel: plain data, edited live by the debug scene switcher. */
export interface ChanceWheelConfig {
  /** Length of a roll, ms (spec §4, §9: 5 s). */
  durationMs: number;
  /** Full turns before the wheel reaches the rolled point (spec §4, §9: five). */
  turns: number;
  /** Time between the wheel stopping and the result callback, ms (spec §4: 0.5 s). */
  resultDelayMs: number;
  /** Length of a roll when the player asks for reduced motion, ms. */
  reducedMotionDurationMs: number;
  /** Full turns of a roll when the player asks for reduced motion. */
  reducedMotionTurns: number;
  /** Rotation easing (monotonic): a gsap ease name such as 'power3.out', or 'cubic-bezier(x1, y1, x2, y2)'. */
  ease: string;
  /** Which way the wheel turns; the success arc is laid out from the top against it (shared/wheel.ts). */
  direction: SpinDirection;
  /** Space between the canvas edge and the ring, as a fraction of the wheel's radius. */
  padding: number;
  /** Thickness of the ring, as a fraction of the wheel's radius. */
  ringWidth: number;
  /** Colour of the ring outside the success arc. */
  trackColor: number;
  /** Colour of the disc inside the ring. */
  discColor: number;
  /** Arc colour while idle or rolling (spec §4: blue is neutral). */
  neutralColor: number;
  /** Arc colour once the roll stopped inside it (spec §4: green). */
  successColor: number;
  /** Arc colour once the roll stopped outside it, or when the roll failed (spec §4: red). */
  failColor: number;
  /** Notches around the ring; each one passing the pointer is an onTick (e.g. a click sound). */
  tickCount: number;
  /** Colour of the notches. */
  tickColor: number;
  /** Length of the pointer triangle, as a fraction of the wheel's radius. */
  pointerSize: number;
  /** Colour of the pointer at the top. */
  pointerColor: number;
  /** Colour of the chance label in the centre. */
  labelColor: number;
  /** Size of the chance label, as a fraction of the wheel's radius. */
  labelSize: number;
  /** Font family of the chance label. */
  fontFamily: string;
}

export const chanceWheelConfig: ChanceWheelConfig = {
  durationMs: 5000,
  turns: 5,
  resultDelayMs: 500,
  reducedMotionDurationMs: 1500,
  reducedMotionTurns: 1,
  ease: 'power3.out',
  direction: 'clockwise',
  padding: 0.1,
  ringWidth: 0.16,
  trackColor: 0x262b3d,
  discColor: 0x161a26,
  neutralColor: 0x3d8bfd,
  successColor: 0x4cc38a,
  failColor: 0xf0524d,
  tickCount: 40,
  tickColor: 0x0f121b,
  pointerSize: 0.16,
  pointerColor: 0xffffff,
  labelColor: 0xffffff,
  labelSize: 0.3,
  fontFamily: 'Inter, Roboto, Arial, sans-serif',
};

/** The defaults with a plan's overrides on top. */
export function resolveConfig(overrides?: Partial<ChanceWheelConfig>): ChanceWheelConfig {
  return overrides ? { ...chanceWheelConfig, ...overrides } : chanceWheelConfig;
}
