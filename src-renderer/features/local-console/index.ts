// The local console's front door: the actions on the local service (the viewer deletes an image with one), the
// console's open state (the gallery opens it on a subject), and its page, loaded on its own when its tab is opened.
import type { ComponentType } from 'react';

export { useLocalAction } from './queries.ts';
export { useLocalConsoleStore } from './store.ts';

/** The local tab's page, in its own chunk (the app opens on the studio). */
export const loadLocalConsole = (): Promise<ComponentType> => import('./LocalConsole.tsx').then((m) => m.LocalConsole);
