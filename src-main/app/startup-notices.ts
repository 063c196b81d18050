// What main tells the user about this start (damaged files kept aside, backups restored, the local account
// recovered, generations recorded again after a restore) and about the library's backups while it runs: kept in
// memory for this run and read by the renderer through `app:notices`; `onChange` tells of a change after start.
import type { StartupNotice, StartupNoticeCode } from '../../src-shared/ipc/app.ts';
import type { ServiceRecovery } from '../../src-service/start.ts';
import type { StoredTurn } from '../domain/turns.ts';

export class StartupNotices {
  private notices: StartupNotice[] = [];
  private next = 1;
  private changed: () => void = () => undefined;

  add(code: StartupNoticeCode, params: Record<string, string>): void {
    this.notices.push({ id: `n${this.next++}`, code, params });
    this.changed();
  }

  /** One notice of this code at a time: a later one (a backup failing again) takes the earlier one's place. */
  replace(code: StartupNoticeCode, params: Record<string, string>): void {
    this.notices = this.notices.filter((n) => n.code !== code);
    this.add(code, params);
  }

  /** Removes the notices of this code (a backup succeeded after a failure); no change, no word. */
  clear(code: StartupNoticeCode): void {
    const before = this.notices.length;
    this.notices = this.notices.filter((n) => n.code !== code);
    if (this.notices.length !== before) this.changed();
  }

  /** Called after every change (the app tells the renderer to read them again). */
  onChange(listener: () => void): void {
    this.changed = listener;
  }

  list(): StartupNotice[] {
    return structuredClone(this.notices);
  }

  dismiss(id: string): StartupNotice[] {
    this.notices = this.notices.filter((n) => n.id !== id);
    return this.list();
  }
}

/**
 * After a restore, what became of the generations sent since the backup (generation/bring-back.ts), once
 * reconciliation settled what it could: how many, how many are still outcome unknown, and the batches paused
 * with such jobs. Null when nothing was brought back.
 */
export function broughtBackParams(turns: ReadonlyArray<StoredTurn | null>, pausedBatches: readonly string[]): Record<string, string> | null {
  if (turns.length === 0) return null;
  const unknown = turns.filter((t) => t?.status === 'outcome_unknown' || t?.status === 'running').length;
  return { count: String(turns.length), unknown: String(unknown), batches: pausedBatches.join(', '), batchCount: String(pausedBatches.length) };
}

/** `accounts 1, api_keys 1, images 3`: rows by table, as the library's salvage notice counts them. */
function rowCounts(...parts: Array<Record<string, number>>): string {
  const total: Record<string, number> = {};
  for (const part of parts) for (const [table, rows] of Object.entries(part)) total[table] = (total[table] ?? 0) + rows;
  return Object.entries(total).map(([table, rows]) => `${table} ${rows}`).join(', ');
}

/**
 * The notice for a rebuilt service.db (docs/local-service.md "A damaged service.db"): `service_salvaged` when the
 * rows came from the damaged file alone, `service_restored` when its backup filled something in, `service_reset` when
 * nothing could be brought back (Local then starts a new account, and says so).
 */
export function serviceRecoveryNotice(recovery: ServiceRecovery): { code: StartupNoticeCode; params: Record<string, string> } {
  const params = {
    damagedPath: recovery.damaged_path ?? '',
    reason: recovery.reason,
    kept: rowCounts(recovery.salvaged, recovery.from_backup),
    backupDate: recovery.backup_taken_at ?? '',
    notSalvaged: [...recovery.unreadable, ...Object.entries(recovery.dropped).map(([table, rows]) => `${table} ${rows}`)].join(', '),
  };
  if (recovery.accounts.length === 0) return { code: 'service_reset', params };
  return { code: Object.keys(recovery.from_backup).length > 0 ? 'service_restored' : 'service_salvaged', params };
}
