// Recovery of local data end to end (docs/main-process.md): the app against the real local service (child
// process), real files, the real keychain (under dbus-run-session + gnome-keyring in `npm test`). A damaged
// settings.json or library.db never costs the user the local account, its balance or the library.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IpcMethodName, LocalConsoleState, SettingsState, StartupNotice, TurnRecord } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { keychainSkipReason, keychainTestName } from '../secrets/keychain-for-tests.ts';
import { openSecretStore } from '../secrets/secret-store.ts';
import { createStudioApp } from './create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp } from './studio-app.ts';

const ADMIN_TOKEN = `adm_${'R'.repeat(32)}`;

interface Started {
  app: CoreStudioApp;
  ok<T = unknown>(method: IpcMethodName, input: unknown): Promise<T>;
}

const running: CoreStudioApp[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close();
});

async function start(dataDir: string, keychainService: string): Promise<Started> {
  const app = await createStudioApp({
    dataDir,
    shell: new RecordingShell(() => join(dataDir, 'exported.png')),
    localService: new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), restartDelayMs: 100, adminToken: ADMIN_TOKEN }),
    keychainService,
  });
  running.push(app);
  const ok = async <T,>(method: IpcMethodName, input: unknown): Promise<T> => {
    const result = await app.invoke(method, input);
    if (!result.ok) throw new Error(`${method} failed: ${JSON.stringify(result.error)}`);
    return result.value as T;
  };
  return { app, ok };
}

async function stop(s: Started): Promise<void> {
  running.splice(running.indexOf(s.app), 1);
  await s.app.close();
}

interface Before {
  dataDir: string;
  keychainService: string;
  accountId: string;
  credits: number;
  turnId: string;
}

/** First start: seed, spend credits on one generation, close. */
async function firstRun(): Promise<Before> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-recover-'));
  const keychainService = `image-studio-test-${randomUUID()}`;
  const s = await start(dataDir, keychainService);
  const { turnId } = await s.ok<{ turnId: string }>('generateStart', { request: { prompt: 'green teapot on oak', model: 'seedream-5-0-pro', n: 1 } });
  await s.app.whenGenerationsSettled();
  expect((await s.ok<TurnRecord>('libraryGetTurn', { turnId })).status).toBe('succeeded');
  const state = await s.ok<LocalConsoleState>('localStatus', {});
  expect(state.account.credits).toBeLessThan(10_000);
  await stop(s);
  return { dataDir, keychainService, accountId: state.account.id, credits: state.account.credits, turnId };
}

async function expectSameAccount(s: Started, before: Before): Promise<void> {
  const state = await s.ok<LocalConsoleState>('localStatus', {});
  expect(state.account.id).toBe(before.accountId);
  expect(state.account.credits).toBe(before.credits);
  expect(await s.ok('keyTest', { environment: 'local' })).toMatchObject({ ok: true, error: null });
}

function damagedSettings(dataDir: string): string[] {
  return readdirSync(dataDir).filter((f) => f.startsWith('settings.json.damaged-')).sort();
}

/** Null where the OS keychain is reachable; else why the tests that need it are skipped (their names say so). */
const noKeychain = await keychainSkipReason();

describe('recovery of local data', () => {
  it('a garbage settings.json with no good copy: the local account, its balance and its key are recovered from library.db', async () => {
    const before = await firstRun();
    const garbage = randomBytes(300);
    writeFileSync(join(before.dataDir, 'settings.json'), garbage);
    rmSync(join(before.dataDir, 'settings.json.bak'));
    const s = await start(before.dataDir, before.keychainService);
    await expectSameAccount(s, before);
    const [damaged] = damagedSettings(before.dataDir);
    expect(readFileSync(join(before.dataDir, damaged!))).toEqual(garbage);
    const notices = await s.ok<StartupNotice[]>('appNotices', {});
    expect(notices.map((n) => n.code)).toEqual(['settings_reset', 'local_account_recovered']);
    expect(notices[0]!.params.damagedPath).toBe(join(before.dataDir, damaged!));
    expect(notices[1]!.params.accountId).toBe(before.accountId);
    expect(JSON.parse(readFileSync(join(before.dataDir, 'settings.json'), 'utf8')).local.accountId).toBe(before.accountId);
    // Dismissed notices stay dismissed for this start.
    expect(await s.ok<StartupNotice[]>('appDismissNotice', { id: notices[0]!.id })).toEqual([notices[1]]);
  });

  it.skipIf(noKeychain !== null)(
    keychainTestName('a garbage settings.json with no good copy: the recovered account keeps the very key the keychain holds', noKeychain),
    async () => {
      const before = await firstRun();
      const storedKey = await (await openSecretStore({ service: before.keychainService })).get('env:local:api-key');
      expect(storedKey).toMatch(/^sk_/);
      writeFileSync(join(before.dataDir, 'settings.json'), randomBytes(300));
      rmSync(join(before.dataDir, 'settings.json.bak'));
      const s = await start(before.dataDir, before.keychainService);
      await expectSameAccount(s, before);
      // The very same key, not a new one on the old account.
      expect(await (await openSecretStore({ service: before.keychainService })).get('env:local:api-key')).toBe(storedKey);
    },
  );

  it('a settings.json truncated to 0 bytes, then damaged again: restored each time, both damaged files kept', async () => {
    const before = await firstRun();
    writeFileSync(join(before.dataDir, 'settings.json'), '');
    let s = await start(before.dataDir, before.keychainService);
    await expectSameAccount(s, before);
    expect((await s.ok<StartupNotice[]>('appNotices', {})).map((n) => n.code)).toEqual(['settings_restored']);
    await stop(s);

    writeFileSync(join(before.dataDir, 'settings.json'), '{"version": 1, "local": {"accountId": ');
    s = await start(before.dataDir, before.keychainService);
    await expectSameAccount(s, before);
    const notices = await s.ok<StartupNotice[]>('appNotices', {});
    expect(notices.map((n) => n.code)).toEqual(['settings_restored']);
    const damaged = damagedSettings(before.dataDir);
    expect(damaged).toHaveLength(2);
    expect(damaged.map((f) => readFileSync(join(before.dataDir, f), 'utf8')).sort()).toEqual(['', '{"version": 1, "local": {"accountId": ']);
    expect(notices[0]!.params.damagedPath).toBe(join(before.dataDir, damaged.find((f) => readFileSync(join(before.dataDir, f), 'utf8') !== '')!));
  });

  it('a damaged library.db is kept aside and the backup restored, turns and account included', async () => {
    const before = await firstRun();
    // Backups with the turn in them: one taken at a start with none, one at quit (that start wrote to the library).
    rmSync(join(before.dataDir, 'backups'), { recursive: true });
    let s = await start(before.dataDir, before.keychainService);
    // Backups are named by the second they are taken and one second holds one (recovery.ts backupLibrary): let the
    // quit's backup fall in a second of its own, or a fast machine sees one file (CI saw it).
    await new Promise((r) => setTimeout(r, 1_000 - (Date.now() % 1_000) + 5));
    await stop(s);
    expect(readdirSync(join(before.dataDir, 'backups'))).toHaveLength(2);
    const garbage = randomBytes(20_000);
    writeFileSync(join(before.dataDir, 'library.db'), garbage);
    // settings.json lost as well: the account is known from the restored library's app_meta.
    rmSync(join(before.dataDir, 'settings.json'));
    rmSync(join(before.dataDir, 'settings.json.bak'));
    s = await start(before.dataDir, before.keychainService);
    await expectSameAccount(s, before);
    expect((await s.ok<TurnRecord>('libraryGetTurn', { turnId: before.turnId })).status).toBe('succeeded');
    const notices = await s.ok<StartupNotice[]>('appNotices', {});
    expect(notices.map((n) => n.code)).toEqual(['library_restored', 'local_account_recovered']);
    const damagedPath = notices[0]!.params.damagedPath!;
    expect(damagedPath.startsWith(join(before.dataDir, 'library.db.damaged-'))).toBe(true);
    expect(readFileSync(damagedPath)).toEqual(garbage);
    expect(existsSync(join(before.dataDir, 'library.db'))).toBe(true);
  });

  it('an emptied service.db: Local keeps its account, balance and key, its image still works as a reference, and the app says so', async () => {
    const before = await firstRun();
    const serviceDb = join(before.dataDir, 'local-service', 'service.db');
    writeFileSync(serviceDb, '');
    const s = await start(before.dataDir, before.keychainService);
    await expectSameAccount(s, before);
    const [image] = (await s.ok<TurnRecord>('libraryGetTurn', { turnId: before.turnId })).images;
    const { turnId } = await s.ok<{ turnId: string }>('generateStart', { request: { ref_image_ids: [image!.id], model: 'seedream-5-0-pro', n: 1 } });
    await s.app.whenGenerationsSettled();
    expect((await s.ok<TurnRecord>('libraryGetTurn', { turnId })).status).toBe('succeeded');
    const notices = await s.ok<StartupNotice[]>('appNotices', {});
    expect(notices.map((n) => n.code)).toEqual(['service_restored']);
    expect(notices[0]!.params).toMatchObject({ reason: 'empty', kept: expect.stringContaining('accounts 1, api_keys 1') });
    expect(notices[0]!.params.damagedPath!.startsWith(`${serviceDb}.damaged-`)).toBe(true);
    expect(readFileSync(notices[0]!.params.damagedPath!)).toHaveLength(0);
  });

  it('a local service that cannot start: the app says why in one sentence, and Local works once the cause is gone, without a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-recover-'));
    // A folder where service.db belongs: the service cannot open it (the user's disk, not damage it may repair).
    mkdirSync(join(dataDir, 'local-service', 'service.db'), { recursive: true });
    const s = await start(dataDir, `image-studio-test-${randomUUID()}`);
    const local = (await s.ok<SettingsState>('settingsGet', {})).environments.local;
    expect(local.serviceStatus).not.toBe('running');
    expect(local.serviceError).toMatch(/^The local service stopped \(code 1\): failed to start: [^\n|]+\.( Local tries again in \d+ s\.)?$/);
    rmSync(join(dataDir, 'local-service', 'service.db'), { recursive: true });
    let state: LocalConsoleState | null = null;
    for (let i = 0; i < 150 && !state; i++) {
      const answer = await s.app.invoke('localStatus', {});
      if (answer.ok) state = answer.value as LocalConsoleState;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(state?.account.credits).toBe(10_000);
    const { turnId } = await s.ok<{ turnId: string }>('generateStart', { request: { prompt: 'red kettle', model: 'seedream-5-0-pro', n: 1 } });
    await s.app.whenGenerationsSettled();
    expect((await s.ok<TurnRecord>('libraryGetTurn', { turnId })).status).toBe('succeeded');
  });
});
