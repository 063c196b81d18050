import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsStore } from './settings-store.ts';

describe('settings file', () => {
  it('starts from defaults (Chinese, Local) and keeps changes across opens', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    const store = new SettingsStore(dir);
    expect(store.get()).toMatchObject({ language: 'zh', environment: 'local', remoteBaseUrl: null });
    store.update((d) => {
      d.language = 'en';
      d.remoteBaseUrl = 'https://api.example.com';
    });
    expect(new SettingsStore(dir).get()).toMatchObject({ language: 'en', remoteBaseUrl: 'https://api.example.com' });
  });

  it('refuses a change that breaks the schema and keeps the file as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    const store = new SettingsStore(dir);
    store.update((d) => void (d.language = 'en'));
    const before = readFileSync(store.file, 'utf8');
    expect(() => store.update((d) => void ((d as { language: string }).language = 'fr'))).toThrow();
    expect(readFileSync(store.file, 'utf8')).toBe(before);
    expect(store.get().language).toBe('en');
  });

  it('keeps a damaged file aside byte for byte and, with no good copy, falls back to the defaults and says so', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    writeFileSync(join(dir, 'settings.json'), '{"language": 42');
    const store = new SettingsStore(dir, () => new Date('2026-11-22T10:15:00Z'));
    expect(store.get().language).toBe('zh');
    const damaged = join(dir, 'settings.json.damaged-2026-11-22T101500Z');
    expect(readFileSync(damaged, 'utf8')).toBe('{"language": 42');
    expect(store.recovery).toEqual({ code: 'settings_reset', params: { damagedPath: damaged } });
  });

  it('restores the last copy that parsed, and a second damage never overwrites the first damaged copy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    const now = () => new Date('2026-11-22T10:15:00Z');
    new SettingsStore(dir).update((d) => {
      d.language = 'en';
      d.local = { accountId: 'acct_1', keyId: 'key_1' };
    });
    writeFileSync(join(dir, 'settings.json'), Buffer.from([0xff, 0x00, 0x7b, 0x13]));
    const first = new SettingsStore(dir, now);
    expect(first.get()).toMatchObject({ language: 'en', local: { accountId: 'acct_1', keyId: 'key_1' } });
    expect(first.recovery?.code).toBe('settings_restored');
    // The restored file is whole again on disk.
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({ language: 'en' });
    writeFileSync(join(dir, 'settings.json'), '');
    const second = new SettingsStore(dir, now);
    expect(second.get()).toMatchObject({ language: 'en', local: { accountId: 'acct_1' } });
    const firstDamaged = join(dir, 'settings.json.damaged-2026-11-22T101500Z');
    expect(second.recovery).toEqual({ code: 'settings_restored', params: { damagedPath: `${firstDamaged}-2` } });
    expect(readFileSync(firstDamaged)).toEqual(Buffer.from([0xff, 0x00, 0x7b, 0x13]));
    expect(readFileSync(`${firstDamaged}-2`, 'utf8')).toBe('');
  });

  it('refreshes the good copy only from a file that parsed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    const store = new SettingsStore(dir);
    store.update((d) => void (d.language = 'en'));
    expect(JSON.parse(readFileSync(store.backupFile, 'utf8'))).toMatchObject({ language: 'en' });
    writeFileSync(store.file, '{"language": "fr"}');
    const reopened = new SettingsStore(dir);
    expect(reopened.recovery?.code).toBe('settings_restored');
    expect(JSON.parse(readFileSync(store.backupFile, 'utf8'))).toMatchObject({ language: 'en' });
  });

  it('writes through a temp file in the same folder and leaves no temp file behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    const store = new SettingsStore(dir);
    store.update((d) => void (d.language = 'en'));
    expect(readdirSync(dir).sort()).toEqual(['settings.json', 'settings.json.bak']);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
  });
});
