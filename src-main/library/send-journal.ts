// The send journal (docs/main-process.md "Recovery of local data"): before a generate request goes out, its
// turn is appended, fsynced, to <dataDir>/sends.jsonl, a file beside library.db and never inside it, so a
// library restored from an older backup can still learn which requests were sent since and never send them again.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerateRequest } from '../../src-shared/api.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { NewTurn } from './library-repo.ts';

export const SEND_JOURNAL_FILE = 'sends.jsonl';

/** One request about to be sent: enough to record its turn again (and relink its batch job) in a restored library. */
export interface SentTurn {
  turnId: string;
  sessionId: string;
  environment: EnvironmentName;
  request: Omit<GenerateRequest, 'session_id'>;
  estimate: NewTurn['estimate'];
  startedAt: number;
  retryOf: string | null;
  batchJobId: string | null;
}

export class SendJournal {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, SEND_JOURNAL_FILE);
  }

  /** Appends one line and waits for the disk: the request is sent only after this returns. */
  record(entry: SentTurn): void {
    const fd = openSync(this.path, 'a', 0o600);
    try {
      // A leading line break ends a line a crash cut short, so it never swallows this entry (empty lines are skipped).
      writeSync(fd, `\n${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Forgets the entries sent before `at` (the oldest backup a restore could bring back, less a margin), so the file
   * stays small; rewritten beside itself, fsynced and renamed, so a crash leaves the old file or the new one.
   */
  keepFrom(at: number): void {
    const entries = this.entries();
    const kept = entries.filter((e) => e.startedAt >= at);
    if (kept.length === entries.length) return;
    const next = `${this.path}.next`;
    const fd = openSync(next, 'w', 0o600);
    try {
      writeSync(fd, kept.map((e) => `${JSON.stringify(e)}\n`).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(next, this.path);
  }

  /** Every entry, oldest first; a line a crash cut short is skipped. */
  entries(): SentTurn[] {
    if (!existsSync(this.path)) return [];
    const out: SentTurn[] = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const parsed = JSON.parse(line) as SentTurn;
        if (typeof parsed.turnId === 'string' && typeof parsed.sessionId === 'string' && typeof parsed.startedAt === 'number') out.push(parsed);
      } catch {
        // the last line of a crash mid-write
      }
    }
    return out;
  }
}
