/** cubic-bezier() eases as plain data, for the switcher's curve editor. */

export type Bezier = [x1: number, y1: number, x2: number, y2: number];

const PATTERN = /^cubic-bezier\(\s*([^,]+),\s*([^,]+),\s*([^,]+),\s*([^)]+)\)$/;

/** The four numbers of 'cubic-bezier(x1, y1, x2, y2)', or null for any other ease. */
export function parseBezier(ease: string): Bezier | null {
  const match = PATTERN.exec(ease.trim());
  if (!match) return null;
  const numbers = match.slice(1).map(Number);
  return numbers.every(Number.isFinite) ? (numbers as Bezier) : null;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** 'cubic-bezier(x1, y1, x2, y2)', each number to 3 decimals (x clamped to [0, 1], as CSS requires). */
export function formatBezier([x1, y1, x2, y2]: Bezier): string {
  const x = (n: number) => round(Math.min(Math.max(n, 0), 1));
  return `cubic-bezier(${x(x1)}, ${round(y1)}, ${x(x2)}, ${round(y2)})`;
}

/** cubic-bezier() stand-ins for gsap's named eases (close, not exact): where the handles start from. */
const NAMED: Record<string, Bezier> = {
  none: [0.25, 0.25, 0.75, 0.75],
  'power1.out': [0.25, 0.46, 0.45, 0.94],
  'power2.out': [0.215, 0.61, 0.355, 1],
  'power3.out': [0.165, 0.84, 0.44, 1],
  'power4.out': [0.23, 1, 0.32, 1],
  'expo.out': [0.19, 1, 0.22, 1],
  'circ.out': [0.075, 0.82, 0.165, 1],
  'sine.out': [0.39, 0.575, 0.565, 1],
  'power1.inOut': [0.455, 0.03, 0.515, 0.955],
  'power2.inOut': [0.645, 0.045, 0.355, 1],
  'power3.inOut': [0.77, 0, 0.175, 1],
  'power4.inOut': [0.86, 0, 0.07, 1],
  'expo.inOut': [1, 0, 0, 1],
  'circ.inOut': [0.785, 0.135, 0.15, 0.86],
  'sine.inOut': [0.445, 0.05, 0.55, 0.95],
  'power2.in': [0.55, 0.055, 0.675, 0.19],
  'power3.in': [0.895, 0.03, 0.685, 0.22],
  'expo.in': [0.95, 0.05, 0.795, 0.035],
};

/** The handles for an ease: its own numbers for a cubic-bezier(), else a stand-in for the gsap name. */
export function bezierFor(ease: string): Bezier {
  return parseBezier(ease) ?? NAMED[ease] ?? NAMED['power3.out']!;
}
