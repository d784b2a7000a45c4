/**
 * The upgrade game's odds, as plain functions. The success arc covers wheel fractions [0, chance) from the
 * top (shared/wheel.ts), and the server's roll succeeds when rolled < chance: the wheel stops with the point
 * `rolled` under the pointer, so the pointer is inside the arc exactly when the roll succeeded.
 */

/** The chance of an upgrade at multiplier `coef` (spec §9: baseChance 0.39 divided by the coefficient). */
export function upgradeChance(baseChance: number, coef: number): number {
  if (!(coef > 0) || !Number.isFinite(baseChance)) return 0;
  return clampChance(baseChance / coef);
}

/** A chance clamped to [0, 1]; NaN counts as 0. */
export function clampChance(chance: number): number {
  return chance > 0 ? Math.min(chance, 1) : 0;
}

/**
 * A chance as the wheel shows it: percent with 1 decimal, halves rounded up (0.0195 → '2.0%'). The value is
 * first cut to 12 significant digits so that binary noise (0.0195 * 1000 = 19.499999999999996) does not
 * round the wrong way.
 */
export function formatChance(chance: number): string {
  const tenths = Math.round(Number((clampChance(chance) * 1000).toPrecision(12)));
  return `${(tenths / 10).toFixed(1)}%`;
}

/** Whether the wheel point at `fraction` of a turn lies inside the success arc [0, chance). */
export function isInsideArc(fraction: number, chance: number): boolean {
  return fraction >= 0 && fraction < clampChance(chance);
}
