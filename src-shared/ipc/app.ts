// IPC: what main tells the user about this start, e.g. that a damaged library was restored from a backup
// (docs/main-process.md "Recovery of local data"). A notice is a code and facts; the renderer words it in the
// UI language.
import { z } from 'zod';
import { IdSchema, method } from './contract.ts';

export const STARTUP_NOTICE_CODES = [
  'library_restored',
  'library_salvaged',
  'library_reset',
  'settings_restored',
  'settings_reset',
  'local_account_recovered',
  /** After a restore: generations sent since the backup were recorded again from the send journal. */
  'sends_brought_back',
  /** The latest library backup failed (replaced by the next failure, removed by the next success). */
  'library_backup_failed',
  /** The local service found service.db damaged or lost and rebuilt it: from what it still held, from its backup, or nothing. */
  'service_salvaged',
  'service_restored',
  'service_reset',
] as const;
export type StartupNoticeCode = (typeof STARTUP_NOTICE_CODES)[number];

export interface StartupNotice {
  /** Unique within this start; the renderer dismisses by it. */
  id: string;
  code: StartupNoticeCode;
  /**
   * Facts for the message: `damagedPath` (where the damaged file was kept), `backupDate`, `accountId`; a restore's
   * `salvaged` (`sessions 3, turns 6`) and `notSalvaged` (tables that could not be read, `all` when the file would
   * not open); `sends_brought_back`: `count` generations recorded again, `unknown` of them still outcome unknown,
   * `batches` (names) and `batchCount` paused with such jobs; `library_backup_failed`: `error` and `folder`.
   */
  params: Record<string, string>;
}

export const appMethods = {
  appNotices: method<StartupNotice[]>()('app:notices', z.object({})),
  appDismissNotice: method<StartupNotice[]>()('app:dismiss-notice', z.object({ id: IdSchema })),
};
