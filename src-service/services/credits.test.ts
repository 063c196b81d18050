/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// A refund that cannot be written (a full disk at settle time) is retried in the background until it succeeds,
// without a restart, and applied exactly once (spec §4.1 billing rule 2, DESIGN.md §3 crash safety).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { API_SCOPES } from '../../src-shared/api.ts';
import { createLogger } from '../logger.ts';
import { startService, type RunningService } from '../start.ts';
import { adminApi } from '../test-support.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function diskFull(): Error {
  return Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13, errstr: 'database or disk is full' });
}

async function start(beforeCreditClose: (turnId: string) => void): Promise<{ service: RunningService; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-credits-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const service = await startService({
    port: 0,
    dataDir,
    adminToken: 'credits-test-token',
    logger: createLogger('silent'),
    testing: { beforeCreditClose, settleRetryDelaysMs: [50, 100, 200] },
  });
  cleanups.push(() => service.close());
  return { service, dataDir };
}

describe('settle and refund under a failing disk', () => {
  it('retries a refund that failed to be written until it succeeds, without a restart, exactly once', async () => {
    let failing = 0;
    const calls: string[] = [];
    const { service, dataDir } = await start((turnId) => {
      calls.push(turnId);
      if (failing > 0) {
        failing--;
        throw diskFull();
      }
    });
    const admin = adminApi(service);
    const account = await admin('POST', '/admin/accounts', { credits: 500, age_days: 30 });
    const key = await admin('POST', `/admin/accounts/${account.id}/api-keys`, { name: 'k', scopes: [...API_SCOPES] });

    // The settle of a successful run fails, then its refund, then two retries; the fifth write succeeds.
    failing = 4;
    const res = await fetch(`${service.baseUrl}/api/v1/generate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.key}` },
      body: JSON.stringify({ prompt: 'a bottle', n: 2, resolution: '1K', model: 'nano-banana-2' }),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as any).error.code).toBe('internal_error');

    let after: any;
    for (let i = 0; i < 100; i++) {
      after = await admin('GET', `/admin/accounts/${account.id}`);
      if (after.reserved === 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(after).toMatchObject({ credits: 500, reserved: 0 });
    expect(calls.length).toBe(5);
    const [turn] = (await admin('GET', `/admin/accounts/${account.id}/turns?since=0`)).turns;
    expect(turn).toMatchObject({ status: 'failed', credits_charged: 0, reserved: 0, images: [] });

    // Exactly once: one reserve and one refund in the ledger, and nothing more happens later.
    await new Promise((r) => setTimeout(r, 400));
    expect((await admin('GET', `/admin/accounts/${account.id}`)).credits).toBe(500);
    await service.close();
    const db = new DatabaseSync(join(dataDir, 'service.db'), { readOnly: true });
    const ledger = db.prepare('SELECT kind, amount FROM ledger WHERE turn_id = ? ORDER BY id').all(turn.turn_id);
    db.close();
    expect(ledger.map((r) => ({ ...r }))).toEqual([
      { kind: 'reserve', amount: -24 },
      { kind: 'refund', amount: 24 },
    ]);
  });
});
