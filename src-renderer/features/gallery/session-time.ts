// A session header's date and time, written out for the app's two languages as Intl.DateTimeFormat writes them
// ({ year, month, day: 'numeric', hour: 'numeric', minute: '2-digit' }), without Intl: the first
// Intl.DateTimeFormat a renderer creates loads ICU's date data (20–80 ms measured on the project's 2-core machines),
// and the gallery's first headers are on the path to the first thumbnails. session-time.test.ts holds it to
// Intl's output.
import type { Language } from '../../../src-shared/language.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `ms` in local time: "11/23/2026, 2:05 PM" in English, "2026/11/23 14:05" in Chinese. */
export function formatSessionTime(ms: number, language: Language): string {
  const at = new Date(ms);
  const year = at.getFullYear();
  const month = at.getMonth() + 1;
  const day = at.getDate();
  const hours = at.getHours();
  const minutes = pad2(at.getMinutes());
  if (language === 'en') return `${month}/${day}/${year}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
  return `${year}/${month}/${day} ${hours}:${minutes}`;
}
