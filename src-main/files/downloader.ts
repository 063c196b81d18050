// Downloads of generated images (spec §4.2, DESIGN.md §3): GET /api/file/<name> with the key, then the
// 302's direct link WITHOUT the key; stream to a temp file, check the PNG's size against the Image, rename
// into the cache, make a WebP thumbnail. Rows stay `pending` until done, so a quit resumes at next start. A
// transient failure is tried again with capped back-off for as long as the app runs (a paid image is never left
// waiting for a restart); the row keeps the last failure's reason so the user sees why it has not arrived yet.
import { createWriteStream, mkdirSync, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import type { DownloadProgress } from '../../src-shared/ipc/index.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import { NetworkError, headerValue } from '../clients/http.ts';
import { StudioError } from '../domain/errors.ts';
import { openDirectLink, type ServiceClient } from '../clients/service-client.ts';
import type { LibraryRepo, PendingDownload } from '../library/index.ts';
import { cachePath, isSafeImageId, type CacheDirs } from './image-cache.ts';
import { pngSize } from './png.ts';

export const THUMBNAIL_LONG_SIDE = 512;
/** No byte for this long ends a download attempt. */
const STALL_MS = 60_000;
/**
 * The most bytes one image download may bring (announced in Content-Length or streamed). The largest image
 * the service makes is 4K at 3:4, 3584×4800 (src-shared/catalog.ts); even stored uncompressed as 16-bit
 * RGBA, the worst a PNG of it can be, that is 3584×4800×8 + one filter byte per row ≈ 131 MiB. Twice that
 * never refuses a real image, and stops a broken or hostile server from filling the disk through the cache.
 */
export const MAX_DOWNLOAD_BYTES = 256 * 1024 * 1024;
/** The quick retries of a transient failure, then the back-off's ceiling: a paid image is tried every 5 minutes at worst. */
export const DOWNLOAD_RETRY_DELAYS_MS = [2_000, 10_000, 30_000];
export const DOWNLOAD_RETRY_CAP_MS = 5 * 60_000;

/**
 * The wait before retry number `retry` (0 = the first retry), or null for none: the quick waits in order, then
 * the last of them doubling with each further retry up to the cap.
 */
export function downloadRetryWaitMs(retry: number, quickMs: readonly number[], capMs: number): number | null {
  const last = quickMs.at(-1);
  if (last === undefined) return null;
  if (retry < quickMs.length) return Math.min(quickMs[retry] as number, capMs);
  return Math.min(last * 2 ** (retry - quickMs.length + 1), capMs);
}

export interface DownloaderDeps {
  repo: LibraryRepo;
  dirs: CacheDirs;
  clientFor: (environment: EnvironmentName) => Promise<ServiceClient>;
  onProgress: (progress: DownloadProgress) => void;
  onDone: (imageId: string) => void;
  concurrency?: number;
  /**
   * The quick waits before retrying a transient failure (2 s, 10 s, 30 s); after them the wait doubles up to
   * `retryCapMs` and the download keeps being tried. An empty list means no retry in this run (benchmarks).
   */
  retryDelaysMs?: number[];
  /** The longest wait between two attempts (default DOWNLOAD_RETRY_CAP_MS; tests shorten it). */
  retryCapMs?: number;
  /** Make the gallery thumbnail after each download (default true; benchmarks time downloads alone). */
  thumbnails?: boolean;
  /** The size cap of one download (default MAX_DOWNLOAD_BYTES; tests lower it). */
  maxBytes?: number;
}

/** Why a download stopped: `retry_later` leaves the row pending for the next start. */
class DownloadFailure extends Error {
  readonly final: boolean;
  /** The service's Retry-After on a 429 or 503 (spec §7): the next attempt waits at least this long. */
  readonly retryAfterMs: number | null;
  constructor(message: string, final: boolean, retryAfterMs: number | null = null) {
    super(message);
    this.final = final;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Past the size cap: final (the same server would send the same bytes again), stored as `code: text`. */
function tooLarge(limitBytes: number, declaredBytes: number | null): DownloadFailure {
  const error = new StudioError('download_too_large', declaredBytes === null ? { limitBytes } : { limitBytes, declaredBytes });
  return new DownloadFailure(`${error.code}: ${error.message}`, true);
}

export async function makeThumbnail(source: string, target: string): Promise<void> {
  const tmp = `${target}.tmp`;
  await sharp(source)
    .resize(THUMBNAIL_LONG_SIDE, THUMBNAIL_LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toFile(tmp);
  renameSync(tmp, target);
}

export class Downloader {
  private readonly deps: DownloaderDeps;
  private readonly concurrency: number;
  private readonly queue: PendingDownload[] = [];
  private readonly queued = new Set<string>();
  private active = 0;
  /** Retries waiting for their delay, by image id; `quick` ones count as busy for whenIdle (cleared by close). */
  private readonly waiting = new Map<string, { timer: NodeJS.Timeout; quick: boolean }>();
  private readonly controllers = new Set<AbortController>();
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  private readonly attempts = new Map<string, number>();
  private readonly retryDelaysMs: number[];
  private readonly retryCapMs: number;
  private readonly maxBytes: number;

  constructor(deps: DownloaderDeps) {
    this.deps = deps;
    this.concurrency = deps.concurrency ?? 3;
    this.maxBytes = deps.maxBytes ?? MAX_DOWNLOAD_BYTES;
    this.retryDelaysMs = deps.retryDelaysMs ?? DOWNLOAD_RETRY_DELAYS_MS;
    this.retryCapMs = deps.retryCapMs ?? DOWNLOAD_RETRY_CAP_MS;
    // Partial files of an earlier run are useless: every resumed download starts over.
    rmSync(deps.dirs.tmp, { recursive: true, force: true });
    for (const dir of [deps.dirs.full, deps.dirs.thumb, deps.dirs.tmp]) mkdirSync(dir, { recursive: true });
  }

  enqueue(items: PendingDownload[]): void {
    for (const item of items) {
      // Already queued, running or waiting for its retry: its own timer brings it back.
      if (this.queued.has(item.id) || this.waiting.has(item.id) || !isSafeImageId(item.id)) continue;
      this.queued.add(item.id);
      this.queue.push(item);
    }
    this.pump();
  }

  /** Downloads left unfinished by an earlier run. */
  resumePending(): void {
    this.enqueue(this.deps.repo.pendingDownloads());
  }

  /**
   * Resolves when nothing is queued, running or waiting for a quick retry (tests, benchmarks). Images past the
   * quick retries keep being tried on the slow cadence, which does not hold this up.
   */
  whenIdle(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private idle(): boolean {
    if (this.active > 0 || this.queue.length > 0) return false;
    for (const wait of this.waiting.values()) if (wait.quick) return false;
    return true;
  }

  private wakeIdleWaiters(): void {
    if (!this.idle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    for (const c of this.controllers) c.abort(new NetworkError('cancelled', 'the app is closing'));
    // Rows waiting for a retry stay pending: resumed at next start.
    for (const wait of this.waiting.values()) clearTimeout(wait.timer);
    this.waiting.clear();
    this.wakeIdleWaiters();
  }

  private pump(): void {
    while (!this.closed && this.active < this.concurrency && this.queue.length > 0) {
      const item = this.queue.shift() as PendingDownload;
      this.active++;
      void this.run(item).finally(() => {
        this.active--;
        this.queued.delete(item.id);
        this.pump();
        this.wakeIdleWaiters();
      });
    }
  }

  private async run(item: PendingDownload): Promise<void> {
    const { repo, onProgress } = this.deps;
    const base = { imageId: item.id, turnId: item.turnId };
    try {
      await this.download(item);
      repo.setDownload(item.id, 'done');
      onProgress({ ...base, receivedBytes: 0, totalBytes: null, state: 'done' });
      this.attempts.delete(item.id);
      this.deps.onDone(item.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = error instanceof DownloadFailure ? error.final : false;
      if (this.closed) return; // stays pending: resumed at next start
      const retries = this.attempts.get(item.id) ?? 0;
      const backOffMs = final ? null : downloadRetryWaitMs(retries, this.retryDelaysMs, this.retryCapMs);
      const retryAfterMs = error instanceof DownloadFailure ? error.retryAfterMs : null;
      const waitMs = backOffMs === null ? null : Math.max(backOffMs, retryAfterMs ?? 0);
      const failed: DownloadProgress = { ...base, receivedBytes: 0, totalBytes: null, state: 'failed', error: message, attempts: retries + 1 };
      if (waitMs === null) {
        this.attempts.delete(item.id);
        this.recordFailure(item.id, 'failed', message);
        onProgress(failed);
        return;
      }
      // The retry is scheduled before anything is written: a write that fails (a full disk) must not cost the retry.
      this.attempts.set(item.id, retries + 1);
      // Only the quick retries hold whenIdle: a wait the service asked for (Retry-After) may be a day.
      this.retryAfter(item, waitMs, retries < this.retryDelaysMs.length && waitMs === backOffMs);
      this.recordFailure(item.id, 'pending', message);
      onProgress({ ...failed, nextAttemptAt: Date.now() + waitMs });
    }
  }

  /** Final: failed with its reason. Otherwise the row stays pending and keeps the reason, so it shows why. */
  private recordFailure(imageId: string, state: 'failed' | 'pending', message: string): void {
    try {
      this.deps.repo.setDownload(imageId, state, message);
    } catch (error) {
      process.stderr.write(`image-studio: could not record a download's failure (${imageId}): ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }

  private retryAfter(item: PendingDownload, waitMs: number, quick: boolean): void {
    const timer = setTimeout(() => {
      this.waiting.delete(item.id);
      if (!this.closed) this.enqueue([item]);
      this.wakeIdleWaiters();
    }, waitMs).unref();
    this.waiting.set(item.id, { timer, quick });
  }

  private async download(item: PendingDownload): Promise<void> {
    const { dirs } = this.deps;
    const fullPath = cachePath(dirs, 'full', item.id);
    const thumbPath = cachePath(dirs, 'thumb', item.id);
    if (!fullPath || !thumbPath) throw new DownloadFailure('unsafe image id', true);
    let client: ServiceClient;
    try {
      client = await this.deps.clientFor(item.environment);
    } catch (error) {
      throw new DownloadFailure(error instanceof Error ? error.message : String(error), false);
    }
    // Closed while the client was being made: nothing was asked for yet, and the row stays pending.
    if (this.closed) throw new DownloadFailure('the app is closing', false);
    const controller = new AbortController();
    this.controllers.add(controller);
    const tmp = join(dirs.tmp, `${item.id}.part`);
    let stall: NodeJS.Timeout | undefined;
    let sink: WriteStream | undefined;
    try {
      const located = await client.fileLocation(item.filename, controller.signal);
      if (!located.ok) {
        if (located.kind === 'network') throw new DownloadFailure(located.message, false);
        const retryable = located.error.status === 429 || located.error.status === 503 || (located.error.status ?? 0) >= 500;
        if (located.error.status === 404) this.deps.repo.setMissing(item.id);
        const retryAfterMs = located.retryAfterS === null ? null : located.retryAfterS * 1000;
        throw new DownloadFailure(`${located.error.code}: ${located.error.message}`, !retryable, retryAfterMs);
      }
      // DESIGN.md §3: the direct link is fetched without the Authorization header.
      // A transfer that stalls (no answer, or no byte for a while) is given up and retried later.
      const stalled = (): void => controller.abort(new NetworkError('timeout', 'the download stalled'));
      stall = setTimeout(stalled, STALL_MS);
      const response = await openDirectLink(located.value, controller.signal);
      if (response.statusCode !== 200) {
        response.resume();
        throw new DownloadFailure(`direct link answered HTTP ${response.statusCode}`, false);
      }
      const lengthHeader = headerValue(response.headers, 'content-length');
      const totalBytes = lengthHeader ? Number(lengthHeader) : null;
      // The cap holds twice: on the announced length before a byte is read, and on the bytes as they come
      // (a chunked answer announces nothing).
      if (totalBytes !== null && totalBytes > this.maxBytes) {
        response.destroy();
        throw tooLarge(this.maxBytes, totalBytes);
      }
      let received = 0;
      let head = Buffer.alloc(0);
      let lastEmit = 0;
      response.on('close', () => clearTimeout(stall));
      // Observe chunks for the header check and progress; the pipe itself carries the bytes.
      response.on('data', (chunk: Buffer) => {
        clearTimeout(stall);
        stall = setTimeout(stalled, STALL_MS);
        received += chunk.length;
        if (received > this.maxBytes) {
          response.destroy(tooLarge(this.maxBytes, null));
          return;
        }
        if (head.length < 24) head = Buffer.concat([head, chunk.subarray(0, 24 - head.length)]);
        const now = Date.now();
        if (now - lastEmit >= 100) {
          lastEmit = now;
          this.deps.onProgress({ imageId: item.id, turnId: item.turnId, receivedBytes: received, totalBytes, state: 'downloading' });
        }
      });
      sink = createWriteStream(tmp, { highWaterMark: 1 << 20 });
      await pipeline(response, sink);
      if (!response.complete) throw new DownloadFailure('the connection closed before the file was complete', false);
      const size = pngSize(head);
      if (!size) throw new DownloadFailure('the file is not a PNG', true);
      if (size.width !== item.width || size.height !== item.height) {
        throw new DownloadFailure(`the PNG is ${size.width}×${size.height}, the service said ${item.width}×${item.height}`, true);
      }
      renameSync(tmp, fullPath);
      if (this.deps.thumbnails !== false) await makeThumbnail(fullPath, thumbPath);
    } catch (error) {
      // The partial file goes only once its stream has let go of it (an open still under way would recreate it).
      if (sink && !sink.closed) {
        sink.destroy();
        await once(sink, 'close').catch(() => undefined);
      }
      rmSync(tmp, { force: true });
      if (error instanceof DownloadFailure) throw error;
      throw new DownloadFailure(error instanceof Error ? error.message : String(error), false);
    } finally {
      clearTimeout(stall);
      this.controllers.delete(controller);
    }
  }
}
