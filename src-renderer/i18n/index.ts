// i18next with the two complete resource files; the UI language comes from settings (zh default, spec §2.3).
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../../src-shared/language.ts';
import { en } from './locales/en.ts';
import { zhCN } from './locales/zh-CN.ts';

export const I18N_LANG: Record<Language, string> = { zh: 'zh-CN', en: 'en' };

export function languageOfI18n(lng: string | undefined): Language {
  return lng?.startsWith('en') ? 'en' : 'zh';
}

void i18next.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, en: { translation: en } },
  lng: 'zh-CN',
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function setUiLanguage(language: Language): void {
  const lng = I18N_LANG[language];
  if (i18next.language !== lng) void i18next.changeLanguage(lng);
  // Setting the attribute, even to the same value, invalidates every :lang() match: the whole document restyles.
  if (document.documentElement.lang !== lng) document.documentElement.lang = lng;
}

/**
 * Who hears of the UI language changing: one i18next listener for all of them. A component reading the language
 * through react-i18next's useTranslation bound listeners of its own and checked the namespaces were loaded on every
 * render; a board draws hundreds of components that read it (`useText`, `useLanguage`).
 */
const languageListeners = new Set<() => void>();
i18next.on('languageChanged', () => {
  for (const listener of languageListeners) listener();
});

export function onLanguageChange(listener: () => void): () => void {
  languageListeners.add(listener);
  return () => languageListeners.delete(listener);
}

/** The i18next language now ('zh-CN', 'en'). */
export function i18nLanguage(): string {
  return i18next.language;
}

export { i18next };
