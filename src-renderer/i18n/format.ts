// The one owner of how the UI writes dates, times, durations and numbers, per UI language:
//   en: 11/23/2026, 2:05 PM · 2:05:09 PM · Nov 24, 2:05 PM      zh: 2026/11/23 14:05 · 14:05:09 · 11月24日 14:05
// A Chinese UI never shows month/day/year. Dates are written out by hand, as Intl.DateTimeFormat writes them with
// the same fields (format.test.ts holds them to Intl's output): the first Intl.DateTimeFormat a renderer creates
// loads ICU's date data (20–80 ms measured on the project's 2-core machines), and the gallery's first session
// headers are on the path to the first thumbnails.
import { useMemo } from 'react';
import type { Language } from '../../src-shared/language.ts';
import { useLanguage } from './useLanguage.ts';

export interface Formats {
  /** Local date and time to the minute (a session, a batch, a backup). */
  dateTime(ms: number): string;
  /** Local date and time to the second (an image's creation, a key's last use, a signed timestamp). */
  dateTimeSeconds(ms: number): string;
  /** Local time of day to the second (a run, a delivery). */
  time(ms: number): string;
  /** Local time to the minute, with the day when it is not `now`'s day (a wait that ends tomorrow). */
  clock(ms: number, now: number): string;
  /** A local day as a date field shows it. */
  day(ms: number): string;
  /** A day typed in a date field (the UI's pattern, or yyyy-mm-dd) → its local midnight; null if it is no date. */
  parseDay(text: string): number | null;
  /** A count or an amount with the language's grouping (1,234). */
  number(n: number): string;
}

const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

function hoursMinutes(at: Date, language: Language, seconds: boolean): string {
  const h = at.getHours();
  const rest = `${pad2(at.getMinutes())}${seconds ? `:${pad2(at.getSeconds())}` : ''}`;
  return language === 'en' ? `${h % 12 || 12}:${rest} ${h < 12 ? 'AM' : 'PM'}` : `${h}:${rest}`;
}

function dayOf(at: Date, language: Language): string {
  const [y, m, d] = [at.getFullYear(), at.getMonth() + 1, at.getDate()];
  return language === 'en' ? `${m}/${d}/${y}` : `${y}/${m}/${d}`;
}

function dateTimeOf(ms: number, language: Language, seconds: boolean): string {
  const at = new Date(ms);
  return `${dayOf(at, language)}${language === 'en' ? ',' : ''} ${hoursMinutes(at, language, seconds)}`;
}

function clockOf(ms: number, now: number, language: Language): string {
  const at = new Date(ms);
  const time = hoursMinutes(at, language, false);
  if (at.toDateString() === new Date(now).toDateString()) return time;
  const day = language === 'en' ? `${MONTHS_EN[at.getMonth()]} ${at.getDate()},` : `${at.getMonth() + 1}月${at.getDate()}日`;
  return `${day} ${time}`;
}

/** yyyy-mm-dd always; otherwise the language's order (m/d/y in English, y/m/d in Chinese), any of / - . as separators. */
function parseDayOf(text: string, language: Language): number | null {
  const parts = text.trim().split(/\s*[/.\-年月日]\s*/).filter(Boolean).map(Number);
  const [a, b, c] = parts;
  if (parts.length !== 3 || a === undefined || b === undefined || c === undefined || parts.some((p) => !Number.isInteger(p))) return null;
  const iso = /^\d{4}-/.test(text.trim());
  const [y, m, d] = iso || language === 'zh' ? [a, b, c] : [c, a, b];
  const at = new Date(y, m - 1, d);
  return at.getFullYear() === y && at.getMonth() === m - 1 && at.getDate() === d ? at.getTime() : null;
}

const numberFormats = new Map<Language, Intl.NumberFormat>();
function numberOf(n: number, language: Language): string {
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language === 'en' ? 'en' : 'zh-CN')));
  return format.format(n);
}

export function formatsFor(language: Language): Formats {
  return {
    dateTime: (ms) => dateTimeOf(ms, language, false),
    dateTimeSeconds: (ms) => dateTimeOf(ms, language, true),
    time: (ms) => hoursMinutes(new Date(ms), language, true),
    clock: (ms, now) => clockOf(ms, now, language),
    day: (ms) => dayOf(new Date(ms), language),
    parseDay: (text) => parseDayOf(text, language),
    number: (n) => numberOf(n, language),
  };
}

/** The formats of the current UI language; a component using them re-renders when the language changes. */
export function useFormats(): Formats {
  const language = useLanguage();
  return useMemo(() => formatsFor(language), [language]);
}

/** yyyy-mm-dd of a local day: the machine form a native date input reads and writes, never shown as such. */
export function isoDay(ms: number): string {
  const at = new Date(ms);
  return `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())}`;
}

/** A duration as a timer shows it, the same in both languages: 45s, 1:05, 1:02:03. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = pad2(s % 60);
  if (h > 0) return `${h}:${pad2(m)}:${ss}`;
  return m > 0 ? `${m}:${ss}` : `${s}s`;
}

/** How long after a first moment, to the tenth of a second, the same in both languages: +0.4 s, +12.0 s. */
export function formatOffset(ms: number): string {
  return `+${(ms / 1000).toFixed(1)} s`;
}

/** A file size, the same in both languages: 512 B, 12 KB, 1.5 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
