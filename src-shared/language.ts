// DESIGN.md §3 "Language": Accept-Language starting with `en` gives English; anything else, or none, Chinese.
export const LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export function languageFromAcceptLanguage(header: string | null | undefined): Language {
  if (!header) return 'zh';
  return header.trim().toLowerCase().startsWith('en') ? 'en' : 'zh';
}

/** The Accept-Language header the app sends for a UI language. */
export function acceptLanguageFor(language: Language): string {
  return language === 'en' ? 'en' : 'zh-CN';
}
