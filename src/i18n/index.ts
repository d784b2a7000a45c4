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

function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
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

/** Switches the interface language and remembers it under `lang`. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // not remembered across reloads, still switched
  }
  await loadLanguage(language);
  await i18n.changeLanguage(language);
}
