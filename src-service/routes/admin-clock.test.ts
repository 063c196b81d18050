// The service clock over real HTTP (docs/local-service.md "The service clock"): its offset survives a restart on
// the same data folder, and {reset: true} brings it back to real time without a new data folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support.ts';

const started: TestService[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const svc of started.splice(0)) await svc.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function serviceOn(dataDir: string): Promise<TestService> {
  const svc = await startTestService({ dataDir });
  started.push(svc);
  return svc;
}

const realNow = (): number => Math.floor(Date.now() / 1000);

describe('the service clock', () => {
  it('stays ahead after a restart, and {reset: true} brings it back to real time', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-clock-'));
    folders.push(dataDir);
    const first = await serviceOn(dataDir);
    const moved = await first.admin('POST', '/admin/clock', { advance_s: 400 });
    expect(moved.status).toBe(200);
    expect(moved.body.offset_s).toBe(400);
    await first.stop();
    started.splice(0);

    const second = await serviceOn(dataDir);
    const kept = (await second.admin('GET', '/admin/clock')).body;
    expect(kept.offset_s).toBe(400);
    expect(kept.now - realNow()).toBeGreaterThanOrEqual(399);

    const reset = await second.admin('POST', '/admin/clock', { reset: true });
    expect(reset.status).toBe(200);
    expect(reset.body.offset_s).toBe(0);
    expect(Math.abs(reset.body.now - realNow())).toBeLessThanOrEqual(1);
    // Reset then advance in one call: the new offset is exactly what was asked.
    expect((await second.admin('POST', '/admin/clock', { reset: true, advance_s: 60 })).body.offset_s).toBe(60);
    await second.admin('POST', '/admin/clock', { reset: true });
    await second.stop();
    started.splice(0);

    const third = await serviceOn(dataDir);
    expect((await third.admin('GET', '/admin/clock')).body.offset_s).toBe(0);
  });

  it('refuses a body that neither advances nor resets, naming the field, and leaves the clock alone', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-clock-'));
    folders.push(dataDir);
    const svc = await serviceOn(dataDir);
    await svc.admin('POST', '/admin/clock', { advance_s: 30 });
    for (const body of [{}, { reset: false }, { advance_s: -1 }, { reset: true, extra: 1 }]) {
      const res = await svc.admin('POST', '/admin/clock', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
    const empty = await fetch(`${svc.baseUrl}/admin/clock`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${svc.adminToken}`, 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: '{}',
    });
    expect(((await empty.json()) as { error: { message: string } }).error.message).toContain('advance_s');
    expect((await svc.admin('GET', '/admin/clock')).body.offset_s).toBe(30);
  });
});
