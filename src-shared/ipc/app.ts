// IPC: what main tells the user about this start, e.g. that a damaged library was restored from a backup
// (docs/main-process.md "Recovery of local data"). A notice is a code and facts; the renderer words it in the
// UI language.
import { z } from 'zod';
import { IdSchema, method } from './contract.ts';

export const STARTUP_NOTICE_CODES = ['library_restored', 'library_salvaged', 'library_reset', 'settings_restored', 'settings_reset', 'local_account_recovered'] as const;
export type StartupNoticeCode = (typeof STARTUP_NOTICE_CODES)[number];

export interface StartupNotice {
  /** Unique within this start; the renderer dismisses by it. */
  id: string;
  code: StartupNoticeCode;
  /** Facts for the message: `damagedPath` (where the damaged file was kept), `backupDate`, `accountId`. */
  params: Record<string, string>;
}

export const appMethods = {
  appNotices: method<StartupNotice[]>()('app:notices', z.object({})),
  appDismissNotice: method<StartupNotice[]>()('app:dismiss-notice', z.object({ id: IdSchema })),
};
