// The request ledger when service.db cannot be written: entries wait and are retried, the overflow is dropped and
// counted, each logged once, and neither recording nor looking up ever throws or waits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db.ts';
import type { Logger } from '../logger.ts';
import { capText, createRequestLedger, screenBody, type RequestRecord } from './request-ledger.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function record(i: number): RequestRecord {
  return {
    requestId: `req_${String(i).padStart(20, '0')}`,
    atMs: Date.now(),
    durationMs: 1,
    caller: { accountId: null, keyId: null },
    asked: { method: 'GET', path: '/api/v1/image-pack-publications/1', route: 'publication', body: '' },
    answered: { status: 404, errorCode: 'not_found', body: '{}' },
    turnId: null,
    deliveryIds: [],
  };
}

function recordingLogger(): { logger: Logger; lines: Array<{ level: string; msg: string }> } {
  const lines: Array<{ level: string; msg: string }> = [];
  const at = (level: string) => (_obj: object, msg: string) => void lines.push({ level, msg });
  return { logger: { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger, lines };
}

describe('request ledger on a storage that refuses writes', () => {
  it('drops what does not fit in the queue, counts it, logs the outage and the drops once, and never throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-ledger-ro-'));
    dirs.push(dir);
    openDatabase(join(dir, 'service.db')).close();
    // A read-only connection answers SQLITE_READONLY: a storage failure by write-retry.ts's rule.
    const db = new DatabaseSync(join(dir, 'service.db'), { readOnly: true });
    const { logger, lines } = recordingLogger();
    const ledger = createRequestLedger({ db, logger, retryDelaysMs: [20] });
    const started = performance.now();
    for (let i = 0; i < 5_100; i++) ledger.record(record(i));
    expect(performance.now() - started).toBeLessThan(2_000);
    await new Promise((r) => setTimeout(r, 200));
    expect(ledger.dropped).toBe(100);
    expect(ledger.get(record(0).requestId)).toBeNull();
    expect(lines.filter((l) => l.msg.includes('cannot be written'))).toHaveLength(1);
    expect(lines.filter((l) => l.msg.includes('dropped until it drains'))).toHaveLength(1);
    ledger.close();
    db.close();
  });
});

describe('screening and capping', () => {
  it('replaces secret fields and secret-shaped text, and cuts at the cap without splitting a character', () => {
    const key = `sk_${'A'.repeat(32)}`;
    expect(screenBody(JSON.stringify({ prompt: `use ${key}`, nested: { secret: 'whsec_x', api_key: 'k' } }))).toBe(
      JSON.stringify({ prompt: 'use [redacted]', nested: { secret: '[redacted]', api_key: '[redacted]' } }),
    );
    expect(screenBody(`not json ${key}`)).toBe('not json [redacted]');
    expect(capText('ab€', 3)).toEqual({ text: 'ab', cut: true });
    expect(capText('abc', 3)).toEqual({ text: 'abc', cut: false });
  });
});
