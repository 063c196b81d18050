import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { LANGUAGES } from '../../src-shared/language.ts';
import { MENU_LABELS, menuTemplate } from './menu.ts';

const actions = { openDataFolder: () => undefined, openLogsFolder: () => undefined, about: () => undefined };

function labels(items: MenuItemConstructorOptions[]): string[] {
  return items.map((i) => i.label ?? '');
}

describe('application menu', () => {
  it('has File, Edit, View, Window and Help in Chinese and English', () => {
    expect(labels(menuTemplate('zh', 'linux', actions, { developer: false }))).toEqual(['文件', '编辑', '视图', '窗口', '帮助']);
    expect(labels(menuTemplate('en', 'win32', actions, { developer: false }))).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('puts the app menu first on macOS', () => {
    expect(labels(menuTemplate('en', 'darwin', actions, { developer: false }))).toEqual(['Image Studio', 'File', 'Edit', 'View', 'Window', 'Help']);
  });

  it('offers reload and developer tools only to developers', () => {
    const roles = (developer: boolean) =>
      (menuTemplate('en', 'linux', actions, { developer }).find((m) => m.label === 'View')?.submenu as MenuItemConstructorOptions[]).map((i) => i.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toContain('toggleDevTools');
  });

  it('labels every item in both languages', () => {
    for (const language of LANGUAGES) {
      for (const value of Object.values(MENU_LABELS[language])) expect(value.trim()).not.toBe('');
      const walk = (items: MenuItemConstructorOptions[]): void => {
        for (const item of items) {
          if (item.type !== 'separator') expect(item.label, JSON.stringify(item.role)).toBeTruthy();
          if (Array.isArray(item.submenu)) walk(item.submenu);
        }
      };
      walk(menuTemplate(language, 'darwin', actions, { developer: true }));
    }
  });
});
