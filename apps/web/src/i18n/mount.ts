import { LANGUAGES } from '@balcao/contracts';
import i18n from './index';
import type { DomainMessages } from './domain';

/**
 * Mounts the texts of a screen that only its own lazy chunk renders, so they
 * download with that chunk instead of the shell. The domain's `texts.ts` calls it
 * at module scope, and every file of the screen that calls `t('<key>.…')`
 * imports that `texts.ts`: whichever loads first mounts them, before any render.
 */
export function mountTexts<T>(key: string, messages: DomainMessages<T>): DomainMessages<T> {
  for (const lang of LANGUAGES) i18n.addResourceBundle(lang, 'translation', { [key]: messages[lang] }, true, false);
  return messages;
}
