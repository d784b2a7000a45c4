import { describe, expect, it } from 'vitest';
import { languageForCode, launchLanguageCode, RUSSIAN_EXPECTING_LANGUAGES } from '../../src/i18n/index.ts';

// The first launch's language from Telegram's language_code: Russian for ru and the languages whose
// speakers expect it, English for every other.

describe('the language a Telegram language_code calls for', () => {
  it('is Russian for Russian and the languages of players who expect it', () => {
    for (const code of RUSSIAN_EXPECTING_LANGUAGES) expect(languageForCode(code), code).toBe('ru');
    for (const code of ['ru', 'RU', 'ru-RU', 'uk', 'be', 'kk', 'uz', 'ky', 'tg', 'ro-MD', 'ro_md'])
      expect(languageForCode(code), code).toBe('ru');
  });

  it('is English for any other', () => {
    for (const code of ['en', 'en-GB', 'de', 'pt-br', 'es', 'fa', 'ar', 'he', 'zh-hans', 'ro', 'lv', ''])
      expect(languageForCode(code), code).toBe('en');
  });

  it('is read from the user in raw launch data', () => {
    const user = JSON.stringify({ id: 1, first_name: 'A', language_code: 'uk' });
    expect(launchLanguageCode(new URLSearchParams({ user, hash: 'x' }).toString())).toBe('uk');
    expect(launchLanguageCode(new URLSearchParams({ user: '{"id":1}' }).toString())).toBeNull();
    expect(launchLanguageCode(new URLSearchParams({ user: 'not json' }).toString())).toBeNull();
    expect(launchLanguageCode(undefined)).toBeNull();
  });
});
