// TON helpers without dependencies: exact amount conversion and address shortening.
// (The text-comment cell needs @ton/core and lives in ton-comment.ts, loaded only where a transfer is sent.)

/** 1 TON = 10^9 nanoTON. */
export const NANO_DECIMALS = 9;

const DECIMAL = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * A TON amount in nanoTON, floored to a whole nanoTON, as a decimal string (what a TON Connect message
 * wants). The amount is read from its decimal text, digit by digit, so no float error creeps in:
 * 0.1 + 0.2 (0.30000000000000004) → '300000000', 1e-9 → '1', 1e-10 → '0'.
 * Accepts what an `<input type="number">` gives or a number (its shortest text form, exponents included).
 * Returns null for anything that is not a finite, non-negative decimal.
 */
export function tonToNano(amount: string | number): string | null {
  if (typeof amount === 'number' && !Number.isFinite(amount)) return null;
  const text = String(amount).trim();
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1000) return null;

  // value = digits × 10^(exponent − fraction length); in nanoTON, shift by 9 more and drop what is left.
  const digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  const shift = exponent - fraction.length + NANO_DECIMALS;
  if (shift >= 0) return digits + '0'.repeat(shift);
  const kept = digits.slice(0, Math.max(0, digits.length + shift));
  return kept === '' ? '0' : kept;
}

/** A nanoTON amount (string or bigint) as a TON decimal text without trailing zeros: '1500000000' → '1.5'. */
export function nanoToTonText(nano: string | bigint): string {
  const value = typeof nano === 'bigint' ? nano : BigInt(nano);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(NANO_DECIMALS);
  const whole = abs / base;
  const fraction = (abs % base).toString().padStart(NANO_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An address shortened to its first `head` and last `tail` characters around `ellipsis`; an address no
 * longer than head + tail comes back whole.
 */
export function shortenAddress(address: string, head: number, tail: number, ellipsis: string): string {
  if (address.length <= head + tail) return address;
  return `${address.slice(0, head)}${ellipsis}${address.slice(address.length - tail)}`;
}

/** The wallet button's form: first 4, an ellipsis, last 4 (spec §2, §9). */
export function buttonAddress(address: string): string {
  return shortenAddress(address, 4, 4, '…');
}

/** The profile's form: first 6, '...', last 5 (spec §2, §9). */
export function profileAddress(address: string): string {
  return shortenAddress(address, 6, 5, '...');
}
