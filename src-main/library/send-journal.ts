// The send journal (docs/main-process.md "Recovery of local data"): before a generate request goes out, its
// turn is appended, fsynced, to <dataDir>/sends.jsonl, a file beside library.db and never inside it, so a
// library restored from an older backup can still learn which requests were sent since and never send them again.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
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
      writeSync(fd, `${JSON.stringify(entry)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
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
