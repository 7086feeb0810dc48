import { LANGUAGES, type Language } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { companySettings } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { DEFAULT_DAY_GREETINGS, type DayGreetings } from '../../messages/variables.js';

/** The fixed words the bot itself sends to a customer (menus, LGPD answers, `{{ms}}`), per company `botLanguage`. */
export interface BotWords {
  back: string;
  mainMenu: string;
  accept: string;
  decline: string;
  /** `{{ms}}`: morning, afternoon, evening. */
  dayGreetings: DayGreetings;
}

export const BOT_WORDS: Record<Language, BotWords> = {
  'pt-BR': {
    back: 'Voltar',
    mainMenu: 'Menu inicial',
    accept: 'Aceito',
    decline: 'Não aceito',
    dayGreetings: DEFAULT_DAY_GREETINGS,
  },
  en: {
    back: 'Back',
    mainMenu: 'Main menu',
    accept: 'I accept',
    decline: 'I do not accept',
    dayGreetings: ['Good morning', 'Good afternoon', 'Good evening'],
  },
  es: {
    back: 'Volver',
    mainMenu: 'Menú inicial',
    accept: 'Acepto',
    decline: 'No acepto',
    dayGreetings: ['Buenos días', 'Buenas tardes', 'Buenas noches'],
  },
  tr: {
    back: 'Geri',
    mainMenu: 'Ana menü',
    accept: 'Kabul ediyorum',
    decline: 'Kabul etmiyorum',
    dayGreetings: ['Günaydın', 'İyi günler', 'İyi akşamlar'],
  },
};

const isLanguage = (value: string | null | undefined): value is Language => (LANGUAGES as readonly string[]).includes(value ?? '');

/** The words of a `botLanguage` value; anything unknown (a row written before the setting) is the default pt-BR. */
export const wordsOf = (language: string | null | undefined): BotWords => BOT_WORDS[isLanguage(language) ? language : 'pt-BR'];

/** The company's bot words. */
export async function botWords(ctx: AppContext, companyId: number): Promise<BotWords> {
  const [row] = await ctx.db.select({ language: companySettings.botLanguage }).from(companySettings).where(eq(companySettings.companyId, companyId));
  return wordsOf(row?.language);
}
