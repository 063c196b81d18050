// The send journal on a real file: entries survive a line cut short by a crash, and old ones are forgotten.
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SendJournal, type SentTurn } from './send-journal.ts';

const entry = (turnId: string, startedAt: number): SentTurn => ({
  turnId,
  sessionId: 'ls_1',
  environment: 'local',
  request: { prompt: 'a teapot', model: 'seedream-5-0-pro', n: 1 },
  estimate: { model: 'seedream-5-0-pro', total: 6 } as unknown as SentTurn['estimate'],
  startedAt,
  retryOf: null,
  batchJobId: null,
});

describe('the send journal', () => {
  it('reads back every whole entry, skips a line a crash cut short, and forgets entries before a time', () => {
    const journal = new SendJournal(mkdtempSync(join(tmpdir(), 'studio-journal-')));
    journal.record(entry('lt_a', 1000));
    journal.record(entry('lt_b', 2000));
    appendFileSync(journal.path, '{"turnId":"lt_c","sess');
    journal.record(entry('lt_d', 3000));
    expect(journal.entries().map((e) => e.turnId)).toEqual(['lt_a', 'lt_b', 'lt_d']);
    journal.keepFrom(2000);
    expect(journal.entries().map((e) => e.turnId)).toEqual(['lt_b', 'lt_d']);
  });
});
