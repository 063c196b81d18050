// The one way the renderer gets user text: a namespace is an English table and a zh table of the same shape,
// and `useText(namespace)` gives its t(). The app's shared resources are the namespace `appText`; a feature
// with many strings of its own defines its namespace next to it (defineTextNamespace registers both tables).
import { useCallback, useSyncExternalStore } from 'react';
import { i18next, i18nLanguage, onLanguageChange } from './index.ts';
import type { Resources } from './locales/en.ts';

/** The zh table has exactly the English table's shape. */
export type SameShape<T> = { [K in keyof T]: T[K] extends string ? string : SameShape<T[K]> };

/** Dotted paths to every string of a nested table. */
type LeafKeys<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : LeafKeys<T[K], `${P}${K}.`>;
}[keyof T & string];

/** Plural keys are asked for by their base (`planTotal` with `count`), as i18next does. */
type PluralBase<K extends string> = K extends `${infer Base}_one` ? Base : never;

export type TextKey<T> = LeafKeys<T> | PluralBase<LeafKeys<T>>;

/** A namespace's t(): a key of its English table, options are i18next's (values, `count`). */
export type Text<T> = (key: TextKey<T>, options?: Record<string, unknown>) => string;

export interface TextNamespace<T> {
  readonly name: string;
  /** Only its type is read: it is what keys are checked against. */
  readonly en: T;
}

/** Registers a feature's English and zh tables under `name` (once per name); zh must have the English shape. */
export function defineTextNamespace<T extends object>(name: string, tables: { en: T; zh: SameShape<T> }): TextNamespace<T> {
  if (!i18next.hasResourceBundle('en', name)) {
    i18next.addResourceBundle('en', name, tables.en, true, true);
    i18next.addResourceBundle('zh-CN', name, tables.zh, true, true);
  }
  return { name, en: tables.en };
}

/** The app's shared resources (locales/en.ts and zh-CN.ts), i18next's default namespace. */
export const appText: TextNamespace<Resources> = { name: 'translation', en: {} as Resources };
export type AppText = Text<Resources>;

/** t() of one namespace in a given i18next language ('zh-CN', 'en'), outside React (tests). */
export function textIn<T>(namespace: TextNamespace<T>, lng: string): Text<T> {
  return (key, options) => translate(namespace.name, key, options, lng);
}

/** t() of one namespace in the current UI language, outside React (a message built where no component renders). */
export function textNow<T>(namespace: TextNamespace<T>): Text<T> {
  return (key, options) => translate(namespace.name, key, options, i18next.language);
}

/** The i18next language ('zh-CN', 'en'); the component re-renders when it changes. */
export function useI18nLanguage(): string {
  return useSyncExternalStore(onLanguageChange, i18nLanguage);
}

/** t() of one namespace; the component re-renders when the UI language changes. */
export function useText<T>(namespace: TextNamespace<T>): Text<T> {
  const lng = useI18nLanguage();
  const ns = namespace.name;
  return useCallback((key: TextKey<T>, options?: Record<string, unknown>) => translate(ns, key, options, lng), [ns, lng]);
}

function translate(ns: string, key: string, options: Record<string, unknown> | undefined, lng: string): string {
  // i18next's own t() is typed for the default namespace only; our keys are checked by TextKey instead.
  const t = i18next.t as unknown as (k: string, o: Record<string, unknown>) => string;
  return t(key, { ...options, ns, lng });
}

/** Separates a value's name from the words around it in a text's template (never in a translation). */
const MARK = '\u0001';

/**
 * A t() for texts drawn many times over with different values (a board's cells, each candidate's label): each text
 * is looked up once per language and set of value names, with marks in place of the values, and then filled in by
 * hand. i18next's own interpolation (regular expressions, nesting, escaping) cost the board's rows ~4 ms each as
 * they scrolled in. Plural texts (`count`) and values that are not strings or numbers go to `t` itself.
 */
export function templated<T>(t: Text<T>): Text<T> {
  const templates = new Map<string, string[]>();
  return (key, options) => {
    const names = options ? Object.keys(options) : [];
    if (options && ('count' in options || names.some((n) => typeof options[n] !== 'string' && typeof options[n] !== 'number'))) return t(key, options);
    const id = `${key}\n${names.join('\n')}`;
    let parts = templates.get(id);
    if (!parts) {
      // Even indexes are words, odd ones the names of values: "Candidate \u0001index\u0001 of …" splits so.
      parts = options ? t(key, Object.fromEntries(names.map((n) => [n, `${MARK}${n}${MARK}`]))).split(MARK) : [t(key)];
      templates.set(id, parts);
    }
    if (parts.length === 1) return parts[0] ?? '';
    let text = '';
    for (let i = 0; i < parts.length; i++) text += i % 2 === 0 ? (parts[i] ?? '') : String(options?.[parts[i] ?? ''] ?? '');
    return text;
  };
}

/** The templated t() of each namespace and language, shared by every component that asks (a board's cells). */
const sharedTemplates = new Map<string, Text<never>>();

/** useText(), templated (above) and shared: for texts drawn many times over, as a board's cells draw theirs. */
export function useTemplatedText<T>(namespace: TextNamespace<T>): Text<T> {
  const lng = useI18nLanguage();
  const id = `${namespace.name}\n${lng}`;
  let t = sharedTemplates.get(id) as Text<T> | undefined;
  if (!t) {
    const ns = namespace.name;
    t = templated<T>((key, options) => translate(ns, key, options, lng));
    sharedTemplates.set(id, t as unknown as Text<never>);
  }
  return t;
}
