import { describe, expect, it } from 'vitest';
import { osOf } from './platform.ts';

describe('osOf', () => {
  it('names the OS of each navigator.platform Chromium reports', () => {
    expect(osOf('MacIntel')).toBe('mac');
    expect(osOf('Win32')).toBe('windows');
    expect(osOf('Linux x86_64')).toBe('linux');
    expect(osOf('Linux aarch64')).toBe('linux');
  });

  it('leaves an unknown or empty platform to the stylesheet’s full list of families', () => {
    expect(osOf('')).toBe('other');
    expect(osOf('FreeBSD amd64')).toBe('other');
  });
});
