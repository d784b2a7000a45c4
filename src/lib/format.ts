/** A TON amount for display: 2 decimals in the header and roulette, 1 on the win screen and item list. */
export function formatTon(value: number, digits = 2): string {
  return Number.isFinite(value) ? value.toFixed(digits) : (0).toFixed(digits);
}

/** The first letter of a name, for an avatar without a picture. */
export function initialOf(name: string | null | undefined): string {
  const first = Array.from((name ?? '').trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}
