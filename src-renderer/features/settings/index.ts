// The settings' front door: the settings as every feature reads them (and main.tsx asks for before the first
// paint), the header's environment badge, and the settings page, loaded on its own when its tab is opened.
import type { ComponentType } from 'react';

export { settingsQuery, useSettings, useSettingsSync } from './queries.ts';
export { EnvironmentBadge } from './EnvironmentBadge.tsx';

/** The settings tab's page, in its own chunk (the app opens on the studio). */
export const loadSettingsPage = (): Promise<ComponentType> => import('./SettingsPage.tsx').then((m) => m.SettingsPage);
