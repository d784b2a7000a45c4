import { isColorKey, type FieldRule } from './config-io';

/**
 * Which control edits which config field, derived from the default config itself (its keys and value
 * types), so a field added to a scene's config shows up in the switcher without touching it.
 */
export type FieldControl =
  | { key: string; kind: 'number'; min: number; max: number; step: number }
  | { key: string; kind: 'color' }
  | { key: string; kind: 'color-list' }
  | { key: string; kind: 'color-map'; keys: string[] }
  | { key: string; kind: 'ease' }
  | { key: string; kind: 'choice'; options: readonly string[] }
  | { key: string; kind: 'text' };

/** gsap ease names offered in the ease list (any other gsap name or a cubic-bezier() can be typed). */
export const EASE_NAMES = [
  'none',
  'power1.out',
  'power2.out',
  'power3.out',
  'power4.out',
  'expo.out',
  'circ.out',
  'sine.out',
  'power1.inOut',
  'power2.inOut',
  'power3.inOut',
  'power4.inOut',
  'expo.inOut',
  'circ.inOut',
  'sine.inOut',
  'power2.in',
  'power3.in',
  'expo.in',
  'back.out(1.2)',
  'elastic.out(1, 0.5)',
  'bounce.out',
] as const;

/** Slider ranges [min, max, step] of fields whose sensible range does not follow from the default. */
const RANGES: Record<string, [number, number, number]> = {
  segmentCount: [2, 24, 1],
  minTurns: [0, 20, 1],
  maxTurns: [0, 20, 1],
  turns: [0, 20, 1],
  loops: [0, 12, 1],
  reducedMotionTurns: [0, 10, 1],
  reducedMotionLoops: [0, 10, 1],
  targetTrackLength: [2, 5000, 1],
  minCopies: [2, 500, 1],
  stopFromEnd: [1, 50, 1],
  reducedMotionCards: [1, 60, 1],
  tickCount: [0, 120, 1],
  edgeMargin: [0, 0.49, 0.01],
  itemWidth: [20, 400, 1],
  cardHeight: [20, 400, 1],
  tileHeight: [20, 300, 1],
  cardGap: [0, 60, 1],
  tileGap: [0, 60, 1],
  reelPadding: [0, 80, 1],
  markerWidth: [0, 20, 1],
  cardRadius: [0, 60, 1],
  tileRadius: [0, 60, 1],
  priceFontSize: [6, 48, 1],
  nameFontSize: [6, 48, 1],
};

function niceCeil(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(value, 1)));
  return Math.ceil(value / magnitude) * magnitude;
}

/** [min, max, step] of a numeric field, from the table above or from its name and default value. */
function numberRange(key: string, value: number): [number, number, number] {
  const known = RANGES[key];
  if (known) return known;
  if (/Ms$/.test(key)) return [0, niceCeil(Math.max(value * 3, 1_000)), value >= 1_000 ? 50 : 10];
  if (!Number.isInteger(value) && value > 0 && value < 1) return [0, 1, 0.005];
  if (Number.isInteger(value)) return [0, niceCeil(Math.max(value * 4, 10)), 1];
  return [0, niceCeil(value * 4), 0.1];
}

/** The controls of a config, one per field, in the config's own field order. */
export function fieldControls<T extends object>(
  defaults: T,
  rules: Partial<Record<keyof T & string, FieldRule>> = {},
): FieldControl[] {
  return Object.entries(defaults).map(([key, value]): FieldControl => {
    const choices = (rules as Record<string, FieldRule | undefined>)[key]?.choices;
    if (choices) return { key, kind: 'choice', options: choices };
    if (key === 'ease') return { key, kind: 'ease' };
    if (typeof value === 'number') {
      if (isColorKey(key)) return { key, kind: 'color' };
      const [min, max, step] = numberRange(key, value);
      return { key, kind: 'number', min, max, step };
    }
    if (Array.isArray(value)) return { key, kind: 'color-list' };
    if (value !== null && typeof value === 'object') {
      return { key, kind: 'color-map', keys: Object.keys(value) };
    }
    return { key, kind: 'text' };
  });
}

/** The one-line docs of a config's fields, read from the comments in the scene's config.ts interface. */
export function fieldDocs(source: string): Record<string, string> {
  const docs: Record<string, string> = {};
  const pattern = /\/\*\*([\s\S]*?)\*\/\s*([A-Za-z_$][\w$]*)\??\s*:/g;
  for (const match of source.matchAll(pattern)) {
    const text = match[1]!
      .split('\n')
      .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
      .filter(Boolean)
      .join(' ');
    if (!(match[2]! in docs)) docs[match[2]!] = text;
  }
  return docs;
}
