// The batch feature's front door: its texts (the header names the tab with them) and its page, loaded on its own
// when the batch tab is opened.
import type { ComponentType } from 'react';

export { batchText } from './i18n.ts';

/** The batch tab's page, in its own chunk (the app opens on the studio). */
export const loadBatchPage = (): Promise<ComponentType> => import('./BatchPage.tsx').then((m) => m.BatchPage);
