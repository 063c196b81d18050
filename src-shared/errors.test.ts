import { describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES, ERROR_CODES, GENERATE_400_CODES, errorMessage, type ErrorCode } from './errors.ts';
import { acceptLanguageFor, languageFromAcceptLanguage } from './language.ts';

// spec §7's status table and retry guidance, restated independently.
const SPEC_TABLE: Array<[ErrorCode, number, string]> = [
  ['unauthorized', 401, 'do_not_retry'],
  ['invalid_api_key', 401, 'do_not_retry'],
  ['insufficient_credits', 402, 'do_not_retry'],
  ['insufficient_scope', 403, 'do_not_retry'],
  ['banned', 403, 'do_not_retry'],
  ['session_not_found', 404, 'do_not_retry'],
  ['not_found', 404, 'do_not_retry'],
  ['rate_limited', 429, 'back_off_exponentially'],
  ['new_user_daily_limit', 429, 'next_day'],
  ['internal_error', 500, 'retry_once'],
  ['auth_unavailable', 503, 'retry_after_seconds'],
];

describe('error codes', () => {
  it.each(SPEC_TABLE)('%s is HTTP %i with retry guidance %s', (code, status, retry) => {
    expect(ERROR_CODES[code].status).toBe(status);
    expect(ERROR_CODES[code].retry).toBe(retry);
  });

  it.each([...GENERATE_400_CODES])('400 sub-code %s is 400 and never retried', (code) => {
    expect(ERROR_CODES[code]).toMatchObject({ status: 400, retry: 'do_not_retry', action: 'fix_request' });
  });

  it('has the client actions of spec §7', () => {
    expect(ERROR_CODES.insufficient_credits.action).toBe('top_up');
    expect(ERROR_CODES.invalid_api_key.action).toBe('create_new_key');
    expect(ERROR_CODES.rate_limited.action).toBe('wait_for_window');
    expect(ERROR_CODES.internal_error.action).toBe('retry_once_then_report');
    expect(ERROR_CODES.auth_unavailable.action).toBe('retry_in_seconds');
    expect(ERROR_CODES.session_not_found.action).toBe('omit_or_own_session');
  });

  it.each(ALL_ERROR_CODES)('%s has a message in zh and en', (code) => {
    const zh = errorMessage(code, {}, 'zh');
    const en = errorMessage(code, {}, 'en');
    expect(zh.length).toBeGreaterThan(2);
    expect(en.length).toBeGreaterThan(5);
    expect(zh).not.toBe(en);
    expect(en).toMatch(/[A-Za-z]/);
  });

  it('says which way a key is invalid', () => {
    expect(errorMessage('invalid_api_key', { reason: 'revoked' }, 'en')).toMatch(/revoked/);
    expect(errorMessage('invalid_api_key', { reason: 'expired' }, 'en')).toMatch(/expired/);
    expect(errorMessage('invalid_api_key', { reason: 'unknown' }, 'en')).toMatch(/unknown/);
    expect(errorMessage('invalid_api_key', { reason: 'revoked' }, 'zh')).toMatch(/撤销/);
  });

  it('carries the facts DESIGN.md §3 requires', () => {
    expect(errorMessage('insufficient_credits', { needed: 92, balance: 10 }, 'en')).toMatch(/92.*10.*[Tt]op up/s);
    expect(errorMessage('invalid_ratio', { ratio: '"4:5"', model: 'qwen-image-3.0-pro', allowed: ['1:1', '3:4'] }, 'en')).toContain('1:1, 3:4');
    expect(errorMessage('invalid_resolution', { resolution: '"4K"', model: 'seedream-5-0-pro', allowed: ['1K', '2K'] }, 'zh')).toContain('1K, 2K');
    expect(errorMessage('too_many_reference_images', { count: 4, limit: 3, model: 'qwen-image-3.0-pro' }, 'en')).toMatch(/at most 3/);
  });
});

describe('Accept-Language', () => {
  it.each([
    ['en', 'en'],
    ['en-US,en;q=0.9', 'en'],
    ['EN-gb', 'en'],
    ['zh-CN', 'zh'],
    ['fr', 'zh'],
    ['', 'zh'],
    [undefined, 'zh'],
  ])('%s → %s', (header, lang) => {
    expect(languageFromAcceptLanguage(header)).toBe(lang);
  });
  it('round-trips the UI language', () => {
    expect(languageFromAcceptLanguage(acceptLanguageFor('en'))).toBe('en');
    expect(languageFromAcceptLanguage(acceptLanguageFor('zh'))).toBe('zh');
  });
});
