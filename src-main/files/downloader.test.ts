import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../src-shared/ipc/index.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { ServiceClient } from '../api/service-client.ts';
import { openLibraryDatabase } from '../library/database.ts';
import { LibraryRepo } from '../library/library-repo.ts';
import { Downloader } from './downloader.ts';
import { cacheDirs, cachePath } from './image-cache.ts';

const KEY = 'sk_TESTKEYTESTKEYTESTKEYTESTKEY123';

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe('downloads follow the redirect without the key', () => {
  const apiSeen: IncomingHttpHeaders[] = [];
  const directSeen: IncomingHttpHeaders[] = [];
  let png: Buffer;
  let apiUrl = '';
  let directUrl = '';
  const api = createServer((req, res) => {
    apiSeen.push(req.headers);
    const name = req.url?.split('/').pop() ?? '';
    res.writeHead(302, { location: `${directUrl}/direct/${name}?expires=9999999999&sig=abc` }).end();
  });
  let failNext = 0;
  const direct = createServer((req, res) => {
    directSeen.push(req.headers);
    if (failNext > 0) {
      failNext--;
      res.writeHead(503).end('busy');
      return;
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) }).end(png);
  });

  beforeAll(async () => {
    png = await sharp({ create: { width: 1376, height: 768, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png({ compressionLevel: 1 }).toBuffer();
    apiUrl = await listen(api);
    directUrl = await listen(direct);
  });
  afterAll(() => {
    api.close();
    direct.close();
  });

  function setup(width: number, height: number) {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-dl-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const repo = new LibraryRepo(db);
    repo.createSession('ls_1', 'remote', 1);
    repo.createTurn({ id: 'lt_1', sessionId: 'ls_1', environment: 'remote', request: { prompt: 'x' }, estimate: estimateCredits({ model: 'auto', referenceCount: 0 }), startedAt: 1, retryOf: null, referenceImageIds: [] });
    repo.insertImages({ id: 'lt_1', sessionId: 'ls_1', environment: 'remote', model: 'nano-banana-2', purpose: 'free', prompt: 'x' }, [{ id: 'img_AAAAAAAA', filename: 'AAAAAAAA.png', width, height }], 1);
    const events: DownloadProgress[] = [];
    const dirs = cacheDirs(dataDir);
    const downloader = new Downloader({
      repo,
      dirs,
      clientFor: async () => new ServiceClient({ environment: 'remote', baseUrl: apiUrl, apiKey: KEY, language: 'en' }),
      onProgress: (p) => events.push(p),
      onDone: () => undefined,
      retryDelaysMs: [50],
    });
    return { repo, dirs, events, downloader };
  }

  it('sends the key to the API only; the direct-link server never sees Authorization; stores PNG and a 512 px WebP', async () => {
    const { repo, dirs, events, downloader } = setup(1376, 768);
    downloader.resumePending();
    await downloader.whenIdle();
    expect(apiSeen.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
    expect(directSeen.length).toBeGreaterThan(0);
    for (const h of directSeen) expect(h.authorization).toBeUndefined();
    expect(JSON.stringify(directSeen)).not.toContain(KEY);
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('done');
    const full = cachePath(dirs, 'full', 'img_AAAAAAAA') as string;
    expect(readFileSync(full).equals(png)).toBe(true);
    const thumb = await sharp(cachePath(dirs, 'thumb', 'img_AAAAAAAA') as string).metadata();
    expect(thumb.format).toBe('webp');
    expect([thumb.width, thumb.height]).toEqual([512, 286]);
    expect(events.at(-1)?.state).toBe('done');
  });

  it('refuses a PNG whose size differs from the Image and keeps nothing in the cache', async () => {
    const { repo, dirs, events, downloader } = setup(1024, 1024);
    downloader.resumePending();
    await downloader.whenIdle();
    const image = repo.getImage('img_AAAAAAAA');
    expect(image?.download).toBe('failed');
    expect(events.at(-1)).toMatchObject({ state: 'failed' });
    expect(events.at(-1)?.error).toMatch(/1376×768.*1024×1024/);
    expect(() => readFileSync(cachePath(dirs, 'full', 'img_AAAAAAAA') as string)).toThrow();
  });

  it('retries a transient failure in the same run, and keeps the row pending while it waits', async () => {
    const { repo, events, downloader } = setup(1376, 768);
    failNext = 1;
    downloader.resumePending();
    await downloader.whenIdle();
    expect(events.at(-1)).toMatchObject({ state: 'failed' });
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('pending');
    for (let i = 0; i < 50 && repo.getImage('img_AAAAAAAA')?.download !== 'done'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('done');
  });

  it('maps ids to cache paths only inside the cache', () => {
    const dirs = cacheDirs('/data');
    expect(cachePath(dirs, 'full', 'img_AAAAAAAA')).toBe('/data/cache/full/img_AAAAAAAA.png');
    expect(cachePath(dirs, 'thumb', 'img_AAAAAAAA')).toBe('/data/cache/thumb/img_AAAAAAAA.webp');
    for (const bad of ['../x', '..', 'a/b', '', 'img_A.png', '%2e%2e']) expect(cachePath(dirs, 'full', bad)).toBeNull();
  });
});

describe('the client attaches the key only to its own origin', () => {
  it('adds Authorization for its base URL and never for another origin', () => {
    const client = new ServiceClient({ environment: 'local', baseUrl: 'http://127.0.0.1:8420', apiKey: KEY, language: 'zh' });
    expect(client.headersFor(new URL('http://127.0.0.1:8420/api/v1/generate')).authorization).toBe(`Bearer ${KEY}`);
    for (const other of ['http://127.0.0.1:8421/api/v1/generate', 'http://localhost:8420/x', 'https://127.0.0.1:8420/x', 'http://evil.example/api']) {
      expect(client.headersFor(new URL(other)).authorization).toBeUndefined();
    }
    expect(client.headersFor(new URL('http://127.0.0.1:8420/x'))['accept-language']).toBe('zh-CN');
  });
});
