// A finished Catalog batch at scale, for the board's benchmark (bench/catalog-board.bench.ts) and its scroll's e2e
// test (e2e/catalog-glance.spec.ts): products × shots with n candidates each, seeded straight into a library database
// (products with a master reference, the batch and its jobs, one succeeded turn per job with its downloaded images and
// a WebP thumbnail each; nothing generated).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { estimateCredits } from '../src-shared/pricing.ts';
import { BatchRepo, type NewJob } from '../src-main/batch/batch-repo.ts';
import { CatalogRepo } from '../src-main/batch/catalog-repo.ts';
import { cacheDirs, cachePath } from '../src-main/files/image-cache.ts';
import { openLibraryDatabase, transaction } from '../src-main/library/database.ts';
import { LibraryRepo } from '../src-main/library/library-repo.ts';

export const PRODUCTS = Number(process.env.BOARD_BENCH_PRODUCTS ?? 1000);
export const SHOTS = ['main', 'side', 'back', 'top', 'detail', 'scale', 'lifestyle', 'packaging'];
export const N = 2 as const;
export const BATCH_ID = 'bt_bench';
const MODEL = 'seedream-5-0-pro' as const;

const id = (prefix: string, n: number, width: number) => `${prefix}${n.toString(36).padStart(width, '0')}`;

/** One succeeded turn with N downloaded images (and their thumbnails) for each job, the job linked to it. */
function seedTurns(db: ReturnType<typeof openLibraryDatabase>, dataDir: string, jobs: NewJob[], palette: Buffer[], at: number): void {
  const library = new LibraryRepo(db);
  const batches = new BatchRepo(db);
  const dirs = cacheDirs(dataDir);
  let imageNo = 0;
  for (const job of jobs) {
    const prompt = job.request.prompt ?? '';
    const turnId = id('lt_board', job.position, 6);
    const turnAt = at + job.position * 1_000;
    library.createTurn({ id: turnId, sessionId: job.sessionId, environment: 'local', request: job.request, estimate: estimateCredits({ model: MODEL, prompt, referenceCount: 0, n: N }), startedAt: turnAt, retryOf: null, referenceImageIds: [] });
    library.updateTurn(turnId, { status: 'succeeded', creditsCharged: job.estimate, finishedAt: turnAt + 900, durationMs: 900 });
    const images = Array.from({ length: N }, () => {
      const imageId = id('img_b', imageNo++, 7);
      return { id: imageId, filename: `${imageId.slice(4)}.png`, width: 1024, height: 1024 };
    });
    library.insertImages({ id: turnId, sessionId: job.sessionId, environment: 'local', model: MODEL, purpose: job.purpose, prompt }, images, turnAt + 900);
    for (const image of images) {
      library.setDownload(image.id, 'done');
      const file = cachePath(dirs, 'thumb', image.id);
      if (file) writeFileSync(file, palette[imageNo % palette.length] ?? Buffer.alloc(0));
    }
    batches.markSent(job.id, turnId, { request: job.request, estimate: job.estimate });
  }
}

/** Products (each with its first candidate as master reference), one session each, the batch and its jobs, done. */
export async function seed(dataDir: string, products = PRODUCTS): Promise<void> {
  const db = openLibraryDatabase(join(dataDir, 'library.db'));
  mkdirSync(cacheDirs(dataDir).thumb, { recursive: true });
  const palette = await Promise.all(
    Array.from({ length: 16 }, (_, i) =>
      sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 70 + i * 10, g: 140 - i * 4, b: 190 - i * 6 } } }).webp({ quality: 70 }).toBuffer(),
    ),
  );
  const at = Date.UTC(2026, 10, 1);
  const catalog = new CatalogRepo(db);
  const library = new LibraryRepo(db);
  transaction(db, () => {
    const jobs: NewJob[] = [];
    for (let p = 0; p < products; p++) {
      const sku = `BRD-${String(p + 1).padStart(4, '0')}`;
      // The master reference is the product's first candidate (image ids are given out in job order below).
      const product = catalog.createProduct({ sku, name: `Stoneware bowl 陶瓷碗 ${p + 1}`, prompt: `a stoneware bowl, glaze ${p % 7}`, notes: '', referenceImageIds: [id('img_b', p * SHOTS.length * N, 7)] }, at);
      const sessionId = id('ls_board', p, 5);
      library.createSession(sessionId, 'local', at);
      for (const [s, shotName] of SHOTS.entries()) {
        const prompt = `${product.prompt}, ${shotName} view`;
        const request = { prompt, model: MODEL, n: N, ratio: '1:1' as const, resolution: '1K' as const, purpose_id: s === 0 ? ('main_white' as const) : ('free' as const) };
        jobs.push({
          id: id('bj_board', jobs.length, 6), position: jobs.length, productId: product.id, sku, productName: product.name, shotIndex: s, shotName,
          purpose: request.purpose_id, sessionId, request, estimate: estimateCredits({ model: MODEL, prompt, referenceCount: 0, n: N }).total,
        });
      }
    }
    new BatchRepo(db).createBatch(
      { id: BATCH_ID, name: 'Board bench', environment: 'local', shotListId: 'sl_bench', shotListName: 'Marketplace 8', state: 'done', pause: null, budget: null, concurrency: 2, planned: jobs.length, createdAt: at, updatedAt: at + 3_600_000 },
      jobs,
    );
    seedTurns(db, dataDir, jobs, palette, at);
  });
  db.close();
}
