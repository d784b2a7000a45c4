import { displayTon, parseTon } from '../../contract/money.ts';

// What the screens show for an API amount, computed with the same display formatter the app uses.

export type Lang = 'en' | 'ru';
const LOCALE: Record<Lang, string> = { en: 'en-US', ru: 'ru-RU' };

/** A price as shown: every significant decimal, at least `minDecimals` (2 in the roulette and header, 1 in lists). */
export function shownPrice(amount: string | bigint, minDecimals: number, lang: Lang = 'en'): string {
  return displayTon(amount, LOCALE[lang], { minDecimals });
}

/** A balance as shown in the header and profile: exactly 2 decimals, cut off, never rounded up. */
export function shownBalance(amount: string | bigint, lang: Lang = 'en'): string {
  return displayTon(amount, LOCALE[lang], { minDecimals: 2, maxDecimals: 2 });
}

/** A shown amount read back into nanoTON (group separators dropped, the locale's decimal mark understood). */
export function readShown(text: string, lang: Lang = 'en'): bigint {
  const plain = lang === 'en' ? text.replace(/,/g, '') : text.replace(/[\s\u00a0\u202f]/g, '');
  return parseTon(plain.trim());
}
