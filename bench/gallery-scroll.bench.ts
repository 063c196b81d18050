// The renderer half of "Library at scale" (docs/benchmarks.md "Gallery and library view at scale"): 100,000 images
// in 5,000 sessions seeded through the app's write path (bench/library-seed.ts, as bench/library.bench.ts does),
// each image with a real WebP thumbnail in the cache (made by the downloader's own makeThumbnail from a few hundred
// distinct generated 896×1200 PNGs, then hard-linked per image id), served by the real browser harness
// (scripts/harness.ts: built renderer + real main-process handlers) and driven in Debian Chromium at 1440×900 with
// real scrollbars. Measured per run (a fresh browser context each; STARTUPS more start-ups for the first thumbnails alone): time to the first thumbnails, then the side
// gallery and the library view scrolled one step per animation frame for ~10 s each (steady, then a fling deep into
// the library so pages keep loading), sampling every frame: gallery tiles in the DOM, JS heap, and (from a Chromium
// trace) the renderer main thread's work per frame. Medians of RUNS runs; a missed target fails the bench.
// The browser-side functions type the few DOM globals they use themselves (this tsconfig has no DOM lib).
import { chromium, type Browser, type Page } from '@playwright/test';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from '../e2e/fixtures/harness.ts';
import { cacheDirs, cachePath } from '../src-main/files/image-cache.ts';
import { openLibraryDatabase } from '../src-main/library/database.ts';
import { seedLibrary, type SeededLibrary } from './library-seed.ts';
import { machineLine, median, SCROLL_PX_S, writeSection } from './report.ts';
import { thumbnailPool } from './thumbnail-pool.ts';
import { frameTimesFromTrace } from './trace-frames.ts';
import { SETTLE_MS, startSettlePage, startUp, WINDOW_LIKE_ARG } from './window-startup.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// First thumbnails vary by ±100 ms from one start-up to the next on this shared machine: besides each run's own,
// STARTUPS more start-ups (a fresh context each, nothing else measured) make the median.
const STARTUPS = Number(process.env.BENCH_STARTUPS ?? 12);
const SESSIONS = 5000;
const TURNS_PER_SESSION = 5; // × 4 images = 100,000
const DISTINCT_THUMBS = 256;
const FIRST_THUMBS = 12;
const PASS_MS = 10_000;
// Scroll speeds (report.ts SCROLL_PX_S): STEADY is a brisk wheel scroll (a dozen 100 px notches a second) and holds
// the frame-time target; FAST (= the 120 px a frame at 60 fps measured until 2026-11-22) skims 40 rows a second and is
// reported, not held to it.
const STEADY_PX_S = SCROLL_PX_S.steady;
const FAST_PX_S = SCROLL_PX_S.fast;
const TARGETS = { domImages: 300, heapMb: 150, p95FrameMs: 8, firstThumbsMs: 500 };
// ---------- seeding ----------

interface Seeded {
  library: SeededLibrary;
  seedMs: number;
  thumbsMs: number;
  thumbBytes: number;
}

async function seed(dataDir: string): Promise<Seeded> {
  const file = join(dataDir, 'library.db');
  const db = openLibraryDatabase(file);
  const started = performance.now();
  // All images are marked download 'done' by the seed (as after the downloader), so tiles ask for thumbnails.
  const library = seedLibrary(db, { sessions: SESSIONS, turnsPerSession: TURNS_PER_SESSION, boards: 50 });
  const seedMs = performance.now() - started;
  const ids = (db.prepare("SELECT id FROM images WHERE download = 'done'").all() as Array<{ id: string }>).map((r) => r.id);
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
  if (ids.length !== library.images) throw new Error(`expected ${library.images} downloaded images, found ${ids.length}`);

  const thumbsStarted = performance.now();
  const pool = await thumbnailPool(join(dataDir, 'bench-thumb-pool'), DISTINCT_THUMBS);
  const dirs = cacheDirs(dataDir);
  mkdirSync(dirs.thumb, { recursive: true });
  ids.forEach((imageId, k) => {
    const target = cachePath(dirs, 'thumb', imageId);
    if (!target) throw new Error(`unsafe id ${imageId}`);
    // Neighbouring images get different pictures (k mod a prime-ish stride), so a row is never one image repeated.
    linkSync(pool.files[(k * 7) % pool.files.length] as string, target);
  });
  const thumbsMs = performance.now() - thumbsStarted;
  const count = readdirSync(dirs.thumb).length;
  if (count !== ids.length) throw new Error(`expected ${ids.length} thumbnails, found ${count}`);
  return { library, seedMs, thumbsMs, thumbBytes: pool.meanBytes };
}

// ---------- frame times from a trace ----------

interface FrameStats {
  frames: number;
  cpu: { p50: number; p95: number; max: number };
  wall: { p50: number; p95: number; max: number };
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;
}

/** Main-thread time per frame (bench/trace-frames.ts: what it counts and why), p50/p95/max. */
function framesFromTrace(buffer: Buffer): FrameStats {
  const { wall, cpu } = frameTimesFromTrace(buffer);
  const stats = (xs: number[]) => ({ p50: pct(xs, 0.5), p95: pct(xs, 0.95), max: Math.max(0, ...xs) });
  return { frames: wall.length, cpu: stats(cpu), wall: stats(wall) };
}

// ---------- in the page ----------

interface PassSample {
  frames: number;
  maxImages: number;
  maxHeapBytes: number;
  p95IntervalMs: number;
  scrolledPx: number;
  /** Images loaded into the grid at the end (data-image-count). */
  loaded: number;
  /** The position in the loaded order of the last tile in the DOM at the end (how deep the pass got). */
  deepestIndex: number;
}

interface PassResult extends PassSample {
  trace: FrameStats;
}

/** Scroll `scope`'s gallery at `speed` px/s for `ms`, moving it in every animation frame and sampling there. */
function scrollPass(page: Page, scope: string, speed: number, ms: number): Promise<PassSample> {
  return page.evaluate(
    async ({ scope, speed, ms }) => {
      interface El {
        scrollTop: number;
        getAttribute(name: string): string | null;
      }
      const w = globalThis as unknown as {
        document: { querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El> };
        requestAnimationFrame(cb: (t: number) => void): void;
        performance: { now(): number; memory?: { usedJSHeapSize: number } };
      };
      const el = w.document.querySelector(`${scope} [data-testid="gallery"]`);
      if (!el) throw new Error(`no gallery in ${scope}`);
      const intervals: number[] = [];
      let maxImages = 0;
      let maxHeap = 0;
      let frames = 0;
      let last = 0;
      const startTop = el.scrollTop;
      const began = w.performance.now();
      await new Promise<void>((resolve) => {
        const end = began + ms;
        const frame = (t: number) => {
          frames++;
          if (last) intervals.push(t - last);
          last = t;
          // The DOM count of the whole document (side gallery and library view together).
          maxImages = Math.max(maxImages, w.document.querySelectorAll('[data-testid="gallery-image"]').length);
          maxHeap = Math.max(maxHeap, w.performance.memory?.usedJSHeapSize ?? 0);
          el.scrollTop = startTop + Math.round((speed * (w.performance.now() - began)) / 1000);
          if (w.performance.now() < end) w.requestAnimationFrame(frame);
          else resolve();
        };
        w.requestAnimationFrame(frame);
      });
      const sorted = [...intervals].sort((a, b) => a - b);
      const tiles = [...w.document.querySelectorAll(`${scope} [data-testid="gallery-image"]`)];
      const lastId = tiles.at(-1)?.getAttribute('data-image-id') ?? '';
      return {
        frames,
        maxImages,
        maxHeapBytes: maxHeap,
        p95IntervalMs: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
        scrolledPx: el.scrollTop - startTop,
        loaded: Number(el.getAttribute('data-image-count') ?? 0),
        // Seeded ids are img_ + base-36 number in gallery order from the newest: converted by the caller.
        deepestIndex: lastId ? parseInt(lastId.slice(4), 36) : -1,
      };
    },
    { scope, speed, ms },
  );
}

/**
 * performance.now() when `count` tiles of `scope`'s gallery are in the DOM (`tiles`), and when `count` of their
 * thumbnails have loaded and decoded (`thumbs`: complete, naturalWidth > 0), both checked every animation frame.
 */
async function thumbsReadyAt(page: Page, scope: string, count: number): Promise<{ tiles: number; thumbs: number }> {
  const handle = await page.waitForFunction(
    ({ scope, count }) => {
      interface Img {
        complete: boolean;
        naturalWidth: number;
      }
      const w = globalThis as unknown as {
        document: { querySelectorAll(s: string): ArrayLike<Img> & Iterable<Img> };
        performance: { now(): number };
        benchTilesAt?: Record<string, number>;
      };
      const tiles = w.document.querySelectorAll(`${scope} [data-testid="gallery"] [data-testid="gallery-image"]`).length;
      w.benchTilesAt ??= {};
      if (tiles >= count) w.benchTilesAt[scope] ??= w.performance.now();
      const imgs = [...w.document.querySelectorAll(`${scope} [data-testid="gallery"] [data-testid="gallery-image"] img`)];
      const done = imgs.filter((img) => img.complete && img.naturalWidth > 0).length;
      return done >= count ? { tiles: w.benchTilesAt[scope] ?? w.performance.now(), thumbs: w.performance.now() } : false;
    },
    { scope, count },
    { timeout: 120_000, polling: 'raf' },
  );
  return (await handle.jsonValue()) as { tiles: number; thumbs: number };
}

async function tracedPass(browser: Browser, page: Page, scope: string, speed: number): Promise<PassResult> {
  await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const sample = await scrollPass(page, scope, speed, PASS_MS);
  const trace = framesFromTrace(await browser.stopTracing());
  return { ...sample, trace };
}

interface RunResult {
  firstTilesMs: number;
  firstThumbsMs: number;
  libraryThumbsMs: number;
  side: PassResult;
  steady: PassResult;
  fling: PassResult;
  heapAfterGcMb: number;
}

/** First thumbnails: FIRST_THUMBS gallery thumbnails loaded and decoded in the studio's side gallery, where the app opens. */
const sideGalleryThumbs = (page: Page) => thumbsReadyAt(page, '[data-testid="gallery-panel"]', FIRST_THUMBS);

async function oneRun(browser: Browser, url: string, settleUrl: string, total: number): Promise<RunResult> {
  const { context, page, first } = await startUp(browser, url, settleUrl, sideGalleryThumbs);
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.waitForTimeout(500);
    const side = await tracedPass(browser, page, '[data-testid="gallery-panel"]', STEADY_PX_S);

    // The library view: click to FIRST_THUMBS thumbnails, then a steady pass and a fling further down.
    const clickedAt = await page.evaluate(() => (globalThis as unknown as { performance: { now(): number } }).performance.now());
    await page.getByTestId('open-library').click();
    const libraryThumbsMs = (await thumbsReadyAt(page, '[data-testid="library-view"]', FIRST_THUMBS)).thumbs - clickedAt;
    await page.waitForTimeout(500);
    const steady = await tracedPass(browser, page, '[data-testid="library-view"]', STEADY_PX_S);
    const fling = await tracedPass(browser, page, '[data-testid="library-view"]', FAST_PX_S);
    await cdp.send('HeapProfiler.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const metrics = await cdp.send('Performance.getMetrics');
    const heapAfterGc = metrics.metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    // Seeded image numbers grow with time and the gallery shows the newest first: depth = total - 1 - number.
    for (const p of [side, steady, fling]) if (p.deepestIndex >= 0) p.deepestIndex = total - 1 - p.deepestIndex;
    return { firstTilesMs: first.tiles, firstThumbsMs: first.thumbs, libraryThumbsMs, side, steady, fling, heapAfterGcMb: heapAfterGc / 2 ** 20 };
  } finally {
    await context.close();
  }
}

// ---------- main ----------

// BENCH_GALLERY_DATA=<folder> keeps the seeded library there and reuses it on the next run (seeding takes ~2 min),
// for iterating on the renderer; without it every run seeds a fresh temporary folder and removes it.
const keptDir = process.env.BENCH_GALLERY_DATA;
const dataDir = keptDir ?? mkdtempSync(join(tmpdir(), 'studio-bench-gallery-scroll-'));
const seededMarker = join(dataDir, 'bench-seeded.json');
let seeded: Seeded | undefined;
const runs: RunResult[] = [];
const startUps: Array<{ tiles: number; thumbs: number }> = [];
try {
  if (keptDir && existsSync(seededMarker)) {
    seeded = JSON.parse(readFileSync(seededMarker, 'utf8')) as Seeded;
    console.log(`reusing the library seeded in ${dataDir}`);
  } else {
    if (keptDir) mkdirSync(keptDir, { recursive: true });
    seeded = await seed(dataDir);
    if (keptDir) writeFileSync(seededMarker, JSON.stringify(seeded));
  }
  console.log(
    `seeded ${seeded.library.images} images in ${seeded.library.sessions} sessions in ${(seeded.seedMs / 1000).toFixed(1)} s; ${DISTINCT_THUMBS} thumbnails made and linked in ${(seeded.thumbsMs / 1000).toFixed(1)} s (mean ${(seeded.thumbBytes / 1024).toFixed(1)} KiB)`,
  );
  const started = await startHarness({ dataDir });
  const settle = await startSettlePage(started.harness.url);
  const browser = await chromium.launch({
    executablePath: process.env.STUDIO_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--enable-precise-memory-info', WINDOW_LIKE_ARG],
    // Real scrollbars, as in the app (Playwright hides them by default).
    ignoreDefaultArgs: ['--hide-scrollbars'],
  });
  try {
    for (let i = 0; i < STARTUPS; i++) {
      const { context, first } = await startUp(browser, started.harness.url, settle.url, sideGalleryThumbs);
      await context.close();
      startUps.push(first);
      console.log(`start-up ${i + 1}: first tiles ${first.tiles.toFixed(0)} ms, first thumbnails ${first.thumbs.toFixed(0)} ms`);
    }
    for (let i = 0; i < RUNS; i++) {
      const r = await oneRun(browser, started.harness.url, settle.url, seeded.library.images);
      runs.push(r);
      const brief = (p: PassResult) =>
        `frames ${p.frames} (traced ${p.trace.frames}), DOM max ${p.maxImages}, heap max ${(p.maxHeapBytes / 2 ** 20).toFixed(1)} MB, CPU/frame p50 ${p.trace.cpu.p50.toFixed(1)} p95 ${p.trace.cpu.p95.toFixed(1)} max ${p.trace.cpu.max.toFixed(1)} ms, wall p95 ${p.trace.wall.p95.toFixed(1)} ms, rAF interval p95 ${p.p95IntervalMs.toFixed(1)} ms, scrolled ${p.scrolledPx} px, loaded ${p.loaded}, deepest #${p.deepestIndex}`;
      console.log(`run ${i + 1}: first tiles ${r.firstTilesMs.toFixed(0)} ms, first thumbnails ${r.firstThumbsMs.toFixed(0)} ms, library thumbnails ${r.libraryThumbsMs.toFixed(0)} ms, heap after GC ${r.heapAfterGcMb.toFixed(1)} MB`);
      console.log(`  side gallery steady: ${brief(r.side)}`);
      console.log(`  library steady:      ${brief(r.steady)}`);
      console.log(`  library fling:       ${brief(r.fling)}`);
    }
  } finally {
    await browser.close();
    await started.stop();
    settle.close();
  }
} finally {
  if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
}

if (!seeded || runs.length === 0) throw new Error('no runs');
const m = (pick: (r: RunResult) => number) => median(runs.map(pick));
const each = (pick: (r: RunResult) => number, digits = 1) => runs.map((r) => pick(r).toFixed(digits)).join(', ');
const ok = (pass: boolean) => (pass ? '✔' : '✘');
const fmt = (n: number) => n.toLocaleString('en-US');
// [name, pass, held to the frame-time target]
const passes: Array<[string, (r: RunResult) => PassResult, boolean]> = [
  [`side gallery (default tiles, 120 px high), steady ${fmt(STEADY_PX_S)} px/s`, (r) => r.side, true],
  [`library view (default tiles, 180 px), steady ${fmt(STEADY_PX_S)} px/s`, (r) => r.steady, true],
  [`library view, fast ${fmt(FAST_PX_S)} px/s (continuing deeper)`, (r) => r.fling, false],
];
// Every start-up counts: the dedicated ones and each run's own.
const allFirst = [...startUps, ...runs.map((r) => ({ tiles: r.firstTilesMs, thumbs: r.firstThumbsMs }))];
const first = median(allFirst.map((f) => f.thumbs));
const firstTiles = median(allFirst.map((f) => f.tiles));
const allFirstList = (pick: (f: { tiles: number; thumbs: number }) => number) =>
  allFirst
    .map(pick)
    .sort((a, b) => a - b)
    .map((x) => x.toFixed(0))
    .join(', ');
const maxDom = Math.max(...passes.map(([, p]) => m((r) => p(r).maxImages)));
const maxHeap = Math.max(...passes.map(([, p]) => m((r) => p(r).maxHeapBytes))) / 2 ** 20;
const worstP95 = Math.max(...passes.filter(([, , held]) => held).map(([, p]) => m((r) => p(r).trace.cpu.p95)));
const fastP95 = Math.max(...passes.filter(([, , held]) => !held).map(([, p]) => m((r) => p(r).trace.cpu.p95)));
const missed: string[] = [];
if (first >= TARGETS.firstThumbsMs) missed.push(`first thumbnails ${first.toFixed(0)} ms`);
if (maxDom > TARGETS.domImages) missed.push(`${maxDom} images in the DOM`);
if (maxHeap >= TARGETS.heapMb) missed.push(`JS heap ${maxHeap.toFixed(1)} MB`);
if (worstP95 >= TARGETS.p95FrameMs) missed.push(`p95 main-thread CPU per frame ${worstP95.toFixed(1)} ms`);

const passRows = passes.flatMap(([name, p, held]) => [
  `| ${name}: gallery images in the DOM (max over all frames) | **${m((r) => p(r).maxImages)}** | ${each((r) => p(r).maxImages, 0)} | ≤ ${TARGETS.domImages} ${ok(m((r) => p(r).maxImages) <= TARGETS.domImages)} |`,
  `| ${name}: JS heap used (max over all frames) | **${(m((r) => p(r).maxHeapBytes) / 2 ** 20).toFixed(1)} MB** | ${each((r) => p(r).maxHeapBytes / 2 ** 20)} | < ${TARGETS.heapMb} MB ${ok(m((r) => p(r).maxHeapBytes) / 2 ** 20 < TARGETS.heapMb)} |`,
  `| ${name}: main-thread CPU per frame p50 / **p95** / max | ${m((r) => p(r).trace.cpu.p50).toFixed(1)} / **${m((r) => p(r).trace.cpu.p95).toFixed(1)}** / ${m((r) => p(r).trace.cpu.max).toFixed(1)} ms | p95: ${each((r) => p(r).trace.cpu.p95)} | ${held ? `p95 < ${TARGETS.p95FrameMs} ms ${ok(m((r) => p(r).trace.cpu.p95) < TARGETS.p95FrameMs)}` : '(reported: see below)'} |`,
  `| ${name}: the same as wall time p50 / p95 / max | ${m((r) => p(r).trace.wall.p50).toFixed(1)} / ${m((r) => p(r).trace.wall.p95).toFixed(1)} / ${m((r) => p(r).trace.wall.max).toFixed(1)} ms | p95: ${each((r) => p(r).trace.wall.p95)} | (shared machine) |`,
  `| ${name}: frames, p95 interval between frames | ${m((r) => p(r).frames).toFixed(0)} frames, ${m((r) => p(r).p95IntervalMs).toFixed(1)} ms | ${each((r) => p(r).p95IntervalMs)} | |`,
  `| ${name}: scrolled, images loaded, deepest image in the DOM at the end | ${(m((r) => p(r).scrolledPx) / 1000).toFixed(0)}k px, ${m((r) => p(r).loaded).toLocaleString('en-US')} loaded, #${m((r) => p(r).deepestIndex).toLocaleString('en-US')} | deepest: ${each((r) => p(r).deepestIndex, 0)} | |`,
]);
const load = loadavg().map((x) => x.toFixed(1)).join(' / ');
writeSection(
  'gallery-scroll',
  `## Gallery and library view at scale (renderer)

Machine: ${machineLine()}; Debian Chromium (headless, software rendering, \`--disable-gpu\`), 1440×900, real
scrollbars; load average when the runs ended: ${load} (2 cores shared by the harness, the bundled service and the browser).
Command: \`npm run bench -- gallery-scroll\` (bench/gallery-scroll.bench.ts; ${startUps.length} start-ups and ${runs.length} runs, each in a fresh browser context; medians, then each run's figure).

**Library.** ${seeded.library.images.toLocaleString('en-US')} images in ${seeded.library.sessions.toLocaleString('en-US')} sessions seeded into a fresh data folder through the app's
write path (bench/library-seed.ts, the same library as "Library at scale (main process)": realistic prompts, marks,
${seeded.library.boardIds.length} boards; ${(seeded.seedMs / 1000).toFixed(1)} s), every image with download state \`done\`, as after the downloader.
**Thumbnails:** the seeded images have no files, so ${DISTINCT_THUMBS} distinct 896×1200 pictures (gradients, a
"product", shadow, caption) were generated and turned into thumbnails by the downloader's own \`makeThumbnail\` (512 px
long side, WebP q82, mean ${(seeded.thumbBytes / 1024).toFixed(1)} KiB), and each image's \`cache/thumb/<id>.webp\` is a
hard link to one of them (neighbours differ; ${(seeded.thumbsMs / 1000).toFixed(1)} s). So every tile loads a real file through the app's image
protocol and decodes it; the OS page cache holds only ${DISTINCT_THUMBS} distinct files, and Chromium's memory cache
sees ${seeded.library.images.toLocaleString('en-US')} distinct URLs — disk reads are cheaper than with 100,000 distinct files, decoding is not.
The real browser harness (scripts/harness.ts: built renderer, real main-process handlers) serves it.

**Method.** *First thumbnails*: from navigation start (the document's \`performance.now()\` origin) until ${FIRST_THUMBS} thumbnail
\`<img>\`s of the side gallery (where the app opens) are complete with \`naturalWidth > 0\`, checked every animation frame.
Start-up runs as in the app's window: one renderer process, started by the navigation, with nothing else starting
beside it. Chromium runs without its *spare renderer* (a process started ahead for the next navigation; Electron
turns it off), and each run first opens its page on a blank page of another site (\`localhost\`; the harness is on
\`127.0.0.1\`) and lets Playwright's page processes finish starting (${SETTLE_MS / 1000} s) before it navigates to the app; after
measuring, it checks (CDP \`SystemInfo.getProcessInfo\`, a busy loop in the page) that the app's renderer process was
not running before the navigation, so its start-up is in the figure. (Until 2026-11-23 the bench navigated a new page
at once: two renderer start-ups, Playwright's and the app's, then shared the 2 cores with the load, ~250 ms more; see
docs/decisions.md "Start-up".)
*Library thumbnails*: the same from the click on \`open-library\`. *Scrolling*: for ${PASS_MS / 1000} s the gallery's \`scrollTop\` is
set in every animation frame to where a scroll at a fixed speed has reached by then (px per second of the page's
clock, so a slow machine draws fewer frames of the same scroll): the side gallery at ${fmt(STEADY_PX_S)} px/s (a brisk wheel
scroll; Chromium's own scrolling benchmarks default to 800 px/s), then the library view at ${fmt(STEADY_PX_S)} px/s, then fast at
${fmt(FAST_PX_S)} px/s continuing deeper (40 rows a second: skimming, not judging), so gallery pages (25 sessions each) keep
loading as the end comes into view. The frame-time target is held by the steady passes; the fast pass is reported
(docs/decisions.md "Gallery scrolling"). Every frame samples the number of \`[data-testid="gallery-image"]\` in
the whole document and \`performance.memory.usedJSHeapSize\` (\`--enable-precise-memory-info\`); the maxima are reported.
*Main-thread time per frame*: from a Chromium trace of each pass (bench/trace-frames.ts), a frame is the renderer
main thread's top-level task that runs its animation frame (BeginMainFrame: the scroll event, rAF callbacks, style,
layout, paint) and every top-level task after it until the next frame's: everything the page's main thread did for
that frame (the scroll event, virtualiser and React renders, style, layout, paint, image callbacks, IPC answers
and new pages, GC). Given as thread CPU time (the target's measure: the work itself) and as wall time (also
waiting for a core on this shared machine). The heap after the passes and a forced GC is
${m((r) => r.heapAfterGcMb).toFixed(1)} MB (runs ${each((r) => r.heapAfterGcMb)}).

| measure | median | each run | target |
|---|---|---|---|
| first thumbnails: navigation → ${FIRST_THUMBS} decoded in the side gallery (median of ${allFirst.length} start-ups) | **${first.toFixed(0)} ms** | sorted: ${allFirstList((f) => f.thumbs)} | < ${TARGETS.firstThumbsMs} ms ${ok(first < TARGETS.firstThumbsMs)} |
| of which: navigation → ${FIRST_THUMBS} tiles in the DOM (app started, first gallery page answered and laid out) | ${firstTiles.toFixed(0)} ms | sorted: ${allFirstList((f) => f.tiles)} | |
| library view: click → ${FIRST_THUMBS} decoded thumbnails | ${m((r) => r.libraryThumbsMs).toFixed(0)} ms | ${each((r) => r.libraryThumbsMs, 0)} | |
${passRows.join('\n')}

${missed.length === 0 ? 'All targets met.' : `Missed: ${missed.join('; ')}.`}

Where the time goes (Chromium traces and V8 CPU profiles of the steady passes, 2026-11-23, same machine and
library; CPU). Most frames only move the composited scroller (p50 ~3 ms). The p95 frames are those where a row
enters (every ~5th frame at 1,200 px/s): React mounts the row's tiles in a task after the scroll event (~2.5 ms, of
which ~1–1.5 ms is Blink starting the ~7 image requests), then the next frame's scroll event reads \`scrollTop\`, which
forces style and layout of the new row (~1 ms), then paint (~2–3 ms; tiles without positioned boxes, tried,
measured no different), layerisation and pre-paint (~2 ms); each thumbnail's arrival costs the main thread ~0.4 ms more (response
body, image update). Fixed (each found in a trace): the whole document restyled whenever a session header mounted
(\`<html lang>\` re-set, ~10 ms), every row of a session moved when its first visible row changed, tiles ran i18next
while mounting, scrolling repainted the grid (software rendering does not composite a scroller by itself), and
(2026-11-23) every session or row entering laid out the whole document, the library's side bar included, 4–7 ms
each: the scroller was a flex item, which Blink never makes a relayout boundary; it now fills its wrap out of flow
(library p95 12.7 → 8.4 ms). Left: the fixed cost of a row, as above, several times what it is with GPU
rasterisation on 4+ cores; each run's p95 moves with the shared machine's load. Since
2026-11-23 the side gallery shows more rows (36 tiles in the DOM, 28 before): the panel's board strip no longer grows
with the library's 50 boards (docs/decisions.md), so figures of the side gallery before and after are not alike. First
thumbnails (per start-up in this set-up, 2026-11-23, before the build was minified and the start-up render made
single, ~100 ms less since; docs/decisions.md "Start-up"): the app's renderer has its HTML at
5–25 ms; the page asks main for the settings while it is parsed (~70–110 ms; the preload does the same in the app);
the bundle is fetched and evaluated by ~175–270 ms, 55–65 ms of it V8 compiling ~975 functions on first call
(react-dom is 55% of the bundle); the app renders once the settings are in; the first gallery page is in by ~190–290 ms
and its first 12 thumbnails by ~260–420 ms; React's first render (a transition, ~85 ms of CPU in slices) and commit
(~80 ms, ~40 of it the page's first layout, forced by the stage's and the grid's size reads), then the grid's tiles in
a second render once its width is known (~20 ms), end at ~440–620 ms: the main thread, not the network, is the
critical path, and over a start-up the renderer uses 350–540 ms of CPU, the browser process 170–240 and main (the
harness) 80–160, so the 2 cores are busy most of the time. Tried and measured no faster in interleaved A/B runs:
V8's eager-compile hint (\`//# allFunctionsCalledOnLoad\`) on the start-up chunks (main-thread compiling 55 → 10 ms, but
compiling everything ahead delays the evaluation as much), a smaller first gallery page, asking for the settings
before the gallery page, and (as an upper bound for fewer font look-ups) one font size and weight for the whole UI. Start-ups vary with the shared machine's load: ${Math.min(...allFirst.map((f) => f.thumbs)).toFixed(0)}–${Math.max(...allFirst.map((f) => f.thumbs)).toFixed(0)} ms in this run.`,
);
console.log(`first thumbnails ${first.toFixed(0)} ms; DOM max ${maxDom}; heap max ${maxHeap.toFixed(1)} MB; worst steady p95 CPU/frame ${worstP95.toFixed(1)} ms (fast pass: ${fastP95.toFixed(1)} ms)`);
if (missed.length > 0) {
  console.error(`gallery at scale: missed ${missed.join('; ')}`);
  process.exitCode = 1;
}
