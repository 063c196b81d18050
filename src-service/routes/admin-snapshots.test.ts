/* eslint-disable @typescript-eslint/no-explicit-any -- tests read response bodies field by field */
// Snapshots and reset over real HTTP on loopback (docs/local-service.md "Snapshots and reset"): a restore brings back
// balance, keys, images and the clock while the service runs; reset empties it; a restart after either is no
// "damaged" folder; a restore waits for a running generation; and the CLI's --export-on-exit (SIGTERM) and --import.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, startCli, tempDir } from '../cli.test-support.ts';
import { startTestService, useTestService, type TestService } from '../test-support.ts';

const svc = useTestService();

const ONE_IMAGE = { prompt: 'a ceramic cup', model: 'nano-banana-2', resolution: '1K', ratio: '1:1', n: 1 };

/** The PNG bytes a client gets for a file: the API's 302, then the direct link (without the key). */
async function download(s: Pick<TestService, 'baseUrl'>, key: string, filename: string): Promise<{ status: number; bytes: number }> {
  const first = await fetch(`${s.baseUrl}/api/file/${filename}`, { headers: { Authorization: `Bearer ${key}` }, redirect: 'manual' });
  if (first.status !== 302) return { status: first.status, bytes: 0 };
  const direct = await fetch(new URL(first.headers.get('location') ?? '', s.baseUrl));
  return { status: direct.status, bytes: (await direct.arrayBuffer()).byteLength };
}

/** One real generation of one image; answers its file name. */
async function made(s: Pick<TestService, 'baseUrl'>, key: string): Promise<string> {
  const res = await fetch(`${s.baseUrl}/api/v1/generate`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(ONE_IMAGE),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).images[0].filename as string;
}

describe('POST /admin/snapshots and restore', () => {
  it('brings back balance, keys, images, the webhook, the request ledger and the clock, while the service runs', async () => {
    const a = await svc.account({ credits: 5000 });
    const filename = await made(svc, a.key);
    const generateId = (await svc.admin('GET', `/admin/requests?account_id=${a.id}`)).body.requests[0].request_id;
    await svc.admin('PUT', `/admin/accounts/${a.id}/webhook`, { url: 'https://hooks.example.com/before', enabled: true });
    await svc.admin('POST', '/admin/clock', { reset: true, advance_s: 400 });
    const before = (await svc.admin('GET', `/admin/accounts/${a.id}`)).body;

    const saved = await svc.admin('POST', '/admin/snapshots', { name: 'after-one-image' });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'after-one-image' });
    expect(saved.body.size).toBeGreaterThan(0);
    expect((await svc.admin('GET', '/admin/snapshots')).body.snapshots.map((s: any) => s.name)).toContain('after-one-image');

    // Everything changes after the snapshot: a download, balance, the key, the image, the clock, a new account.
    expect((await download(svc, a.key, filename)).status).toBe(200);
    expect((await svc.admin('GET', `/admin/requests?account_id=${a.id}&route=file`)).body.requests).toHaveLength(1);
    await svc.admin('PATCH', `/admin/accounts/${a.id}`, { credits: 1 });
    await svc.admin('POST', `/admin/api-keys/${a.keyId}/revoke`);
    const imageId = (await svc.admin('GET', `/admin/accounts/${a.id}/turns?since=0`)).body.turns[0].images[0].id;
    expect((await svc.admin('DELETE', `/admin/images/${imageId}`)).status).toBe(204);
    await svc.admin('POST', '/admin/clock', { reset: true });
    await svc.admin('PUT', `/admin/accounts/${a.id}/webhook`, { url: 'https://hooks.example.com/after', enabled: false });
    const later = await svc.account();
    expect((await download(svc, a.key, filename)).status).toBe(401);

    const restored = await svc.admin('POST', '/admin/snapshots/after-one-image/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.name).toBe('after-one-image');
    // The request ledger is the snapshot's too: the generation is in it, the download made after it is not.
    expect((await svc.admin('GET', `/admin/requests/${generateId}`)).status).toBe(200);
    expect((await svc.admin('GET', `/admin/requests?account_id=${a.id}&route=file`)).body.requests).toEqual([]);
    expect((await svc.admin('GET', `/admin/accounts/${a.id}`)).body).toEqual(before);
    const file = await download(svc, a.key, filename);
    expect(file.status).toBe(200);
    expect(file.bytes).toBeGreaterThan(100);
    const clock = (await svc.admin('GET', '/admin/clock')).body;
    expect(clock.offset_s).toBeGreaterThanOrEqual(399);
    expect(clock.offset_s).toBeLessThanOrEqual(400);
    expect((await svc.admin('GET', `/admin/accounts/${later.id}`)).status).toBe(404);
    expect((await svc.admin('GET', `/admin/accounts/${a.id}/webhook`)).body).toMatchObject({ url: 'https://hooks.example.com/before', enabled: true });
    // The service goes on working on the restored state.
    expect((await svc.api('/api/v1/generate', { key: a.key, body: ONE_IMAGE })).status).toBe(200);
  });

  it('refuses a bad or taken name with 400 naming it, 404 for an unknown one, and deletes', async () => {
    expect((await svc.admin('POST', '/admin/snapshots', { name: 'twice' })).status).toBe(201);
    const again = await svc.admin('POST', '/admin/snapshots', { name: 'twice' });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('invalid_request');
    expect(again.body.error.message).toContain('name');
    for (const name of ['', '../up', '.hidden', 'a/b', 'x'.repeat(65)]) {
      const bad = await svc.admin('POST', '/admin/snapshots', { name });
      expect(bad.status, name).toBe(400);
      expect(bad.body.error.message, name).toContain('name');
    }
    expect((await svc.admin('POST', '/admin/snapshots/nothing-here/restore')).status).toBe(404);
    expect((await svc.admin('DELETE', '/admin/snapshots/twice')).status).toBe(204);
    expect((await svc.admin('DELETE', '/admin/snapshots/twice')).status).toBe(404);
    expect((await svc.admin('GET', '/admin/snapshots')).body.snapshots.map((s: any) => s.name)).not.toContain('twice');
  });

  it('waits for a running generation, which answers and is charged before the state is replaced', async () => {
    const a = await svc.account();
    await svc.admin('POST', '/admin/snapshots', { name: 'before-slow' });
    await svc.admin('PUT', '/admin/faults', { generate: { latency_ms: 800 } });
    try {
      const slow = svc.api('/api/v1/generate', { key: a.key, body: ONE_IMAGE });
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      const restored = await svc.admin('POST', '/admin/snapshots/before-slow/restore');
      expect(restored.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect((await slow).status).toBe(200);
      expect((await svc.admin('GET', `/admin/accounts/${a.id}`)).body).toMatchObject({ credits: 10_000, reserved: 0 });
    } finally {
      await svc.admin('PUT', '/admin/faults', { generate: { latency_ms: 0 } });
    }
  });
});

describe('POST /admin/reset', () => {
  it('empties the service (accounts, files, ledger, scenario, clock) and a restart on the folder is no damage', async () => {
    const s = await startTestService({ dataDir: tempDir() });
    try {
      const a = await s.account();
      await made(s, a.key);
      await s.admin('POST', '/admin/clock', { advance_s: 400 });
      await s.admin('PUT', '/admin/scenario', { rules: [{ match: { route: 'file' }, outcome: { status: 500 } }] });
      expect((await s.admin('GET', '/admin/requests')).body.requests.length).toBeGreaterThan(0);

      const reset = await s.admin('POST', '/admin/reset');
      expect(reset.status).toBe(200);
      expect(reset.body).toMatchObject({ reset: true, offset_s: 0 });
      expect((await s.admin('GET', `/admin/accounts/${a.id}`)).status).toBe(404);
      expect((await s.admin('GET', '/admin/requests')).body.requests).toEqual([]);
      expect((await s.admin('GET', '/admin/scenario')).body.rules).toEqual([]);
      expect((await s.admin('GET', '/admin/clock')).body.offset_s).toBe(0);
      expect(readdirSync(join(s.dataDir, 'files'))).toEqual([]);
    } finally {
      await s.close();
    }
    // A restart on the folder finds the empty state sound: no backup of the state before makes its accounts look lost.
    const again = await startTestService({ dataDir: s.dataDir });
    await again.close();
    expect(existsSync(join(s.dataDir, 'recoveries.jsonl'))).toBe(false);
  });
});

describe('--export-on-exit and --import', () => {
  it('writes the state on SIGTERM and a fresh service started with --import has it', async () => {
    const exportDir = join(tempDir(), 'export');
    const first = await startCli(['--port', '0', '--seed', '--data', tempDir(), '--export-on-exit', exportDir]);
    const { ready } = first;
    const key = ready.api_key as string;
    const filename = await made({ baseUrl: ready.base_url }, key);
    const adminHeaders = { Authorization: `Bearer ${ready.admin_token}`, 'Content-Type': 'application/json' };
    await fetch(`${ready.base_url}/admin/clock`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ advance_s: 400 }) });
    const account = await (await fetch(`${ready.base_url}/admin/accounts/${ready.account_id}`, { headers: adminHeaders })).json();
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(existsSync(join(exportDir, 'service.db'))).toBe(true);
    expect(readdirSync(join(exportDir, 'files'))).toContain(filename);
    expect(JSON.parse(readFileSync(join(exportDir, 'snapshot.json'), 'utf8')).name).toBe('export');

    const second = await startCli(['--port', '0', '--data', tempDir(), '--import', exportDir, '--admin-token', 'import-token']);
    const base = second.ready.base_url;
    const headers = { Authorization: 'Bearer import-token' };
    expect(await (await fetch(`${base}/admin/accounts/${ready.account_id}`, { headers })).json()).toEqual(account);
    expect((await download({ baseUrl: base }, key, filename)).status).toBe(200);
    const clock = (await (await fetch(`${base}/admin/clock`, { headers })).json()) as { offset_s: number };
    expect(clock.offset_s).toBeGreaterThanOrEqual(399);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
  });

  it('refuses an --import path without a service.db as a bad flag (exit 2)', async () => {
    await expect(startCli(['--port', '0', '--data', tempDir(), '--import', tempDir()])).rejects.toThrow(/exited with 2: .*--import .*service\.db/s);
  });
});

describe('a kill -9 while snapshots are saved', () => {
  it('leaves every listed snapshot whole and restorable, and the service state intact after the restart', async () => {
    const data = tempDir();
    const first = await startCli(['--port', '0', '--seed', '--data', data, '--admin-token', 'kill-token']);
    const headers = { Authorization: 'Bearer kill-token', 'Content-Type': 'application/json' };
    const base = first.ready.base_url;
    const account = await (await fetch(`${base}/admin/accounts/${first.ready.account_id}`, { headers })).json();
    // Saves in flight, one after the other, while the process is killed without warning.
    const saving = (async () => {
      for (let i = 0; i < 50; i++) {
        await fetch(`${base}/admin/snapshots`, { method: 'POST', headers, body: JSON.stringify({ name: `s${i}` }) }).catch(() => undefined);
      }
    })();
    await new Promise((r) => setTimeout(r, 150));
    first.child.kill('SIGKILL');
    await exited(first.child);
    await saving;

    const second = await startCli(['--port', '0', '--data', data, '--admin-token', 'kill-token']);
    const again = second.ready.base_url;
    expect(await (await fetch(`${again}/admin/accounts/${first.ready.account_id}`, { headers })).json()).toEqual(account);
    const listed = ((await (await fetch(`${again}/admin/snapshots`, { headers })).json()) as { snapshots: Array<{ name: string }> }).snapshots;
    // The kill landed while saves went on (not after all 50).
    expect(listed.length).toBeLessThan(50);
    // Only whole snapshots are listed (a half-written one is never shown), and no hidden leftover stays in the folder.
    for (const s of listed) {
      const restored = await fetch(`${again}/admin/snapshots/${s.name}/restore`, { method: 'POST', headers });
      expect(restored.status, s.name).toBe(200);
    }
    expect(readdirSync(join(data, 'snapshots')).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(await (await fetch(`${again}/admin/accounts/${first.ready.account_id}`, { headers })).json()).toEqual(account);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });
});
