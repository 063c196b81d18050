// Where a key the local console creates goes: onto the system clipboard, taken off again after the clear
// delay if it is still there (and on quit), or, where no clipboard reaches the user (the harness), into
// that one reply and no other. The real core and local service; the clipboard is the shell's.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { CreatedKey } from '../../src-shared/ipc/local-console.ts';
import type { IpcEventName, IpcMethodName } from '../../src-shared/ipc/index.ts';
import { IPC_EVENT_NAMES } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { createStudioApp } from '../app/create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from '../app/studio-app.ts';
import { CLIPBOARD_CLEAR_MS } from './local-console.ts';

const CLEAR_MS = 400;
const opened: CoreStudioApp[] = [];

async function open(shell: RecordingShell, saw: unknown[]): Promise<CoreStudioApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-new-key-'));
  const app = await createStudioApp({
    dataDir,
    shell,
    localService: new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service') }),
    secretStore: 'memory',
    testing: { clipboardClearMs: CLEAR_MS },
  });
  for (const event of IPC_EVENT_NAMES as readonly IpcEventName[]) app.on(event, (p) => saw.push(p));
  opened.push(app);
  return app;
}

async function ok<T>(app: CoreStudioApp, saw: unknown[], method: IpcMethodName, input: unknown): Promise<T> {
  const result = (await app.invoke(method, input)) as IpcResult<T>;
  saw.push(result);
  if (!result.ok) throw new Error(`${method}: ${JSON.stringify(result.error)}`);
  return result.value;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()));
});

describe('a new console key', () => {
  it('is copied, then cleared after the delay if still on the clipboard, and the reply never holds it', async () => {
    const shell = new RecordingShell();
    const saw: unknown[] = [];
    const app = await open(shell, saw);
    const started = Date.now();
    const created = await ok<CreatedKey>(app, saw, 'localCreateKey', { name: 'script', scopes: ['assets:read'] });
    expect(created).toMatchObject({ copiedToClipboard: true, oneTimeKey: null, clipboardClearsInS: 1 });
    expect(CLIPBOARD_CLEAR_MS).toBe(60_000);
    const key = shell.clipboard;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(JSON.stringify(saw)).not.toContain(key);
    await sleep(CLEAR_MS / 2);
    expect(shell.clipboard).toBe(key);
    await sleep(CLEAR_MS);
    expect(shell.clipboard).toBe('');
    const cleared = shell.calls.filter((c) => c.kind === 'clearClipboard');
    expect(cleared).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(CLEAR_MS);
  });

  it('leaves the clipboard alone when the user copied something else since', async () => {
    const shell = new RecordingShell();
    const saw: unknown[] = [];
    const app = await open(shell, saw);
    await ok<CreatedKey>(app, saw, 'localCreateKey', { name: 'script', scopes: ['assets:read'] });
    await shell.writeClipboard('the user’s own text');
    await sleep(CLEAR_MS * 2);
    expect(shell.clipboard).toBe('the user’s own text');
    expect(shell.calls.some((c) => c.kind === 'clearClipboard')).toBe(false);
  });

  it('does not outlive the app: quitting before the delay clears it', async () => {
    const shell = new RecordingShell();
    const saw: unknown[] = [];
    const app = await open(shell, saw);
    await ok<CreatedKey>(app, saw, 'localCreateKey', { name: 'script', scopes: ['assets:read'] });
    expect(shell.clipboard).not.toBe('');
    await app.close();
    expect(shell.clipboard).toBe('');
  });

  it('in the harness (no clipboard reaches the user) is in that one reply, once, and nowhere else', async () => {
    const shell = new RecordingShell(() => null, { clipboardReachesUser: false });
    const saw: unknown[] = [];
    const app = await open(shell, saw);
    const created = await ok<CreatedKey>(app, saw, 'localCreateKey', { name: 'script', scopes: ['assets:read'] });
    expect(created).toMatchObject({ copiedToClipboard: false, usedByApp: false });
    const key = created.oneTimeKey as string;
    expect(key).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    expect(shell.clipboard).toBe('');
    // Every other reply and event screens it, the console's own list included.
    const others: unknown[] = [];
    await ok(app, others, 'localStatus', {});
    await ok(app, others, 'settingsGet', {});
    expect(JSON.stringify(others)).not.toContain(key);
    expect(JSON.stringify(saw.filter((s) => s !== saw.at(-1)))).not.toContain(key);
    // Storing it for the app keeps it out of the reply, as before.
    const forApp = await ok<CreatedKey>(app, saw, 'localCreateKey', { name: 'app', scopes: ['generate:write', 'assets:read'], useForApp: true });
    expect(forApp).toMatchObject({ usedByApp: true, oneTimeKey: null });
  });
});
