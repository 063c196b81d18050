// The one owner of the order boards and smart boards are shown in (the side bar, the strip, the picker's 1–9, the
// gallery's filter): by name as a person reads it, "Board 2" before "Board 10", in the UI language's collation.
// Main's list answers in name_key order, which is text order; the renderer knows the UI language, so it sorts here.
import type { Language } from '../../../src-shared/language.ts';
import { I18N_LANG } from '../../i18n/index.ts';

const collators = new Map<Language, Intl.Collator>();
function collatorFor(language: Language): Intl.Collator {
  let collator = collators.get(language);
  if (!collator) collators.set(language, (collator = new Intl.Collator(I18N_LANG[language], { numeric: true, sensitivity: 'base' })));
  return collator;
}

/** A sorted copy: by name (numbers by value, case and accents alike), then by id so equal names keep one order. */
export function sortByName<T extends { id: string; name: string }>(items: readonly T[], language: Language): T[] {
  const collator = collatorFor(language);
  return [...items].sort((a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
