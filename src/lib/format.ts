import { displayTon } from '../../contract/money.ts';
import { i18n } from '../i18n';

/**
 * Every number, percentage, amount and date the app shows is formatted here, by the interface language's
 * locale through Intl: Russian "1 000,25 · 12,5 %" or English "1,000.25 · 12.5%", never half of each.
 */

/** The number locale of the interface language: Russian separators ("1 000,25") or English ("1,000.25"). */
function numberLocale(): string {
  return (i18n.resolvedLanguage ?? i18n.language) === 'en' ? 'en-US' : 'ru-RU';
}

/**
 * A price (API decimal text or nanoTON) for display: every significant decimal the server has (0.25 stays
 * 0.25, never rounded), padded to `minDecimals` (spec §9: 2 in the roulette, 1 on the win screen and lists).
 * `maxDecimals` cuts a derived figure (an expected value) that is no price anyone pays or gets.
 */
export function formatTon(amount: string | bigint, minDecimals = 2, maxDecimals?: number): string {
  return displayTon(amount, numberLocale(), { minDecimals, maxDecimals });
}

/**
 * A balance for display: exactly 2 decimals (spec §2), cut off rather than rounded, so the header never
 * shows money the player does not have (3.999 TON shows 3.99, not 4.00).
 */
export function formatBalance(amount: string | bigint): string {
  return displayTon(amount, numberLocale(), { minDecimals: 2, maxDecimals: 2 });
}

/** A whole number with the locale's grouping: "12 345" / "12,345". */
export function formatInteger(value: number | bigint): string {
  return new Intl.NumberFormat(numberLocale(), { maximumFractionDigits: 0 }).format(value);
}

/** A plain number with up to `maxDecimals` decimals (trailing zeros dropped), in the locale's form. */
export function formatNumber(value: number, maxDecimals = 2, minDecimals = 0): string {
  return new Intl.NumberFormat(numberLocale(), {
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: Math.max(minDecimals, maxDecimals),
  }).format(value);
}

/**
 * A fraction (0.125) as a percentage in the locale's form ("12.5%" / "12,5 %"), with `decimals` decimals at
 * most (`fixed`: exactly that many).
 */
export function formatPercent(fraction: number, decimals = 1, fixed = false): string {
  return new Intl.NumberFormat(numberLocale(), {
    style: 'percent',
    minimumFractionDigits: fixed ? decimals : 0,
    maximumFractionDigits: decimals,
  }).format(fraction);
}

/** A moment (ISO text or Date) as a short date and time in the locale's form. */
export function formatDateTime(at: string | Date): string {
  return new Intl.DateTimeFormat(numberLocale(), { dateStyle: 'short', timeStyle: 'medium' }).format(
    typeof at === 'string' ? new Date(at) : at,
  );
}

/** The first letter of a name, for an avatar without a picture. */
export function initialOf(name: string | null | undefined): string {
  const first = Array.from((name ?? '').trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}
