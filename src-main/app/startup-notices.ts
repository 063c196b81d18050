// What main tells the user about this start (damaged files kept aside, backups restored, the local account
// recovered): kept in memory for this run and read by the renderer through `app:notices`.
import type { StartupNotice, StartupNoticeCode } from '../../src-shared/ipc/app.ts';

export class StartupNotices {
  private notices: StartupNotice[] = [];
  private next = 1;

  add(code: StartupNoticeCode, params: Record<string, string>): void {
    this.notices.push({ id: `n${this.next++}`, code, params });
  }

  list(): StartupNotice[] {
    return structuredClone(this.notices);
  }

  dismiss(id: string): StartupNotice[] {
    this.notices = this.notices.filter((n) => n.id !== id);
    return this.list();
  }
}
