import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@balcao/contracts';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';
import ptBR from './locales/pt-BR';
import en from './locales/en';
import es from './locales/es';
import tr from './locales/tr';
import { DOMAIN_MESSAGES } from './domains';

export const DEFAULT_LANGUAGE: Language = 'pt-BR';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The base locale plus every domain's texts under its own key. */
export function withDomains(base: object, lang: Language): Record<string, unknown> {
  const domains = Object.fromEntries(Object.entries(DOMAIN_MESSAGES).map(([key, messages]) => [key, messages[lang]]));
  return { ...base, ...domains };
}

function initialLanguage(): Language {
  const stored = typeof window === 'undefined' ? null : readStorage(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: {
    'pt-BR': { translation: withDomains(ptBR, 'pt-BR') },
    en: { translation: withDomains(en, 'en') },
    es: { translation: withDomains(es, 'es') },
    tr: { translation: withDomains(tr, 'tr') },
  },
  lng: initialLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Switch the interface language and remember it in this browser. */
export function changeLanguage(lang: Language): void {
  writeStorage(STORAGE_KEYS.language, lang);
  document.documentElement.lang = lang;
  void i18n.changeLanguage(lang);
}

export default i18n;
