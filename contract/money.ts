// The one place TON amounts are converted. The server keeps integer nanoTON (bigint); amounts cross the
// API as exact decimal strings of TON ("3.97", "0.25", "0.000000001"), never as binary floats. Server and
// client both use these functions, so there is one parser, one canonical formatter and one display
// formatter. No float arithmetic happens on money anywhere in here.

/** Decimal places of TON: 1 TON = 10^9 nanoTON. */
export const TON_DECIMALS = 9;
export const NANO_PER_TON = 1_000_000_000n;

/** Canonical API form of an amount: no sign, no leading zeros, no trailing fraction zeros. */
export const TON_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]{0,8}[1-9])?$';

/** What a person may type (or a provider may send): digits, an optional point or comma, an optional exponent. */
const TYPED = /^(\d*)(?:[.,](\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * A TON amount written in decimal → integer nanoTON, exactly, or null when the text is not a
 * non-negative decimal or is finer than one nanoTON ("0.0000000001" is not a whole nanoTON).
 * Accepts "3.97", "3,97" (Russian keyboards), ".5", "5.", "007.10", "1e-9", "1.5E+2".
 */
export function tryParseTon(text: string): bigint | null {
  const match = TYPED.exec(text.trim());
  if (!match) return null;
  const [, whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  // value = digits × 10^(exponent − fraction length); in nanoTON shift by 9 more
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  const shift = exponent - fraction.length + TON_DECIMALS;
  if (shift >= 0) return BigInt(digits + '0'.repeat(shift));
  const cut = digits.length + shift;
  const dropped = cut > 0 ? digits.slice(cut) : digits;
  if (/[1-9]/.test(dropped)) return null; // finer than a nanoTON: not exact
  return cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
}

/** Like tryParseTon, for values that must be valid (configuration, database text, provider answers). */
export function parseTon(text: string): bigint {
  const nano = tryParseTon(text);
  if (nano === null) throw new RangeError(`not an exact non-negative TON amount: ${JSON.stringify(text)}`);
  return nano;
}

/** Integer nanoTON → the canonical API text of the amount in TON: 3970000000n → "3.97", 1n → "0.000000001". */
export function formatTon(nano: bigint): string {
  if (nano < 0n) return '-' + formatTon(-nano);
  const whole = nano / NANO_PER_TON;
  const fraction = (nano % NANO_PER_TON).toString().padStart(TON_DECIMALS, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

export interface DisplayOptions {
  /** Fraction digits always shown (zeros padded): 2 for the header, 1 on the win screen. */
  minDecimals?: number;
  /**
   * Fraction digits shown at most; digits beyond are cut off (truncated toward zero, never rounded up,
   * so a balance never shows money that is not there). Default: all of them (9), so a price shows every
   * significant decimal it has.
   */
  maxDecimals?: number;
}

const separators = new Map<string, { group: Intl.NumberFormat; decimal: string }>();

function localeParts(locale: string) {
  let parts = separators.get(locale);
  if (!parts) {
    const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
    parts = {
      group: new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 }),
      decimal: decimal?.value ?? '.',
    };
    separators.set(locale, parts);
  }
  return parts;
}

/**
 * An amount (API text or nanoTON) for people, in the locale's separators: "0,25" and "1 000,5" in
 * Russian, "0.25" and "1,000.5" in English. Every significant decimal shows unless `maxDecimals` cuts.
 */
export function displayTon(amount: string | bigint, locale: string, options: DisplayOptions = {}): string {
  const nano = typeof amount === 'bigint' ? amount : parseTon(amount);
  const min = Math.min(Math.max(options.minDecimals ?? 0, 0), TON_DECIMALS);
  const max = Math.max(Math.min(options.maxDecimals ?? TON_DECIMALS, TON_DECIMALS), min);
  const negative = nano < 0n;
  const abs = negative ? -nano : nano;
  const whole = abs / NANO_PER_TON;
  let fraction = (abs % NANO_PER_TON).toString().padStart(TON_DECIMALS, '0').slice(0, max);
  fraction = fraction.replace(/0+$/, '').padEnd(min, '0');
  const { group, decimal } = localeParts(locale);
  const sign = negative && (whole > 0n || /[1-9]/.test(fraction)) ? '-' : '';
  return `${sign}${group.format(whole)}${fraction ? decimal + fraction : ''}`;
}

/** Sum of API amounts, exactly. */
export function sumTon(amounts: readonly string[]): bigint {
  return amounts.reduce((sum, a) => sum + parseTon(a), 0n);
}

/** Compare two API amounts: negative, zero or positive like a sort comparator. */
export function compareTon(a: string, b: string): number {
  const x = parseTon(a);
  const y = parseTon(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
