import { displayTon } from '../../contract/money.ts';
import { i18n } from '../i18n';

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

/** The first letter of a name, for an avatar without a picture. */
export function initialOf(name: string | null | undefined): string {
  const first = Array.from((name ?? '').trim())[0];
  return first ? first.toLocaleUpperCase() : '?';
}
