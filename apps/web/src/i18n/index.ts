import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from '@balcao/contracts';
import { readStorage, STORAGE_KEYS, writeStorage } from '../api/storage';
import ptBR from './locales/pt-BR';
import en from './locales/en';
import es from './locales/es';
import tr from './locales/tr';
import { uiMessages } from '../components/texts';
import { withDomains } from './domain';

export const DEFAULT_LANGUAGE: Language = 'pt-BR';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The shared widgets' texts load with the entry; the screens' own with the shell (`./domains`). */
export const PUBLIC_DOMAIN_MESSAGES = { ui: uiMessages };

function initialLanguage(): Language {
  const stored = typeof window === 'undefined' ? null : readStorage(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources: {
    'pt-BR': { translation: withDomains(ptBR, 'pt-BR', PUBLIC_DOMAIN_MESSAGES) },
    en: { translation: withDomains(en, 'en', PUBLIC_DOMAIN_MESSAGES) },
    es: { translation: withDomains(es, 'es', PUBLIC_DOMAIN_MESSAGES) },
    tr: { translation: withDomains(tr, 'tr', PUBLIC_DOMAIN_MESSAGES) },
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
