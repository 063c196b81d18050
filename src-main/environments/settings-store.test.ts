import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('sets a damaged file aside as settings.json.bad and falls back to defaults', () => {
    const dir = mkdtempSync(join(tmpdir(), 'studio-settings-'));
    writeFileSync(join(dir, 'settings.json'), '{"language": 42');
    const store = new SettingsStore(dir);
    expect(store.get().language).toBe('zh');
    expect(existsSync(join(dir, 'settings.json.bad'))).toBe(true);
  });
});
