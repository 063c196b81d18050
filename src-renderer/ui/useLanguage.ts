import { useTranslation } from 'react-i18next';
import type { Language } from '../../src-shared/language.ts';
import { languageOfI18n } from '../i18n/index.ts';

/** The UI language as src-shared names it ('zh' | 'en'), for catalog texts and error messages. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return languageOfI18n(i18n.language);
}
