// The main-process core end to end in plain Node: the real local service (child process), real SQLite,
// the real keychain (under dbus-run-session + gnome-keyring in `npm test`), real files on disk.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import type { SessionSummary } from '../../src-shared/ipc/library.ts';
import type { ConnectionTest, GalleryPage, GenerationProgress, IpcEventName, IpcMethodName, LocalConsoleState, SettingsState, TurnRecord } from '../../src-shared/ipc/index.ts';
import { RecordingShell } from '../ports/desktop-shell.ts';
import { AdminClient } from '../clients/admin-client.ts';
import { keychainSkipReason, keychainTestName } from '../secrets/keychain-for-tests.ts';
import { openSecretStore } from '../secrets/secret-store.ts';
import { createStudioApp } from './create-app.ts';
import { NodeLocalServiceHost } from '../service-host/node-service-host.ts';
import type { CoreStudioApp, StudioAppOptions } from './studio-app.ts';
import { ipcCalls } from './ipc-calls.test-support.ts';

/** Every reply and event the renderer could see, scanned for secrets at the end. */
const rendererSaw: unknown[] = [];
/** The real secret values these tests handled (keys, webhook secrets), which must appear in none of them. */
const secretsUsed = new Set<string>();

async function collectSecrets(o: { keychainService: string; shell: RecordingShell }): Promise<void> {
  const store = await openSecretStore({ service: o.keychainService });
  for (const account of ['env:local:api-key', 'env:remote:api-key', 'inspector:webhook-secret']) {
    const value = await store.get(account);
    if (value) secretsUsed.add(value);
  }
  if (o.shell.clipboard) secretsUsed.add(o.shell.clipboard);
}

interface Opened {
  app: CoreStudioApp;
  shell: RecordingShell;
  host: NodeLocalServiceHost;
  dataDir: string;
  keychainService: string;
  events: Array<{ event: IpcEventName; payload: unknown }>;
  /** This app's replies and events, as the renderer would receive them. */
  seen: unknown[];
  call<T = unknown>(method: IpcMethodName, input: unknown): Promise<IpcResult<T>>;
  ok<T = unknown>(method: IpcMethodName, input: unknown): Promise<T>;
}

const EVENTS: IpcEventName[] = ['generation:progress', 'download:progress', 'library:changed', 'service:status', 'inspector:delivery', 'settings:changed'];

const ADMIN_TOKEN = `adm_${'T'.repeat(32)}`;

async function open(options: { dataDir?: string; keychainService?: string; testing?: StudioAppOptions['testing'] } = {}): Promise<Opened> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'studio-core-'));
  const keychainService = options.keychainService ?? `image-studio-test-${randomUUID()}`;
  const shell = new RecordingShell(() => join(dataDir, 'exported.png'));
  const host = new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service'), restartDelayMs: 100, adminToken: ADMIN_TOKEN });
  const app = await createStudioApp({
    dataDir,
    shell,
    localService: host,
    keychainService,
    testing: options.testing ?? { generation: { generateTimeoutMs: 2500, authRetryDelaysMs: [100, 100, 100], rateLimitBaseMs: 1000 } },
  });
  const events: Opened['events'] = [];
  const seen: unknown[] = [];
  for (const event of EVENTS) {
    app.on(event, (payload) => {
      events.push({ event, payload });
      seen.push(payload);
      rendererSaw.push(payload);
    });
  }
  const { call, ok } = ipcCalls(() => app, (result) => {
    seen.push(result);
    rendererSaw.push(result);
  });
  return { app, shell, host, dataDir, keychainService, events, seen, call, ok };
}

async function generate(o: Opened, request: Record<string, unknown>, sessionId?: string): Promise<TurnRecord> {
  const { turnId } = await o.ok<{ turnId: string }>('generateStart', { request, ...(sessionId ? { sessionId } : {}) });
  await o.app.whenGenerationsSettled();
  await o.app.whenDownloadsIdle();
  return o.ok<TurnRecord>('libraryGetTurn', { turnId });
}

async function balance(o: Opened): Promise<number> {
  return (await o.ok<LocalConsoleState>('localStatus', {})).account.credits;
}

/** Null where the OS keychain is reachable; else why the tests that need it are skipped (their names say so). */
const noKeychain = await keychainSkipReason();

/** What a first start leaves: the seeded account and an all-scope key the app uses (the keychain's part: below). */
async function seededOnFirstStart(o: Opened): Promise<void> {
  const state = await o.ok<LocalConsoleState>('localStatus', {});
  expect(state.account.credits).toBe(10_000);
  expect(state.account.ageDays).toBe(30);
  const appKey = state.keys.find((k) => k.usedByApp);
  expect(appKey?.scopes.sort()).toEqual(['assets:read', 'documents:read', 'generate:write']);
  const settings = await o.ok<SettingsState>('settingsGet', {});
  expect(settings.environment).toBe('local');
  expect(settings.environments.local).toMatchObject({ keySet: true, serviceStatus: 'running' });
  expect(settings.environments.local.keyMasked).toMatch(/^••••[A-Za-z0-9]{4}$/);
  expect(readFileSync(join(o.dataDir, 'settings.json'), 'utf8')).not.toContain('sk_');
  const test = await o.ok<{ ok: boolean; error: unknown }>('keyTest', { environment: 'local' });
  expect(test).toMatchObject({ ok: true, error: null });
  const remote = await o.call('keyTest', { environment: 'remote' });
  expect(remote.ok ? null : remote.error.code).toBe('no_base_url');
}

describe('main core against the real local service', () => {
  let o: Opened;
  beforeAll(async () => {
    o = await open();
  });
  afterAll(async () => {
    await collectSecrets(o);
    await o.app.close();
  });

  it('seeds the Local environment on first start: 10000 credits, 30 days old, an all-scope key in the keychain', async () => {
    // A first start of its own: the other cases spend credits and change the app's key.
    const fresh = await open();
    try {
      await seededOnFirstStart(fresh);
    } finally {
      await collectSecrets(fresh);
      await fresh.app.close();
    }
  });

  it.skipIf(noKeychain !== null)(keychainTestName('keeps the seeded key in the real keychain, and the settings say so', noKeychain), async () => {
    const fresh = await open();
    let storedKey: string | null;
    try {
      const settings = await fresh.ok<SettingsState>('settingsGet', {});
      expect(settings.keychain).toEqual({ available: true, backend: 'keychain', problem: null });
      storedKey = await (await openSecretStore({ service: fresh.keychainService })).get('env:local:api-key');
      expect(storedKey).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    } finally {
      await collectSecrets(fresh);
      await fresh.app.close();
    }
    // The seeded key survives a restart: no second key is made.
    const again = await open({ dataDir: fresh.dataDir, keychainService: fresh.keychainService });
    try {
      expect((await again.ok<LocalConsoleState>('localStatus', {})).keys).toHaveLength(1);
      expect(await (await openSecretStore({ service: fresh.keychainService })).get('env:local:api-key')).toBe(storedKey);
    } finally {
      await collectSecrets(again);
      await again.app.close();
    }
  });

  it('generates: library rows, PNG files of the right size and 512 px WebP thumbnails on disk', async () => {
    const before = o.events.length;
    const turn = await generate(o, { prompt: 'red sneaker on white', model: 'nano-banana-2', ratio: '16:9', resolution: '1K', n: 2 });
    expect(turn.status).toBe('succeeded');
    expect(turn.creditsCharged).toBe(24);
    expect(turn.estimate.total).toBe(24);
    expect(turn.requestId).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(turn.serviceTurnId).toMatch(/^t_/);
    expect(turn.serviceSessionId).toMatch(/^s_/);
    expect(turn.durationMs).toBeGreaterThanOrEqual(0);
    expect(turn.images).toHaveLength(2);
    for (const image of turn.images) {
      expect(image).toMatchObject({ width: 1376, height: 768, download: 'done', model: 'nano-banana-2', prompt: 'red sneaker on white' });
      const full = await o.app.imageFile('full', image.id);
      const thumb = await o.app.imageFile('thumb', image.id);
      expect(full && existsSync(full)).toBeTruthy();
      const fullMeta = await sharp(full as string).metadata();
      expect([fullMeta.format, fullMeta.width, fullMeta.height]).toEqual(['png', 1376, 768]);
      const thumbMeta = await sharp(thumb as string).metadata();
      expect([thumbMeta.format, thumbMeta.width, thumbMeta.height]).toEqual(['webp', 512, 286]);
    }
    expect(await o.app.imageFile('full', '../settings')).toBeNull();
    expect(await o.app.imageFile('full', 'img_unknown1')).toBeNull();
    const progress = o.events.slice(before).filter((e) => e.event === 'generation:progress').map((e) => (e.payload as GenerationProgress).phase);
    expect(progress[0]).toBe('sending');
    // Once the request is out, the app says it is waiting for the service's answer.
    expect(progress[1]).toBe('waiting');
    expect(progress.filter((p) => p === 'waiting')).toHaveLength(1);
    expect(progress.at(-1)).toBe('done');
    const downloads = o.events.slice(before).filter((e) => e.event === 'download:progress' && (e.payload as { state: string }).state === 'done');
    expect(downloads).toHaveLength(2);

    // Continue in the same session, using the first image as a reference.
    const ref = turn.images[0]?.id as string;
    const next = await generate(o, { prompt: 'same shoe, side view', ref_image_ids: [ref], model: 'gpt-image-2', resolution: '1K' }, turn.sessionId);
    expect(next.status).toBe('succeeded');
    expect(next.serviceSessionId).toBe(turn.serviceSessionId);
    expect(next.creditsCharged).toBe(next.estimate.total);
    expect(next.referenceImageIds).toEqual([ref]);
    const detail = await o.ok<{ usedIn: Array<{ turnId: string }> }>('libraryGetImage', { imageId: ref });
    expect(detail.usedIn.map((u) => u.turnId)).toEqual([next.id]);
    const gallery = await o.ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 10 });
    expect(gallery.groups[0]?.session.id).toBe(turn.sessionId);
    expect(gallery.groups[0]?.images).toHaveLength(3);
    const exported = await o.ok<{ path: string }>('filesExport', { imageId: ref });
    expect(readFileSync(exported.path).equals(readFileSync((await o.app.imageFile('full', ref)) as string))).toBe(true);
  });

  it('records a partial success with its warnings and the net charge', async () => {
    await o.ok('localSetFaults', { generate: { partial: { count: 1, produce: 1 } } });
    const turn = await generate(o, { prompt: 'leather bag', model: 'seedream-5-0-pro', quality: 'high', n: 2 });
    expect(turn.status).toBe('succeeded');
    expect(turn.images).toHaveLength(1);
    expect(turn.estimate.total).toBe(12);
    expect(turn.creditsCharged).toBe(6);
    expect(turn.warnings.map((w) => w.feature).sort()).toEqual(['n', 'quality']);
    expect(turn.warnings.find((w) => w.feature === 'quality')?.type).toBe('unsupported');
  });

  it('after a network timeout sends nothing again and marks the turn outcome_unknown with a note', async () => {
    await o.ok('settingsSetLanguage', { language: 'en' });
    const start = await balance(o);
    await o.ok('localSetFaults', { generate: { latency_ms: 4000 } });
    const turn = await generate(o, { prompt: 'slow shot', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('localSetFaults', { generate: { latency_ms: 0 } });
    expect(turn.status).toBe('outcome_unknown');
    expect(turn.outcomeNote).toMatch(/did not send it again/);
    expect(turn.outcomeNote).toMatch(/Recent conversations/);
    expect(turn.images).toEqual([]);
    // The service finishes the one run it got: charged exactly once, never twice.
    await new Promise((r) => setTimeout(r, 2500));
    const status = await o.ok<LocalConsoleState>('localStatus', {});
    expect(status.account.reserved).toBe(0);
    expect(status.account.credits).toBe(start - 12);
    const retry = await o.call('generateRetry', { turnId: turn.id });
    expect(retry.ok ? null : retry.error.code).toBe('retry_not_allowed');
    await o.ok('settingsSetLanguage', { language: 'zh' });
  });

  it('cancel marks the turn cancelled with the note that it may still finish and be charged', async () => {
    await o.ok('localSetFaults', { generate: { latency_ms: 1500 } });
    const started = await o.ok<{ turnId: string; turn: TurnRecord }>('generateStart', { request: { prompt: 'cancel me', model: 'nano-banana-2', resolution: '1K' } });
    const { turnId } = started;
    // The answer carries the turn main recorded, so the UI needs no second call for it.
    expect(started.turn).toMatchObject({ id: turnId, status: 'running', request: { prompt: 'cancel me' } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await o.ok<TurnRecord[]>('generateRunning', {})).map((t) => t.id)).toEqual([turnId]);
    expect(await o.ok('generateCancel', { turnId })).toEqual({ cancelled: true });
    await o.app.whenGenerationsSettled();
    await o.ok('localSetFaults', { generate: { latency_ms: 0 } });
    const turn = await o.ok<TurnRecord>('libraryGetTurn', { turnId });
    expect(turn.status).toBe('cancelled');
    expect(turn.outcomeNote).toMatch(/扣费/);
    expect(await o.ok('generateCancel', { turnId })).toEqual({ cancelled: false });
    await new Promise((r) => setTimeout(r, 1500));
  });

  it('retries 503 auth_unavailable automatically after a wait, a bounded number of times', async () => {
    await o.ok('localSetFaults', { auth_unavailable: 2 });
    const before = o.events.length;
    const turn = await generate(o, { prompt: 'auth hiccup', model: 'nano-banana-2', resolution: '1K' });
    expect(turn.status).toBe('succeeded');
    const retrying = o.events.slice(before).filter((e) => e.event === 'generation:progress' && (e.payload as GenerationProgress).phase === 'retrying' && (e.payload as GenerationProgress).waitMs !== undefined);
    expect(retrying).toHaveLength(2);
    // Each wait names the attempt that follows it, and the resends then go out as those attempts.
    expect(retrying.map((e) => (e.payload as GenerationProgress).attempt)).toEqual([2, 3]);
    const resent = o.events.slice(before).filter((e) => e.event === 'generation:progress' && (e.payload as GenerationProgress).phase === 'retrying' && (e.payload as GenerationProgress).waitMs === undefined);
    expect(resent.map((e) => (e.payload as GenerationProgress).attempt)).toEqual([2, 3]);

    await o.ok('localSetFaults', { auth_unavailable: 10 });
    const failed = await generate(o, { prompt: 'auth down', model: 'nano-banana-2', resolution: '1K' });
    const left = (await o.ok<LocalConsoleState>('localStatus', {})).faults.auth_unavailable;
    await o.ok('localSetFaults', { auth_unavailable: 0 });
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('auth_unavailable');
    expect(failed.error?.status).toBe(503);
    expect(10 - (left ?? 0)).toBe(4); // the first try and three automatic retries, no more
    const again = await o.ok<{ turnId: string }>('generateRetry', { turnId: failed.id });
    await o.app.whenGenerationsSettled();
    expect((await o.ok<TurnRecord>('libraryGetTurn', { turnId: again.turnId })).status).toBe('succeeded');
  });

  it('offers exactly one retry after a 500, then refuses and asks to report with the request id', async () => {
    const start = await balance(o);
    await o.ok('localSetFaults', { generate: { fail: 2 } });
    const first = await generate(o, { prompt: 'broken vendor', model: 'nano-banana-2', resolution: '1K' });
    expect(first.status).toBe('failed');
    expect(first.error).toMatchObject({ code: 'internal_error', status: 500 });
    expect(first.error?.requestId).toBe(first.requestId);
    const { turnId: secondId } = await o.ok<{ turnId: string }>('generateRetry', { turnId: first.id });
    await o.app.whenGenerationsSettled();
    const second = await o.ok<TurnRecord>('libraryGetTurn', { turnId: secondId });
    expect(second.retryOf).toBe(first.id);
    expect(second.error?.code).toBe('internal_error');
    const third = await o.call('generateRetry', { turnId: secondId });
    expect(third.ok ? null : third.error.code).toBe('retry_limit_reached');
    const twice = await o.call('generateRetry', { turnId: first.id });
    expect(twice.ok ? null : twice.error.code).toBe('retry_not_allowed');
    expect(await balance(o)).toBe(start); // both failures were refunded
  });

  it('does not retry a 402, and follows the UI language in service messages', async () => {
    const credits = await balance(o);
    await o.ok('localUpdateAccount', { credits: 0 });
    await o.ok('settingsSetLanguage', { language: 'en' });
    const en = await generate(o, { prompt: 'no money', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('settingsSetLanguage', { language: 'zh' });
    const zh = await generate(o, { prompt: 'no money', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('localUpdateAccount', { credits });
    expect(en.error?.code).toBe('insufficient_credits');
    expect(en.error?.message).toMatch(/Not enough credits/);
    expect(zh.error?.message).toMatch(/积分不足/);
    const retry = await o.call('generateRetry', { turnId: en.id });
    expect(retry.ok ? null : retry.error.code).toBe('retry_not_allowed');
  });

  it('records the wait of a 429 rate_limited with back-off and refuses a retry before it', async () => {
    const state = await o.ok<LocalConsoleState>('localStatus', {});
    const keyId = state.keys.find((k) => k.usedByApp)?.id as string;
    await o.ok('localSetKeyRateLimit', { keyId, ratePer24h: 1 });
    // The window's one request (a key no case has used yet still has it); the next is over the limit.
    await generate(o, { prompt: 'the one allowed', model: 'nano-banana-2', resolution: '1K' });
    const turn = await generate(o, { prompt: 'too many', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('localSetKeyRateLimit', { keyId, ratePer24h: 1_000_000 });
    expect(turn.status).toBe('failed');
    expect(turn.error?.code).toBe('rate_limited');
    const retryAfterS = turn.error?.details?.retryAfterS as number;
    expect(retryAfterS).toBeGreaterThan(0);
    expect(turn.retryAt).not.toBeNull();
    expect((turn.retryAt as number) - (turn.finishedAt as number)).toBeGreaterThanOrEqual(Math.max(1000, retryAfterS * 1000) - 50);
    const early = await o.call('generateRetry', { turnId: turn.id });
    expect(early.ok).toBe(false);
    if (!early.ok) {
      expect(early.error.code).toBe('retry_too_early');
      expect(early.error.details?.waitMs).toBeGreaterThan(0);
    }
    // Only one request reached the service: no automatic resend of a 429.
    expect(await o.ok<TurnRecord[]>('libraryListTurns', { sessionId: turn.sessionId })).toHaveLength(1);
  });

  it('rejects invalid IPC input naming the field, and changes nothing', async () => {
    const before = await o.ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 200 });
    const settings = await o.ok<SettingsState>('settingsGet', {});
    const cases: Array<[IpcMethodName, unknown, string]> = [
      ['generateStart', { request: { prompt: 5 } }, 'request.prompt'],
      ['generateStart', { request: { prompt: 'x', n: 3 } }, 'request.n'],
      ['generateStart', { request: { prompt: 'x', ration: '1:1' } }, 'request'],
      ['settingsSetLanguage', { language: 'fr' }, 'language'],
      ['keySet', { environment: 'remote', key: 'not-a-key' }, 'key'],
      ['environmentSetRemote', { baseUrl: 'ftp://x' }, 'baseUrl'],
      ['libraryGallery', { filters: {}, cursor: 'garbage', limit: 10 }, 'cursor'],
      ['libraryStar', { imageId: 'img_x', starred: 'yes' }, 'starred'],
      ['libraryMark', { imageIds: [], rating: 1 }, 'imageIds'],
      ['libraryMark', { imageIds: ['img_x'], rating: 9 }, 'rating'],
      ['boardCreate', { name: '   ' }, 'name'],
      ['libraryNeighbors', { filters: { minRating: 0 }, imageId: 'img_x' }, 'filters.minRating'],
      ['localTopUp', { credits: -5 }, 'credits'],
    ];
    for (const [method, input, field] of cases) {
      const result = await o.call(method, input);
      expect(result.ok, `${method} ${JSON.stringify(input)}`).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe('invalid_input');
        expect(result.error.details?.field).toBe(field);
        expect(result.error.message).toContain(field);
      }
    }
    const unknown = await o.app.invoke('nope:nope' as IpcMethodName, {});
    expect(unknown.ok ? null : unknown.error.code).toBe('unknown_method');
    // A request the service would refuse is refused before anything is sent or recorded.
    const local = await o.call('generateStart', { request: { model: 'flux-kontext-pro', prompt: 'edit' } });
    expect(local.ok ? null : local.error.code).toBe('invalid_request');
    expect(await o.ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 200 })).toEqual(before);
    expect(await o.ok<SettingsState>('settingsGet', {})).toEqual(settings);
    expect((await o.ok<LocalConsoleState>('localStatus', {})).account.credits).toBe(await balance(o));
  });

  it('creates console keys into the clipboard or the keychain, never into a reply', async () => {
    const copied = await o.ok<{ keyId: string; copiedToClipboard: boolean }>('localCreateKey', { name: 'script', scopes: ['assets:read'] });
    expect(copied.copiedToClipboard).toBe(true);
    expect(o.shell.clipboard).toMatch(/^sk_[A-Za-z0-9]{32}$/);
    const used = await o.ok<{ keyId: string; usedByApp: boolean }>('localCreateKey', { name: 'app 2', scopes: ['generate:write', 'assets:read'], useForApp: true });
    expect(used.usedByApp).toBe(true);
    const state = await o.ok<LocalConsoleState>('localStatus', {});
    expect(state.keys.find((k) => k.usedByApp)?.id).toBe(used.keyId);
    const turn = await generate(o, { prompt: 'with the new key', model: 'nano-banana-2', resolution: '1K' });
    expect(turn.status).toBe('succeeded');
    expect(turn.images.every((i) => i.download === 'done')).toBe(true);
    await o.ok('localWebhookSet', { url: '', enabled: false });
    secretsUsed.add(o.shell.clipboard);
    const regenerated = await o.ok<LocalConsoleState>('localWebhookRegenerate', {});
    expect(regenerated.webhook.secretStored).toBe(true);
    expect(await o.ok<{ secretStored: boolean }>('inspectorStatus', {})).toMatchObject({ secretStored: true });
    await collectSecrets(o);
    const packImage = turn.images[0]?.id as string;
    const pack = await o.ok<{ packId: string; imageIds: string[] }>('localPackCreate', { styleCode: 'SS26', imageIds: [packImage] });
    expect(pack.imageIds).toEqual([packImage]);
    const published = await o.ok<{ published: boolean }>('localPackPublish', { packId: pack.packId, idempotencyKey: 'k1' });
    expect(published.published).toBe(true);
    await o.ok('localPackUpdate', { packId: pack.packId, saved: false });
    expect(await o.ok('localPackPublish', { packId: pack.packId })).toEqual({ published: false, reason: 'unsaved_changes' });
  });

  it('sends a key only to the origin of its own environment', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const remote = createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      if (seen.length === 2) {
        // A 200 whose body is not a generation result: it may have been charged, so it is not resent.
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_AAAAAAAAAAAAAAAAAAAA' });
      res.end(JSON.stringify({ error: { code: 'internal_error', message: 'boom', request_id: 'req_AAAAAAAAAAAAAAAAAAAA' } }));
    });
    await new Promise<void>((r) => remote.listen(0, '127.0.0.1', () => r()));
    const remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    const remoteKey = `sk_${'R'.repeat(32)}`;
    try {
      await o.ok('environmentSetRemote', { baseUrl: remoteUrl });
      secretsUsed.add(remoteKey);
      await o.ok('keySet', { environment: 'remote', key: remoteKey });
      await o.ok('environmentSelect', { environment: 'remote' });
      const turn = await generate(o, { prompt: 'remote run', model: 'nano-banana-2' });
      expect(turn.environment).toBe('remote');
      expect(turn.error?.code).toBe('internal_error');
      expect(seen.length).toBe(1);
      expect(seen[0]?.authorization).toBe(`Bearer ${remoteKey}`);
      const unreadable = await generate(o, { prompt: 'remote odd answer', model: 'nano-banana-2' });
      expect(unreadable.status).toBe('outcome_unknown');
      expect(unreadable.error?.code).toBe('unexpected_response');
      expect(seen.length).toBe(2);
      expect(seen[1]?.authorization).toBe(`Bearer ${remoteKey}`);
      expect(seen[1]?.['accept-language']).toBe('zh-CN');
      // A local session cannot be continued in Remote (its key and ids belong to Local).
      const localSession = (await o.ok<GalleryPage>('libraryGallery', { filters: {}, cursor: null, limit: 200 })).groups.find((g) => g.session.environment === 'local');
      const mismatch = await o.call('generateStart', { request: { prompt: 'x' }, sessionId: localSession?.session.id });
      expect(mismatch.ok ? null : mismatch.error.code).toBe('environment_mismatch');
      // Moving Remote to another origin drops its key: it was entered for the old one.
      await o.ok('environmentSetRemote', { baseUrl: 'http://127.0.0.1:1' });
      const after = await o.ok<SettingsState>('settingsGet', {});
      expect(after.environments.remote.keySet).toBe(false);
      const noKey = await o.call('generateStart', { request: { prompt: 'x' } });
      expect(noKey.ok ? null : noKey.error.code).toBe('no_api_key');
      expect(seen.length).toBe(2);
      // Testing the connection to an address where nothing listens says so in words, with the cause kept.
      const unusedKey = `sk_${'U'.repeat(32)}`;
      secretsUsed.add(unusedKey);
      await o.ok('keySet', { environment: 'remote', key: unusedKey });
      const test = await o.ok<ConnectionTest>('keyTest', { environment: 'remote' });
      expect(test.ok).toBe(false);
      expect(test.error).toMatchObject({ code: 'service_unreachable', details: { failure: 'unreachable' } });
      expect(test.error?.message).toMatch(/^无法连接到服务：请检查服务地址和网络。 \(ECONNREFUSED/);
    } finally {
      await o.ok('environmentSelect', { environment: 'local' });
      remote.close();
    }
  });

  it('marks a reference the service reports missing, found through the file endpoint', async () => {
    const first = await generate(o, { prompt: 'to be deleted', model: 'nano-banana-2', resolution: '1K', n: 2 });
    const [gone, kept] = first.images.map((i) => i.id) as [string, string];
    const settings = await o.ok<SettingsState>('settingsGet', {});
    // Deleted behind the app's back (e.g. on the website), so only the service knows.
    await new AdminClient(settings.environments.local.baseUrl as string, ADMIN_TOKEN).request('DELETE', `/admin/images/${gone}`);
    const turn = await generate(o, { prompt: 'reuse', ref_image_ids: [kept, gone], model: 'nano-banana-2', resolution: '1K' }, first.sessionId);
    expect(turn.error?.code).toBe('reference_image_missing');
    expect(turn.error?.details?.missingImageIds).toEqual([gone]);
    expect((await o.ok<{ image: { missing: boolean } }>('libraryGetImage', { imageId: gone })).image.missing).toBe(true);
    expect((await o.ok<{ image: { missing: boolean } }>('libraryGetImage', { imageId: kept })).image.missing).toBe(false);
  });

  it('notifies the OS when a generation ends while the window is in the background', async () => {
    const before = o.shell.calls.length;
    o.shell.focused = false;
    try {
      await generate(o, { prompt: 'background run', model: 'nano-banana-2', resolution: '1K' });
    } finally {
      o.shell.focused = true;
    }
    const notes = o.shell.calls.slice(before).filter((c) => c.kind === 'notify');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'notify', title: '生成完成' });
  });

  it('lists sessions newest first, including ones whose turns produced no image', async () => {
    await generate(o, { prompt: 'a session with an image', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('localSetFaults', { generate: { fail: 1 } });
    const failed = await generate(o, { prompt: 'a session without one', model: 'nano-banana-2', resolution: '1K' });
    await o.ok('localSetFaults', { generate: { fail: 0 } });
    expect(failed.status).toBe('failed');
    const page = await o.ok<{ sessions: SessionSummary[]; nextCursor: string | null }>('librarySessions', { cursor: null, limit: 200 });
    const updated = page.sessions.map((x) => x.updatedAt);
    expect([...updated].sort((a, b) => b - a)).toEqual(updated);
    expect(page.sessions.some((x) => x.imageCount === 0 && x.turnCount > 0)).toBe(true);
    const renamed = await o.ok<SessionSummary>('libraryRenameSession', { sessionId: page.sessions[0]?.id, title: '  春季新品  ' });
    expect(renamed).toMatchObject({ title: '春季新品', localTitle: '春季新品' });
    // One session by id, with its title (the compose panel shows it); an unknown id is a plain not_found.
    expect(await o.ok<SessionSummary>('libraryGetSession', { sessionId: page.sessions[0]?.id })).toEqual(renamed);
    const unknown = await o.call('libraryGetSession', { sessionId: 'ls_nothere000' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const paged = await o.ok<{ sessions: SessionSummary[]; nextCursor: string | null }>('librarySessions', { cursor: null, limit: 1 });
    const rest = await o.ok<{ sessions: SessionSummary[] }>('librarySessions', { cursor: paged.nextCursor, limit: 200 });
    expect([...paged.sessions, ...rest.sessions].map((x) => x.id)).toEqual(page.sessions.map((x) => x.id));
  });

  it('restarts the local service when it dies and keeps working', async () => {
    const pid = o.host.pid as number;
    const statuses: string[] = [];
    let duringRestart: Promise<IpcResult<unknown>> | null = null;
    const off = o.app.on('service:status', (s) => {
      statuses.push(s.status);
      // A generation asked for while the service restarts is refused plainly, never half-recorded.
      if (s.status === 'restarting' && !duringRestart) duringRestart = o.call('generateStart', { request: { prompt: 'too soon' } });
    });
    process.kill(pid, 'SIGKILL');
    for (let i = 0; i < 100 && !statuses.includes('running'); i++) await new Promise((r) => setTimeout(r, 100));
    off();
    expect(statuses).toContain('restarting');
    expect(statuses).toContain('running');
    expect(o.host.pid).not.toBe(pid);
    const refused = (await duringRestart) as IpcResult<unknown> | null;
    expect(refused && !refused.ok ? refused.error.code : null).toBe('service_not_running');
    const turn = await generate(o, { prompt: 'after restart', model: 'nano-banana-2', resolution: '1K' });
    expect(turn.status).toBe('succeeded');
  });
});

describe('429 rate_limited back-off', () => {
  it('doubles the wait with each rate-limited retry and allows a retry only once the wait has passed', async () => {
    let now = Date.now();
    const day = 86_400_000;
    const o = await open({ testing: { generation: { rateLimitBaseMs: 100 * day, rateLimitMaxMs: 1000 * day }, now: () => now } });
    try {
      const keyId = (await o.ok<LocalConsoleState>('localStatus', {})).keys.find((k) => k.usedByApp)?.id as string;
      await o.ok('localSetKeyRateLimit', { keyId, ratePer24h: 1 });
      // The fresh key's one request of the window; the next one is over the limit.
      expect((await generate(o, { prompt: 'allowed', model: 'nano-banana-2', resolution: '1K' })).status).toBe('succeeded');
      const first = await generate(o, { prompt: 'limited', model: 'nano-banana-2', resolution: '1K' });
      expect(first.error?.code).toBe('rate_limited');
      expect((first.retryAt as number) - now).toBe(100 * day);
      now += 100 * day - 1000;
      const early = await o.call('generateRetry', { turnId: first.id });
      expect(early.ok ? null : early.error.code).toBe('retry_too_early');
      now += 1001;
      const { turnId } = await o.ok<{ turnId: string }>('generateRetry', { turnId: first.id });
      await o.app.whenGenerationsSettled();
      const second = await o.ok<TurnRecord>('libraryGetTurn', { turnId });
      expect(second.retryOf).toBe(first.id);
      expect(second.error?.code).toBe('rate_limited');
      expect((second.retryAt as number) - now).toBe(200 * day);
      await o.ok('localSetKeyRateLimit', { keyId, ratePer24h: 1_000_000 });
      now += 200 * day;
      const { turnId: thirdId } = await o.ok<{ turnId: string }>('generateRetry', { turnId: second.id });
      await o.app.whenGenerationsSettled();
      expect((await o.ok<TurnRecord>('libraryGetTurn', { turnId: thirdId })).status).toBe('succeeded');
    } finally {
      await o.app.close();
    }
  });
});

describe('429 new_user_daily_limit', () => {
  it('records when the new account may spend again and refuses a retry before then', async () => {
    let now = Date.now();
    const o = await open({ testing: { pauseDownloads: true, now: () => now } });
    try {
      await o.ok('localUpdateAccount', { ageDays: 1 });
      const request = { prompt: 'big spender', model: 'gpt-image-2', quality: 'high', resolution: '1K', n: 4 };
      for (let i = 0; i < 10; i++) expect((await generate(o, request)).creditsCharged).toBe(200);
      const capped = await generate(o, request);
      expect(capped.error).toMatchObject({ code: 'new_user_daily_limit', status: 429 });
      const retryAfterS = capped.error?.details?.retryAfterS as number;
      expect(retryAfterS).toBeGreaterThan(0);
      expect(capped.retryAt).toBe(now + retryAfterS * 1000);
      const early = await o.call('generateRetry', { turnId: capped.id });
      expect(early.ok ? null : early.error.code).toBe('retry_too_early');
      // The day passes on both clocks: the service's window and the app's wait.
      await o.ok('localAdvanceClock', { seconds: retryAfterS + 1 });
      now += (retryAfterS + 1) * 1000;
      const { turnId } = await o.ok<{ turnId: string }>('generateRetry', { turnId: capped.id });
      await o.app.whenGenerationsSettled();
      expect((await o.ok<TurnRecord>('libraryGetTurn', { turnId })).status).toBe('succeeded');
    } finally {
      await o.app.close();
    }
  });
});

describe('downloads left unfinished', () => {
  it('resume at the next start', async () => {
    const first = await open({ testing: { pauseDownloads: true } });
    const turn = await generate(first, { prompt: 'resume me', model: 'nano-banana-2', resolution: '1K', n: 2 });
    // A run still waiting when the app quits is never resent; at the next start the Local service tells its fate.
    await first.ok('localSetFaults', { generate: { latency_ms: 1000 } });
    const { turnId: cutOff } = await first.ok<{ turnId: string }>('generateStart', { request: { prompt: 'cut off', model: 'nano-banana-2', resolution: '1K' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(turn.images.map((i) => i.download)).toEqual(['pending', 'pending']);
    expect(await first.app.imageFile('full', turn.images[0]?.id as string)).toBeNull();
    await first.app.close();
    const second = await open({ dataDir: first.dataDir, keychainService: first.keychainService });
    try {
      await second.app.whenDownloadsIdle();
      const after = await second.ok<TurnRecord>('libraryGetTurn', { turnId: turn.id });
      expect(after.images.map((i) => i.download)).toEqual(['done', 'done']);
      for (const image of after.images) expect(existsSync((await second.app.imageFile('thumb', image.id)) as string)).toBe(true);
      // The same account was kept, not seeded again.
      const state = await second.ok<LocalConsoleState>('localStatus', {});
      // (That the seeded key itself survives a restart needs the keychain: its own test above.)
      // The cut-off run was refunded by the service when it stopped (DESIGN.md §3 crash safety).
      expect(state.account.credits).toBe(10_000 - 24);
      // Reconciled from the service (its admin list of turns): it failed there and was refunded, so it is a
      // plain failure now, with one retry allowed, and nothing was sent twice.
      const interrupted = await second.ok<TurnRecord>('libraryGetTurn', { turnId: cutOff });
      expect(interrupted.status).toBe('failed');
      expect(interrupted.creditsCharged).toBe(0);
      expect(interrupted.outcomeNote).toMatch(/已从本地服务核对.*退回/);
      expect(interrupted.actions.retry).toMatchObject({ offer: 'now', kind: 'retry_once' });
    } finally {
      await second.app.close();
    }
  });
});

/** No reply or event carries a secret: no key, no admin token, no webhook secret, not even a key's prefix. */
function expectNoSecret(items: unknown[], secrets: Iterable<string>): void {
  for (const item of items) {
    const text = JSON.stringify(item);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain(ADMIN_TOKEN);
    // No key text at all, not even its prefix (masks are ••••abcd).
    expect(text).not.toContain('sk_');
    // A webhook secret's prefix may appear in the inspector's mask (`whsec_…abcd`), never secret characters.
    expect(text).not.toMatch(/whsec_[A-Za-z0-9]{5}/);
  }
}

// Whatever cases ran, in whatever order: none of their replies or events carried a secret they handled.
afterAll(() => expectNoSecret(rendererSaw, secretsUsed));

describe('what the renderer receives', () => {
  it('never contains an API key or webhook secret in a reply or event, with keys of both environments, console keys and a webhook secret in play', async () => {
    const o = await open();
    const secrets = new Set<string>();
    try {
      await o.ok('localCreateKey', { name: 'script', scopes: ['assets:read'] });
      secrets.add(o.shell.clipboard as string);
      await o.ok('localCreateKey', { name: 'app 2', scopes: ['generate:write', 'assets:read'], useForApp: true });
      const remoteKey = `sk_${'Q'.repeat(32)}`;
      secrets.add(remoteKey);
      await o.ok('environmentSetRemote', { baseUrl: 'http://127.0.0.1:1' });
      await o.ok('keySet', { environment: 'remote', key: remoteKey });
      await o.ok('localWebhookSet', { url: '', enabled: false });
      await o.ok('localWebhookRegenerate', {});
      await generate(o, { prompt: 'with the new key', model: 'nano-banana-2', resolution: '1K' });
      await o.ok('settingsGet', {});
      await o.ok('localStatus', {});
      await o.ok('inspectorStatus', {});
    } finally {
      await collectSecrets(o);
      const store = await openSecretStore({ service: o.keychainService });
      for (const account of ['env:local:api-key', 'env:remote:api-key', 'inspector:webhook-secret']) {
        const value = await store.get(account);
        if (value) secrets.add(value);
      }
      await o.app.close();
    }
    expect(o.seen.length).toBeGreaterThan(10);
    expect([...secrets].filter((v) => v.startsWith('sk_')).length).toBeGreaterThanOrEqual(3);
    expect([...secrets].some((v) => v.startsWith('whsec_'))).toBe(true);
    expectNoSecret(o.seen, secrets);
  });
});
