// The webhook inspector's front door: its page, loaded on its own when the webhooks tab is opened.
import type { ComponentType } from 'react';

/** The webhooks tab's page, in its own chunk (the app opens on the studio). */
export const loadInspectorPanel = (): Promise<ComponentType> => import('./InspectorPanel.tsx').then((m) => m.InspectorPanel);
