// The library at scale (docs/benchmarks.md "Library at scale"): 100,000 images in 5,000 sessions seeded into a
// real library.db through the app's own write path (bench/library-seed.ts: search indexes, titles, marks,
// boards), then every kind of gallery question asked through the real IPC dispatch of the app core
// (createStudioApp with the bundled local service, as the renderer asks it): each gallery filter alone and
// combined, the first page and a deep page, select-all ids, previous/next with position, and a batch mark.
// Every call is measured cold: an unrelated image is marked just before it (not timed), so nothing the core
// remembers between calls (totals) is reused, as in a culling session where each key press marks an image.
// Prompt searches rotate through more different words than the core keeps, so each one is looked up in FTS5 afresh.
// Also: how long seeding takes, and migrations 0300–0600 on a 100,000-image library of the schema before them.
// p50 and p95 per run; the table has the median of RUNS runs. Target: p95 < 50 ms for each.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GalleryFilters, GalleryPage, ImageNeighbors } from '../src-shared/ipc/library.ts';
import { createStudioApp } from '../src-main/app/create-app.ts';
import { NodeLocalServiceHost } from '../src-main/service-host/node-service-host.ts';
import { RecordingShell } from '../src-main/ports/desktop-shell.ts';
import { openLibraryDatabase, transaction } from '../src-main/library/database.ts';
import { MIGRATIONS } from '../src-main/library/migrations/index.ts';
import { seedLibrary, type SeededLibrary } from './library-seed.ts';
import { invokeOk, machineLine, median, percentile, writeSection } from './report.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CALLS = Number(process.env.BENCH_CALLS ?? 40);
const SESSIONS = 5000;
const TURNS_PER_SESSION = 5; // × 4 images = 100,000
const TARGET_P95_MS = 50;
const PAGE = 25; // sessions per gallery page, as the renderer asks (GALLERY_PAGE_SESSIONS)

interface App {
  invoke(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
}

/** Words of the seeded prompts, each in a few percent of them (bench/library-seed.ts). */
const WORDS = ['shampoo', 'perfume', 'handbag', 'sneaker', 'ceramic', 'earbuds', 'watch', 'lipstick', 'sunglasses', 'scarf', 'lamp', 'grinder', 'yoga', 'dress', 'jacket', 'speaker', 'candle', 'stroller', 'keyboard', 'backpack'];
const SHORT_ZH = ['香水', '口红', '面霜', '围巾', '台灯', '杯', '鞋', '包'];
/** What typing a common word sends, each in most prompts: "photo" and "product" are in 80 % of them. */
const DENSE = ['pho', 'phot', 'photo', 'prod', 'produ', 'product', 'on', 'light'];

interface Case {
  name: string;
  /** A write (shown apart; the target is for the gallery's questions). */
  write?: true;
  /** One measured call; `i` is the call number (for rotating inputs). */
  run: (app: App, i: number) => Promise<unknown>;
}

function galleryCase(name: string, filters: (i: number) => GalleryFilters, cursor: (f: GalleryFilters) => string | null = () => null): Case {
  return { name, run: (app, i) => { const f = filters(i); return invokeOk<GalleryPage>(app, 'libraryGallery', { filters: f, cursor: cursor(f), limit: PAGE }); } };
}

async function deepCursor(app: App, filters: GalleryFilters, pages: number): Promise<string | null> {
  let cursor: string | null = null;
  for (let p = 0; p < pages; p++) {
    const page: GalleryPage = await invokeOk<GalleryPage>(app, 'libraryGallery', { filters, cursor, limit: PAGE });
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  return cursor;
}

async function cases(app: App, seeded: SeededLibrary): Promise<Case[]> {
  const month: GalleryFilters = { from: Date.UTC(2025, 5, 1), to: Date.UTC(2025, 6, 1) - 1 };
  const big = seeded.bigBoardId;
  const deep = new Map<string, string | null>();
  // Deep pages: page 100 of the whole library (sessions 2,500–2,525 of 5,000), page 60 of the filtered ones.
  for (const [key, f, pages] of [
    ['all', {}, 100],
    ['hide', { rejected: 'hide' }, 100],
    ['model', { model: 'gpt-image-2' }, 60],
    ['rating', { minRating: 4 }, 60],
    ['board', { boardId: big }, 40],
    ['search', { query: 'marble' }, 20],
  ] as Array<[string, GalleryFilters, number]>) {
    deep.set(key, await deepCursor(app, f, pages));
  }
  const at = (key: string) => () => deep.get(key) ?? null;
  // Images all along each filter's order for previous/next.
  const pivots = new Map<string, string[]>();
  for (const [key, f] of [
    ['all', {}],
    ['hide', { rejected: 'hide' }],
    ['rating', { minRating: 3, rejected: 'hide' }],
    ['model', { model: 'seedream-5-0-pro' }],
    ['search', { query: 'marble' }],
    ['search, most prompts', { query: 'photo', rejected: 'hide' }],
    ['search, most prompts + rating', { query: 'photo', minRating: 3 }],
    ['board', { boardId: big }],
  ] as Array<[string, GalleryFilters]>) {
    // Spread over the first 5,000 in the order (select-all's limit); the two large ones get deeper ones below.
    const { ids } = await invokeOk<{ ids: string[] }>(app, 'libraryImageIds', { filters: f, limit: 5000 });
    pivots.set(key, ids.filter((_, k) => k % 97 === 13));
  }
  // For deep pivots beyond the first 5,000: walk neighbours from a deep page's first image.
  for (const key of ['all', 'hide']) {
    const page = await invokeOk<GalleryPage>(app, 'libraryGallery', { filters: key === 'all' ? {} : { rejected: 'hide' }, cursor: deep.get(key) ?? null, limit: 40 });
    const extra = page.groups.flatMap((g) => g.images.map((img) => img.id)).filter((_, k) => k % 23 === 0);
    pivots.set(key, [...(pivots.get(key) ?? []), ...extra]);
  }
  const neighbors = (key: string, f: GalleryFilters): Case => ({
    name: `previous/next (${key}), image anywhere in the order`,
    run: (app, i) => {
      const list = pivots.get(key) ?? [];
      return invokeOk<ImageNeighbors>(app, 'libraryNeighbors', { filters: f, imageId: list[i % list.length] });
    },
  });
  const sample = (await invokeOk<{ ids: string[] }>(app, 'libraryImageIds', { filters: {}, limit: 5000 })).ids;
  return [
    galleryCase('no filter, first page', () => ({})),
    galleryCase('no filter, deep page (page 101)', () => ({}), at('all')),
    galleryCase('prompt search, a different word each call (FTS5 trigram), first page', (i) => ({ query: WORDS[i % WORDS.length] })),
    galleryCase('prompt search "marble", deep page', () => ({ query: 'marble' }), at('search')),
    galleryCase('prompt search, 1–2 Chinese characters (FTS5 words), first page', (i) => ({ query: SHORT_ZH[i % SHORT_ZH.length] })),
    galleryCase('prompt search, phrase "soft morning light", first page', () => ({ query: '"soft morning light"' })),
    galleryCase('prompt search, a word in most prompts ("pho", "phot", "photo", …: 56–80 %), first page', (i) => ({ query: DENSE[i % DENSE.length] })),
    galleryCase('prompt search, a word in most prompts + rejects hidden', (i) => ({ query: DENSE[i % DENSE.length], rejected: 'hide' })),
    galleryCase('prompt search, a word in most prompts + model + rejects hidden', (i) => ({ query: DENSE[i % DENSE.length], model: 'gpt-image-2', rejected: 'hide' })),
    galleryCase('prompt search, a word in most prompts + rating ≥ 3', (i) => ({ query: DENSE[i % DENSE.length], minRating: 3 })),
    galleryCase('model, first page', () => ({ model: 'gpt-image-2' })),
    galleryCase('model, deep page', () => ({ model: 'gpt-image-2' }), at('model')),
    galleryCase('purpose, first page', () => ({ purpose: 'detail' })),
    galleryCase('rating ≥ 4, first page', () => ({ minRating: 4 })),
    galleryCase('rating ≥ 4, deep page', () => ({ minRating: 4 }), at('rating')),
    galleryCase('rejects hidden, first page', () => ({ rejected: 'hide' })),
    galleryCase('rejects hidden, deep page (page 101)', () => ({ rejected: 'hide' }), at('hide')),
    galleryCase('rejects only, first page', () => ({ rejected: 'only' })),
    galleryCase('starred, first page', () => ({ starred: true })),
    galleryCase('board (5,000 images), first page', () => ({ boardId: big })),
    galleryCase('board (5,000 images), deep page', () => ({ boardId: big }), at('board')),
    galleryCase('date range (one month), first page', () => month),
    galleryCase('model + rating ≥ 3 + rejects hidden', () => ({ model: 'nano-banana-2', minRating: 3, rejected: 'hide' })),
    galleryCase('prompt search + starred', (i) => ({ query: WORDS[i % WORDS.length], starred: true })),
    galleryCase('board + rejects hidden + rating ≥ 2', () => ({ boardId: big, rejected: 'hide', minRating: 2 })),
    galleryCase('date range + purpose + rejects hidden', () => ({ ...month, purpose: 'main_white', rejected: 'hide' })),
    neighbors('all', {}),
    neighbors('hide', { rejected: 'hide' }),
    neighbors('rating', { minRating: 3, rejected: 'hide' }),
    neighbors('model', { model: 'seedream-5-0-pro' }),
    neighbors('search', { query: 'marble' }),
    neighbors('search, most prompts', { query: 'photo', rejected: 'hide' }),
    neighbors('search, most prompts + rating', { query: 'photo', minRating: 3 }),
    neighbors('board', { boardId: big }),
    { name: 'select all: first 5,000 ids + total (rejects hidden)', run: (app) => invokeOk(app, 'libraryImageIds', { filters: { rejected: 'hide' }, limit: 5000 }) },
    {
      name: 'mark 1,000 images (rating) in one call',
      write: true,
      run: (app, i) => invokeOk(app, 'libraryMark', { imageIds: sample.slice((i % 5) * 1000, (i % 5) * 1000 + 1000), rating: (i % 5) + 1 }),
    },
  ];
}

/** 100,000 images in the schema before migration 0300 (plain inserts), then the migrations since, timed. */
function migrationMs(): number {
  const dir = mkdtempSync(join(tmpdir(), 'studio-bench-m0300-'));
  const file = join(dir, 'library.db');
  try {
    const db = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version < 300));
    const session = db.prepare("INSERT INTO sessions (id, environment, created_at, updated_at) VALUES (?, 'local', ?, ?)");
    const turn = db.prepare(
      "INSERT INTO turns (id, session_id, environment, request_json, estimate_json, model, purpose, prompt, status, started_at, client_id_sent) VALUES (?, ?, 'local', '{}', '{}', 'nano-banana-2', 'free', ?, 'succeeded', ?, 1)",
    );
    const image = db.prepare(
      "INSERT INTO images (id, turn_id, session_id, environment, filename, position, width, height, starred, download, created_at, model, purpose, prompt) VALUES (?, ?, ?, 'local', 'f.png', ?, 1, 1, ?, 'done', ?, 'nano-banana-2', 'free', ?)",
    );
    transaction(db, () => {
      for (let s = 0; s < SESSIONS; s++) {
        const sid = `ls_${s}`;
        const at = Date.UTC(2025, 0, 1) + s * 6_000_000;
        session.run(sid, at, at);
        for (let t = 0; t < TURNS_PER_SESSION; t++) {
          const prompt = `${WORDS[(s + t) % WORDS.length]} on ${['white marble', 'oak table', 'linen'][t % 3]}, soft morning light, product photo ${s}`;
          turn.run(`lt_${s}_${t}`, sid, prompt, at + t * 90_000);
          for (let i = 0; i < 4; i++) image.run(`img_${s}_${t}_${i}`, `lt_${s}_${t}`, sid, i, (s + i) % 20 === 0 ? 1 : 0, at + t * 90_000 + 20_000, prompt);
        }
      }
    });
    db.close();
    const started = performance.now();
    openLibraryDatabase(file).close();
    return performance.now() - started;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitForBackup(dataDir: string): Promise<void> {
  // The start-up backup starts with the app and copies the whole file in the background: let it finish first.
  const dir = join(dataDir, 'backups');
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.db'))) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the start-up backup did not finish');
}

interface RunResult {
  p50: Map<string, number>;
  p95: Map<string, number>;
  writes: Set<string>;
}

async function oneRun(dataDir: string, seeded: SeededLibrary): Promise<RunResult> {
  const host = new NodeLocalServiceHost({ dataDir: join(dataDir, 'local-service') });
  const startedAt = performance.now();
  const core = await createStudioApp({ dataDir, shell: new RecordingShell(), localService: host, secretStore: 'memory', testing: { pauseDownloads: true } });
  console.log(`app started in ${Math.round(performance.now() - startedAt)} ms`);
  const app = core as unknown as App;
  try {
    await waitForBackup(dataDir);
    const list = await cases(app, seeded);
    const sample = (await invokeOk<{ ids: string[] }>(app, 'libraryImageIds', { filters: { rejected: 'only' }, limit: 200 })).ids;
    const result: RunResult = { p50: new Map(), p95: new Map(), writes: new Set(list.filter((c) => c.write).map((c) => c.name)) };
    for (const c of list) {
      await c.run(app, 0); // statements prepared once, as after the first use in the app
      const ms: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        // Cold: a change just before each call (a reject toggled on an image already rejected: its marks stay).
        await invokeOk(app, 'libraryMark', { imageIds: [sample[i % sample.length]], rejected: true, starred: i % 2 === 0 });
        const started = performance.now();
        await c.run(app, i + 1);
        ms.push(performance.now() - started);
      }
      result.p50.set(c.name, percentile(ms, 0.5));
      result.p95.set(c.name, percentile(ms, 0.95));
      console.log(`${c.name.padEnd(72)} p50 ${percentile(ms, 0.5).toFixed(1).padStart(6)} ms  p95 ${percentile(ms, 0.95).toFixed(1).padStart(6)} ms`);
    }
    return result;
  } finally {
    await core.close();
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-bench-library-'));
  try {
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const seedStart = performance.now();
    const seeded = seedLibrary(db, { sessions: SESSIONS, turnsPerSession: TURNS_PER_SESSION, boards: 50 });
    const seedMs = performance.now() - seedStart;
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    db.close();
    console.log(`seeded ${seeded.images} images, ${seeded.turns} turns, ${seeded.sessions} sessions, ${seeded.boardIds.length} boards in ${(seedMs / 1000).toFixed(1)} s`);
    const migration = migrationMs();
    console.log(`migrations 0300–0600 on ${SESSIONS * TURNS_PER_SESSION * 4} images: ${(migration / 1000).toFixed(2)} s`);

    const runs: RunResult[] = [];
    for (let r = 0; r < RUNS; r++) {
      console.log(`== run ${r + 1} of ${RUNS}`);
      runs.push(await oneRun(dataDir, seeded));
    }
    const writes = runs[0]?.writes ?? new Set<string>();
    const row = (name: string) => {
      const p50 = median(runs.map((r) => r.p50.get(name) ?? 0));
      const p95 = median(runs.map((r) => r.p95.get(name) ?? 0));
      const spread = runs.map((r) => (r.p95.get(name) ?? 0).toFixed(1)).join(', ');
      return { name, p50, p95, spread };
    };
    const names = [...(runs[0]?.p50.keys() ?? [])];
    const rows = names.filter((n) => !writes.has(n)).map(row);
    const writeRows = names.filter((n) => writes.has(n)).map(row);
    const missed = rows.filter((r) => r.p95 >= TARGET_P95_MS);
    const load = loadavg().map((x) => x.toFixed(1)).join(' / ');
    writeSection(
      'library',
      `## Library at scale (main process)

Machine: ${machineLine()}; load average when the runs ended: ${load} (the machine is shared with other work).
Command: \`npm run bench -- library\` (bench/library.bench.ts; ${RUNS} runs of ${CALLS} calls per row, the median of the runs' p50 and p95).
${seeded.images.toLocaleString('en-US')} images in ${seeded.sessions.toLocaleString('en-US')} sessions (${seeded.turns.toLocaleString('en-US')} turns, realistic English
and Chinese product prompts, 5 models, 5 purposes, a third rated, 8 % rejected, 5 % starred, ${seeded.boardIds.length} boards, one of 5,000 images, sessions
continued weeks later) seeded into a real library.db through the app's write path, then asked through the IPC
dispatch of the real app core (createStudioApp, the bundled local service running), as the renderer asks: gallery
pages of ${PAGE} sessions (with their images, ~500 per page, and the totals), select-all ids, previous/next with the
position and total, and a batch mark. Every call is cold: an image is marked just before it (not timed), so the
totals the core remembers between unchanged calls are computed again, as in culling. Prompt searches rotate through
more different words than the core keeps (4), so each is looked up in FTS5 anew; "a word in most prompts" types
\`pho\`, \`phot\`, \`photo\`, \`prod\`, \`produ\`, \`product\`, \`on\`, \`light\` (56–80 % of the prompts each). A deep page is page 101 of 200 (no filter, rejects hidden) or page
41–61 of the filtered ones.

A prompt search of up to 2,500 matching turns keeps its images in the gallery's order; one that matches most prompts
keeps only the matching turns' seqs and counts by turns: with marks only (any marks), from each turn's stats (migration
0600: its images' count, newest times and mark cells, one row per turn in session order); with a model or purpose, that
model's or purpose's turns from their own index (migration 0500). Only a date range, or a model or purpose with a finer
mark than "not rejected", together with such a search still count image by image (80,000 here).

| query | p50 ms | p95 ms | p95 of each run | p95 < ${TARGET_P95_MS} ms |
|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.p50.toFixed(1)} | **${r.p95.toFixed(1)}** | ${r.spread} | ${r.p95 < TARGET_P95_MS ? '✔' : '✘'} |`).join('\n')}

| write (through the same dispatch, cold) | p50 ms | p95 ms | p95 of each run |
|---|---|---|---|
${writeRows.map((r) => `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.spread} |`).join('\n')}

| one-off | time |
|---|---|
| seeding ${seeded.images.toLocaleString('en-US')} images through LibraryRepo (one transaction; search indexes, titles, stats triggers, marks, boards) | ${(seedMs / 1000).toFixed(1)} s |
| migrations 0300–0600 on a ${(SESSIONS * TURNS_PER_SESSION * 4).toLocaleString('en-US')}-image library of the schema before them (columns, indexes, FTS5 fill, titles, session and turn stats) | ${(migration / 1000).toFixed(2)} s |
${missed.length > 0 ? `\nOver the target: ${missed.map((r) => `${r.name} (${r.p95.toFixed(1)} ms)`).join('; ')}.\n` : ''}`,
    );
    if (missed.length > 0) {
      console.error(`library bench: p95 over ${TARGET_P95_MS} ms for ${missed.map((r) => r.name).join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
