import { afterEach, describe, expect, it } from 'vitest';
import { formatSessionTime } from './session-time.ts';

const INTL_OPTIONS = { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit' } as const;
const ZONES = ['UTC', 'Asia/Shanghai', 'America/New_York', 'Asia/Kolkata'];
const originalZone = process.env.TZ;

/** Local times in the current zone: midnight, noon, the hours either side, short and long months and days, a leap day. */
function times(): number[] {
  return [
    new Date(2026, 0, 2, 0, 7),
    new Date(2026, 10, 23, 14, 5),
    new Date(2026, 5, 30, 12, 59),
    new Date(2026, 11, 31, 23, 0),
    new Date(2028, 1, 29, 11, 30),
    new Date(2026, 8, 9, 1, 1),
    new Date(2026, 2, 15, 12, 0),
    // Either side of New York's daylight-saving changes (2026-03-08 02:00, 2026-11-01 02:00).
    new Date(2026, 2, 8, 1, 59),
    new Date(2026, 2, 8, 3, 1),
    new Date(2026, 10, 1, 1, 30),
    new Date(2026, 10, 1, 2, 30),
  ].map((d) => d.getTime());
}

describe('formatSessionTime', () => {
  afterEach(() => {
    if (originalZone === undefined) delete process.env.TZ;
    else process.env.TZ = originalZone;
  });

  for (const [language, locale] of [
    ['en', 'en'],
    ['zh', 'zh-CN'],
  ] as const) {
    it(`writes what Intl.DateTimeFormat(${locale}) writes, in ${ZONES.join(', ')}`, () => {
      for (const zone of ZONES) {
        process.env.TZ = zone;
        const intl = new Intl.DateTimeFormat(locale, INTL_OPTIONS);
        for (const ms of times()) expect(`${zone} ${formatSessionTime(ms, language)}`).toBe(`${zone} ${intl.format(ms)}`);
      }
    });
  }

  it('writes local time, 12-hour in English and 24-hour in Chinese', () => {
    const ms = new Date(2026, 10, 23, 0, 5).getTime();
    expect(formatSessionTime(ms, 'en')).toBe('11/23/2026, 12:05 AM');
    expect(formatSessionTime(ms, 'zh')).toBe('2026/11/23 0:05');
  });

  it('follows the zone: one instant is a different local time in Shanghai and New York', () => {
    const instant = Date.UTC(2026, 10, 23, 2, 30);
    process.env.TZ = 'Asia/Shanghai';
    expect(formatSessionTime(instant, 'zh')).toBe('2026/11/23 10:30');
    process.env.TZ = 'America/New_York';
    expect(formatSessionTime(instant, 'zh')).toBe('2026/11/22 21:30');
  });
});
