import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['ru', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Local storage key of the chosen language (spec §3, §9). */
const LANGUAGE_KEY = 'lang';
const DEFAULT_LANGUAGE: Language = 'ru';
const FALLBACK_LANGUAGE: Language = 'en';

function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Telegram `language_code`s (IETF tags) whose speakers expect the Russian interface rather than the English
 * one: Russian itself, and the languages of the countries and republics where Russian is the common second
 * language: Ukrainian, Belarusian, Kazakh, Kyrgyz, Uzbek, Tajik, Turkmen, Armenian, Azerbaijani, Romanian as
 * spoken in Moldova, and the languages of Russia's republics (Tatar, Bashkir, Chuvash, Chechen, Ossetian,
 * Yakut, Abkhaz). Every other code, and English, gets English.
 */
export const RUSSIAN_EXPECTING_LANGUAGES: readonly string[] = [
  'ru',
  'uk',
  'be',
  'kk',
  'ky',
  'uz',
  'tg',
  'tk',
  'hy',
  'az',
  'ro-md',
  'mo',
  'tt',
  'ba',
  'cv',
  'ce',
  'os',
  'sah',
  'ab',
];

/** The interface language for a Telegram `language_code` ('uk' → 'ru', 'de' → 'en', 'pt-br' → 'en'). */
export function languageForCode(code: string): Language {
  const tag = code.trim().toLowerCase().replace('_', '-');
  const base = tag.split('-')[0] ?? '';
  return RUSSIAN_EXPECTING_LANGUAGES.includes(tag) || RUSSIAN_EXPECTING_LANGUAGES.includes(base)
    ? 'ru'
    : 'en';
}

/** The language the player chose (kept under `lang`), or null if they never chose one. */
function chosenLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** `language_code` of the user in Telegram launch data (the raw init data query string), if any. */
export function launchLanguageCode(initData: string | undefined): string | null {
  if (!initData) return null;
  try {
    const user = new URLSearchParams(initData).get('user');
    const code = user ? (JSON.parse(user) as { language_code?: unknown }).language_code : undefined;
    return typeof code === 'string' && code !== '' ? code : null;
  } catch {
    return null;
  }
}

/** The launch data Telegram opened this page with (`tgWebAppData` in the URL's hash), read at once. */
function launchDataInUrl(): string | undefined {
  try {
    return new URLSearchParams(window.location.hash.slice(1)).get('tgWebAppData') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The language to start in: the player's own choice, else the one their Telegram language calls for
 * (first launch), else Russian (spec §9).
 */
function storedLanguage(): Language {
  const chosen = chosenLanguage();
  if (chosen) return chosen;
  const code = typeof window === 'undefined' ? null : launchLanguageCode(launchDataInUrl());
  return code ? languageForCode(code) : DEFAULT_LANGUAGE;
}

/**
 * Each language is its own lazily loaded chunk: the first screen fetches only the language in use
 * (the fallback follows in the background), instead of shipping both inside the entry script.
 */
const bundles: Record<Language, () => Promise<{ default: Record<string, unknown> }>> = {
  ru: () => import('./ru.json'),
  en: () => import('./en.json'),
};

export const i18n = i18next.createInstance();

/** Loads a language's texts once; resolves when they are in place. */
async function loadLanguage(language: Language): Promise<void> {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const texts = (await bundles[language]()).default;
  i18n.addResourceBundle(language, 'translation', texts, true, true);
}

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: storedLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
  showSupportNotice: false,
  returnNull: false,
});

/** Resolves once the stored (or default) language is loaded: the app renders after it. */
export const i18nReady: Promise<void> = loadLanguage(storedLanguage()).then(() => {
  // the fallback is only consulted for a missing key; fetch it without holding up the first screen
  void loadLanguage(FALLBACK_LANGUAGE).catch(() => undefined);
  // re-render with the texts now in place
  void i18n.changeLanguage(i18n.language);
});

function syncDocumentLanguage(lng: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

/** The language in use ('ru' or 'en'). */
export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : DEFAULT_LANGUAGE;
}

/**
 * Takes the interface language from Telegram's launch data once the platform has it (the demo environment's,
 * or a reload whose URL no longer carries it), unless the player chose a language themselves.
 */
export async function adoptLaunchLanguage(initData: string | undefined): Promise<void> {
  if (chosenLanguage()) return;
  const code = launchLanguageCode(initData);
  if (!code) return;
  const language = languageForCode(code);
  if (language === currentLanguage()) return;
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}

/** Switches the interface language and remembers it under `lang`: the player's choice wins from now on. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // not remembered across reloads, still switched
  }
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}
