import { afterEach, describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatOffset, formatsFor, isoDay } from './format.ts';

const ZONES = ['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata'];
const LANGUAGES = [
  ['en', 'en'],
  ['zh', 'zh-CN'],
] as const;
const originalZone = process.env.TZ;

/** Local times in the current zone: midnight, noon, the hours either side, short and long months and days, a leap day. */
function times(): number[] {
  return [
    new Date(2026, 0, 2, 0, 7, 3),
    new Date(2026, 10, 23, 14, 5, 9),
    new Date(2026, 5, 30, 12, 59, 59),
    new Date(2026, 11, 31, 23, 0, 0),
    new Date(2028, 1, 29, 11, 30, 30),
    new Date(2026, 8, 9, 1, 1, 1),
    new Date(2026, 2, 15, 12, 0, 0),
    // Either side of New York's daylight-saving changes (2026-03-08 02:00, 2026-11-01 02:00).
    new Date(2026, 2, 8, 1, 59),
    new Date(2026, 2, 8, 3, 1),
    new Date(2026, 10, 1, 1, 30),
    new Date(2026, 10, 1, 2, 30),
  ].map((d) => d.getTime());
}

/** What Intl writes for these fields, the reference our hand-written formats are held to. */
const INTL = {
  dateTime: { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  dateTimeSeconds: { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' },
  time: { hour: 'numeric', minute: '2-digit', second: '2-digit' },
  day: { year: 'numeric', month: 'numeric', day: 'numeric' },
} as const;

describe('formatsFor', () => {
  afterEach(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  for (const [language, locale] of LANGUAGES) {
    for (const [name, options] of Object.entries(INTL) as Array<[keyof typeof INTL, Intl.DateTimeFormatOptions]>) {
      it(`${name} writes what Intl.DateTimeFormat(${locale}) writes, in ${ZONES.join(', ')}`, () => {
        for (const zone of ZONES) {
          process.env.TZ = zone;
          const intl = new Intl.DateTimeFormat(locale, options);
          for (const ms of times()) expect(`${zone} ${formatsFor(language)[name](ms)}`).toBe(`${zone} ${intl.format(ms)}`);
        }
      });
    }

    it(`clock writes the day only when it is not today's, as Intl(${locale}) does`, () => {
      const now = new Date(2026, 10, 23, 9, 0).getTime();
      const today = new Date(2026, 10, 23, 14, 5).getTime();
      const tomorrow = new Date(2026, 10, 24, 0, 30).getTime();
      expect(formatsFor(language).clock(today, now)).toBe(new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(today));
      expect(formatsFor(language).clock(tomorrow, now)).toBe(
        new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(tomorrow),
      );
    });
  }

  // One local time (0:05:09 on 23 November 2026) as each language writes it; the clock's "now" is the day before.
  const WRITTEN = {
    zh: {
      says: 'year/month/day and a 24-hour clock in Chinese, never month/day/year',
      dateTime: '2026/11/23 0:05',
      dateTimeSeconds: '2026/11/23 0:05:09',
      time: '0:05:09',
      day: '2026/11/23',
      clock: '11月23日 0:05',
    },
    en: {
      says: 'month/day/year and a 12-hour clock in English',
      dateTime: '11/23/2026, 12:05 AM',
      dateTimeSeconds: '11/23/2026, 12:05:09 AM',
      time: '12:05:09 AM',
      day: '11/23/2026',
      clock: 'Nov 23, 12:05 AM',
    },
  } as const;
  for (const [language, { says, ...expected }] of Object.entries(WRITTEN) as Array<[keyof typeof WRITTEN, (typeof WRITTEN)[keyof typeof WRITTEN]]>) {
    it(`writes ${says}`, () => {
      const f = formatsFor(language);
      const ms = new Date(2026, 10, 23, 0, 5, 9).getTime();
      const written = { dateTime: f.dateTime(ms), dateTimeSeconds: f.dateTimeSeconds(ms), time: f.time(ms), day: f.day(ms), clock: f.clock(ms, new Date(2026, 10, 22).getTime()) };
      expect(written).toEqual(expected);
    });
  }

  it('follows the zone: one instant is a different local time in Shanghai and New York', () => {
    const instant = Date.UTC(2026, 10, 23, 2, 30);
    process.env.TZ = 'Asia/Shanghai';
    expect(formatsFor('zh').dateTime(instant)).toBe('2026/11/23 10:30');
    process.env.TZ = 'America/New_York';
    expect(formatsFor('zh').dateTime(instant)).toBe('2026/11/22 21:30');
  });

  it('reads a typed day in the language’s order or as yyyy-mm-dd, and refuses what is no day', () => {
    const nov23 = new Date(2026, 10, 23).getTime();
    expect(formatsFor('zh').parseDay('2026/11/23')).toBe(nov23);
    expect(formatsFor('zh').parseDay('2026年11月23日')).toBe(nov23);
    expect(formatsFor('zh').parseDay(' 2026-11-23 ')).toBe(nov23);
    expect(formatsFor('en').parseDay('11/23/2026')).toBe(nov23);
    expect(formatsFor('en').parseDay('2026-11-23')).toBe(nov23);
    expect(formatsFor('en').parseDay('23/11/2026')).toBeNull();
    expect(formatsFor('zh').parseDay('2026/2/30')).toBeNull();
    expect(formatsFor('zh').parseDay('yesterday')).toBeNull();
    expect(formatsFor('zh').parseDay('')).toBeNull();
  });

  it('round-trips a day through what the field shows, in both languages', () => {
    for (const [language] of LANGUAGES) {
      const f = formatsFor(language);
      for (const ms of times()) {
        const midnight = new Date(new Date(ms).toDateString()).getTime();
        expect(f.parseDay(f.day(ms))).toBe(midnight);
      }
    }
  });

  it('groups numbers as each language does', () => {
    expect(formatsFor('en').number(1234567)).toBe('1,234,567');
    expect(formatsFor('zh').number(1234567)).toBe(new Intl.NumberFormat('zh-CN').format(1234567));
    expect(formatsFor('zh').number(-40)).toBe('-40');
  });
});

describe('formatDuration and formatBytes', () => {
  it('writes seconds alone, then minutes:seconds, then hours:minutes:seconds', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(44_600)).toBe('45s');
    expect(formatDuration(65_000)).toBe('1:05');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
    expect(formatDuration(-5_000)).toBe('0s');
  });

  it('writes an offset to the tenth of a second', () => {
    expect(formatOffset(0)).toBe('+0.0 s');
    expect(formatOffset(420)).toBe('+0.4 s');
    expect(formatOffset(12_049)).toBe('+12.0 s');
  });

  it('writes bytes, kilobytes and megabytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(12 * 1024 + 100)).toBe('12 KB');
    expect(formatBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});

describe('isoDay', () => {
  it('writes the local day as yyyy-mm-dd, which both languages read back', () => {
    const ms = new Date(2026, 0, 2, 23, 59).getTime();
    expect(isoDay(ms)).toBe('2026-01-02');
    expect(formatsFor('zh').parseDay(isoDay(ms))).toBe(new Date(2026, 0, 2).getTime());
    expect(formatsFor('en').parseDay(isoDay(ms))).toBe(new Date(2026, 0, 2).getTime());
  });
});
