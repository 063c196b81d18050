import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DownloadProgress } from '../../src-shared/ipc/index.ts';
import { estimateCredits } from '../../src-shared/pricing.ts';
import { ServiceClient } from '../clients/service-client.ts';
import { openLibraryDatabase } from '../library/database.ts';
import { LibraryRepo } from '../library/library-repo.ts';
import { DOWNLOAD_RETRY_CAP_MS, DOWNLOAD_RETRY_DELAYS_MS, Downloader, MAX_DOWNLOAD_BYTES, downloadRetryWaitMs } from './downloader.ts';
import { cacheDirs, cachePath } from './image-cache.ts';

const KEY = 'sk_TESTKEYTESTKEYTESTKEYTESTKEY123';

function listen(server: Server | TcpServer): Promise<string> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe('downloads follow the redirect without the key', () => {
  const apiSeen: IncomingHttpHeaders[] = [];
  const directSeen: IncomingHttpHeaders[] = [];
  let png: Buffer;
  let apiUrl = '';
  let directUrl = '';
  let rateLimitNext = 0;
  const api = createServer((req, res) => {
    apiSeen.push(req.headers);
    if (rateLimitNext > 0) {
      rateLimitNext--;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' }).end(JSON.stringify({ error: { code: 'rate_limited', message: 'slow down', request_id: 'req_x' } }));
      return;
    }
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

  function setup(width: number, height: number, retryDelaysMs = [50], retryCapMs?: number) {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-dl-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const repo = new LibraryRepo(db);
    repo.createSession('ls_1', 'remote', 1);
    repo.createTurn({ id: 'lt_1', sessionId: 'ls_1', environment: 'remote', request: { prompt: 'x' }, estimate: estimateCredits({ model: 'auto', referenceCount: 0 }), startedAt: 1, retryOf: null, referenceImageIds: [] });
    repo.insertImages({ id: 'lt_1', sessionId: 'ls_1', environment: 'remote', model: 'nano-banana-2', purpose: 'free', prompt: 'x' }, [{ id: 'img_AAAAAAAA', filename: 'AAAAAAAA.png', width, height }], 1);
    const events: DownloadProgress[] = [];
    /** The row's state as each event went out. */
    const rowAtEvent: Array<string | undefined> = [];
    const dirs = cacheDirs(dataDir);
    const downloader = new Downloader({
      repo,
      dirs,
      clientFor: async () => new ServiceClient({ environment: 'remote', baseUrl: apiUrl, apiKey: KEY, language: 'en' }),
      onProgress: (p) => {
        events.push(p);
        rowAtEvent.push(repo.getImage(p.imageId)?.download);
      },
      onDone: () => undefined,
      retryDelaysMs,
      ...(retryCapMs === undefined ? {} : { retryCapMs }),
    });
    return { db, repo, dirs, events, rowAtEvent, downloader };
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

  it('retries a transient failure in the same run, and keeps the row pending while it waits; idle means the retry is done too', async () => {
    const { repo, events, rowAtEvent, downloader } = setup(1376, 768);
    failNext = 1;
    downloader.resumePending();
    await downloader.whenIdle();
    const failed = events.findIndex((e) => e.state === 'failed');
    expect(failed).toBeGreaterThanOrEqual(0);
    expect(rowAtEvent[failed]).toBe('pending');
    expect(events.at(-1)).toMatchObject({ state: 'done' });
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('done');
  });

  it('keeps trying past the quick retries, with the reason on the pending row and when it tries next on each failure, until it arrives', async () => {
    const { db, repo, events, downloader } = setup(1376, 768, [10], 40);
    const seenBefore = directSeen.length;
    failNext = 5;
    downloader.resumePending();
    // Idle once the quick retry is spent: the slower ones go on without holding anything up.
    await downloader.whenIdle();
    // Each try is at most 40 ms apart: 300 looks of 10 ms leave ample room, and a downloader that gave up ends them.
    for (let i = 0; i < 300 && !events.some((e) => e.state === 'done'); i++) await new Promise((r) => setTimeout(r, 10));
    const failures = events.filter((e) => e.state === 'failed');
    expect(failures.map((e) => e.attempts)).toEqual([1, 2, 3, 4, 5]);
    for (const f of failures) {
      expect(f.error).toMatch(/503/);
      expect(f.nextAttemptAt).toBeGreaterThan(0);
    }
    expect(directSeen.length - seenBefore).toBe(6);
    const image = repo.getImage('img_AAAAAAAA');
    expect(image?.download).toBe('done');
    expect(image?.downloadError).toBeUndefined();
    db.close();
  });

  it('shows why a pending image has not arrived while it waits for its next try', async () => {
    const { db, repo, events, downloader } = setup(1376, 768, [60_000]);
    failNext = 1;
    downloader.resumePending();
    for (let i = 0; i < 200 && !events.some((e) => e.state === 'failed'); i++) await new Promise((r) => setTimeout(r, 10));
    const image = repo.getImage('img_AAAAAAAA');
    expect(image?.download).toBe('pending');
    expect(image?.downloadError).toMatch(/503/);
    expect(events.find((e) => e.state === 'failed')).toMatchObject({ attempts: 1, nextAttemptAt: expect.any(Number) });
    downloader.close();
    db.close();
  });

  it("waits at least the service's Retry-After before asking for the file again (spec §7), not its own shorter back-off", async () => {
    const { db, repo, events, downloader } = setup(1376, 768, [50]);
    rateLimitNext = 1;
    const before = Date.now();
    downloader.resumePending();
    for (let i = 0; i < 200 && !events.some((e) => e.state === 'failed'); i++) await new Promise((r) => setTimeout(r, 10));
    const failed = events.find((e) => e.state === 'failed');
    expect(failed?.error).toMatch(/rate_limited/);
    expect(failed?.nextAttemptAt).toBeGreaterThanOrEqual(before + 7_000);
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('pending');
    downloader.close();
    db.close();
  });

  it('waits 2 s, 10 s, 30 s, then doubles up to 5 minutes and goes on; no list means no retry', () => {
    const waits = Array.from({ length: 9 }, (_, retry) => downloadRetryWaitMs(retry, DOWNLOAD_RETRY_DELAYS_MS, DOWNLOAD_RETRY_CAP_MS));
    expect(waits).toEqual([2_000, 10_000, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
    expect(downloadRetryWaitMs(1_000, DOWNLOAD_RETRY_DELAYS_MS, DOWNLOAD_RETRY_CAP_MS)).toBe(300_000);
    expect(downloadRetryWaitMs(0, [], DOWNLOAD_RETRY_CAP_MS)).toBeNull();
  });

  it('close() drops the retries it has scheduled: idle at once, and the row stays pending for the next start', async () => {
    const { db, repo, events, downloader } = setup(1376, 768, [60_000]);
    const seenBefore = directSeen.length;
    failNext = 1;
    downloader.resumePending();
    for (let i = 0; i < 100 && !events.some((e) => e.state === 'failed'); i++) await new Promise((r) => setTimeout(r, 10));
    expect(events.map((e) => e.state)).toContain('failed');
    // A retry is a minute away: not idle.
    const idle = downloader.whenIdle();
    let resolved = false;
    void idle.then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(resolved).toBe(false);
    downloader.close();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('whenIdle() still waits after close()')), 2_000)));
    await Promise.race([idle, late]);
    await Promise.race([downloader.whenIdle(), late]);
    clearTimeout(timer);
    expect(repo.getImage('img_AAAAAAAA')?.download).toBe('pending');
    expect(directSeen.length - seenBefore).toBe(1);
    db.close();
  });

  it('maps ids to cache paths only inside the cache', () => {
    const dirs = cacheDirs('/data');
    expect(cachePath(dirs, 'full', 'img_AAAAAAAA')).toBe('/data/cache/full/img_AAAAAAAA.png');
    expect(cachePath(dirs, 'thumb', 'img_AAAAAAAA')).toBe('/data/cache/thumb/img_AAAAAAAA.webp');
    for (const bad of ['../x', '..', 'a/b', '', 'img_A.png', '%2e%2e']) expect(cachePath(dirs, 'full', bad)).toBeNull();
  });
});

describe('a download past the size cap', () => {
  const CAP = 1024 * 1024;
  const CHUNK = Buffer.alloc(64 * 1024, 0x5a);
  /** How far each direct link got: bytes written before the client let go, and whether it let go. */
  const sent = new Map<string, { bytes: number; closedByClient: boolean }>();
  let png: Buffer;
  let apiUrl = '';
  let directUrl = '';
  const api = createServer((req, res) => {
    const name = req.url?.split('/').pop() ?? '';
    res.writeHead(302, { location: `${directUrl}/direct/${name}?expires=9999999999&sig=abc` }).end();
  });

  /** Writes `chunks()` to the socket, paced, until they run out or the client closes. */
  function stream(socket: Socket, name: string, head: string, chunks: () => Buffer | null, end: () => void): void {
    const record = { bytes: 0, closedByClient: false };
    sent.set(name, record);
    let done = false;
    socket.on('close', () => {
      if (!done) record.closedByClient = true;
    });
    socket.write(head);
    const pump = (): void => {
      if (socket.destroyed) return;
      const chunk = chunks();
      if (chunk === null) {
        done = true;
        end();
        return;
      }
      record.bytes += chunk.length;
      socket.write(chunk, () => setTimeout(pump, 2));
    };
    pump();
  }

  // A raw TCP server, so each answer can say about its length whatever it likes.
  const direct: TcpServer = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    let request = '';
    socket.on('data', (data: Buffer) => {
      if (request.includes('\r\n\r\n')) return;
      request += data.toString('latin1');
      if (!request.includes('\r\n\r\n')) return;
      const name = /^GET \/direct\/([A-Za-z0-9]{8}\.png)/.exec(request)?.[1] ?? '';
      const ok = 'HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n';
      const limit = 64 * 1024 * 1024;
      let bytes = 0;
      /** The real PNG first (its header passes every other check), then filler up to `limit`. */
      const pngThenFiller = (): Buffer | null => {
        if (bytes >= limit) return null;
        const chunk = bytes === 0 ? png : CHUNK;
        bytes += chunk.length;
        return chunk;
      };
      if (name === 'ANNOUNCE.png') {
        // Announces 64 MiB and starts sending it.
        stream(socket, name, `${ok}Content-Length: ${limit}\r\n\r\n`, pngThenFiller, () => socket.end());
      } else if (name === 'CHUNKEDX.png') {
        // Announces nothing (chunked) and never stops on its own.
        const chunked = (): Buffer | null => {
          const chunk = pngThenFiller();
          return chunk === null ? null : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
        };
        stream(socket, name, `${ok}Transfer-Encoding: chunked\r\n\r\n`, chunked, () => socket.end('0\r\n\r\n'));
      } else if (name === 'UNTILEND.png') {
        // No length at all: the body runs until the server closes the connection.
        stream(socket, name, `${ok}Connection: close\r\n\r\n`, pngThenFiller, () => socket.end());
      } else if (name === 'UNDERSAY.png') {
        // Announces the PNG's true length, then keeps writing 8 MiB past it. It says it closes the connection: a
        // client that kept it for its next request would read the filler as that request's answer.
        let extra = 0;
        const more = (): Buffer | null => {
          if (extra === 0) {
            extra += png.length;
            return png;
          }
          if (extra >= png.length + 8 * 1024 * 1024) return null;
          extra += CHUNK.length;
          return CHUNK;
        };
        stream(socket, name, `${ok}Content-Length: ${png.length}\r\nConnection: close\r\n\r\n`, more, () => socket.end());
      } else {
        // An honest answer.
        stream(socket, name, `${ok}Content-Length: ${png.length}\r\nConnection: close\r\n\r\n`, () => (bytes++ === 0 ? png : null), () => socket.end());
      }
    });
  });

  beforeAll(async () => {
    png = await sharp({ create: { width: 1376, height: 768, channels: 3, background: { r: 10, g: 120, b: 10 } } }).png({ compressionLevel: 1 }).toBuffer();
    expect(png.length).toBeLessThan(CAP / 4);
    apiUrl = await listen(api);
    directUrl = await listen(direct);
  });
  afterAll(() => {
    api.close();
    direct.close();
  });

  it('is far above the largest PNG the service makes, 4K at 3:4 stored as uncompressed 16-bit RGBA', () => {
    const worst = 4800 * (1 + 3584 * 8);
    expect(MAX_DOWNLOAD_BYTES).toBeGreaterThanOrEqual(worst * 1.5);
  });

  it('stops an announced or a streamed oversize file, keeps nothing of it, fails its row with download_too_large, and the other downloads finish', async () => {
    const names = ['ANNOUNCE', 'CHUNKEDX', 'UNTILEND', 'UNDERSAY', 'HONESTAA', 'HONESTBB'];
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-dl-cap-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const repo = new LibraryRepo(db);
    repo.createSession('ls_1', 'remote', 1);
    repo.createTurn({ id: 'lt_1', sessionId: 'ls_1', environment: 'remote', request: { prompt: 'x' }, estimate: estimateCredits({ model: 'auto', referenceCount: 0 }), startedAt: 1, retryOf: null, referenceImageIds: [] });
    repo.insertImages(
      { id: 'lt_1', sessionId: 'ls_1', environment: 'remote', model: 'nano-banana-2', purpose: 'free', prompt: 'x' },
      names.map((n) => ({ id: `img_${n}`, filename: `${n}.png`, width: 1376, height: 768 })),
      1,
    );
    const events: DownloadProgress[] = [];
    const dirs = cacheDirs(dataDir);
    const downloader = new Downloader({
      repo,
      dirs,
      clientFor: async () => new ServiceClient({ environment: 'remote', baseUrl: apiUrl, apiKey: KEY, language: 'en' }),
      onProgress: (p) => events.push(p),
      onDone: () => undefined,
      retryDelaysMs: [50],
      thumbnails: false,
      maxBytes: CAP,
    });
    downloader.resumePending();
    await downloader.whenIdle();

    const row = (id: string) => db.prepare('SELECT download, download_error FROM images WHERE id = ?').get(id) as { download: string; download_error: string | null };
    for (const name of ['ANNOUNCE', 'CHUNKEDX', 'UNTILEND']) {
      const id = `img_${name}`;
      expect(row(id).download, name).toBe('failed');
      expect(row(id).download_error, name).toMatch(/^download_too_large: The image file is larger than the app accepts \(1 MB at most/);
      const last = events.filter((e) => e.imageId === id).at(-1);
      expect(last, name).toMatchObject({ state: 'failed' });
      expect(last?.error).toMatch(/^download_too_large: /);
      // Progress never counted past the cap.
      for (const e of events.filter((e) => e.imageId === id)) expect(e.receivedBytes, name).toBeLessThanOrEqual(CAP);
      // The client hung up before the server was done (the server may hear of it a moment after the client moved on).
      for (let i = 0; i < 100 && !sent.get(`${name}.png`)?.closedByClient; i++) await new Promise((r) => setTimeout(r, 20));
      expect(sent.get(`${name}.png`)?.closedByClient, name).toBe(true);
      expect(sent.get(`${name}.png`)?.bytes ?? 0, name).toBeLessThan(16 * 1024 * 1024);
    }
    // The announced length is refused before the body is read, and the message says what was announced.
    expect(row('img_ANNOUNCE').download_error).toContain('the service announced 64 MB');
    expect(events.filter((e) => e.imageId === 'img_ANNOUNCE' && e.state === 'downloading')).toEqual([]);
    // Final: not retried in this run, so each was asked for once.
    expect(events.filter((e) => e.imageId === 'img_CHUNKEDX' && e.state === 'failed')).toHaveLength(1);

    // Bytes past a declared length never reach the cache: the file is exactly the PNG. Each was fetched once.
    for (const name of ['UNDERSAY', 'HONESTAA', 'HONESTBB']) {
      expect(events.filter((e) => e.imageId === `img_${name}` && e.state === 'failed'), name).toEqual([]);
      expect(repo.getImage(`img_${name}`)?.download, name).toBe('done');
      expect(readFileSync(cachePath(dirs, 'full', `img_${name}`) as string).equals(png), name).toBe(true);
    }
    // Nothing of the refused files anywhere in the cache, partial or whole.
    expect(readdirSync(dirs.tmp)).toEqual([]);
    expect(readdirSync(dirs.full).sort()).toEqual(['img_HONESTAA.png', 'img_HONESTBB.png', 'img_UNDERSAY.png']);
    db.close();
  });

  it('says what happened in both languages', async () => {
    const { StudioError } = await import('../domain/errors.ts');
    const error = new StudioError('download_too_large', { limitBytes: MAX_DOWNLOAD_BYTES, declaredBytes: 300 * 1024 * 1024 });
    expect(error.toIpc('en').message).toBe(
      'The image file is larger than the app accepts (256 MB at most; the service announced 300 MB); the download was stopped and nothing was kept. A real image is far smaller: the service or the network is misbehaving.',
    );
    expect(error.toIpc('zh').message).toContain('最多 256 MB，服务声明为 300 MB');
    expect(new StudioError('download_too_large', { limitBytes: MAX_DOWNLOAD_BYTES }).toIpc('zh').message).not.toContain('声明');
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
