// The UI language as a hook. It lives with i18n (not ui) because the formats and texts follow it: ui imports i18n,
// never the reverse.
import type { Language } from '../../src-shared/language.ts';
import { languageOfI18n } from './index.ts';
import { useI18nLanguage } from './text.ts';

/** The UI language as src-shared names it ('zh' | 'en'), for catalog texts and error messages. */
export function useLanguage(): Language {
  return languageOfI18n(useI18nLanguage());
}
