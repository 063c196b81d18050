// Library backup at scale (docs/benchmarks.md "Library backup"): a 100,000-image library (bench/library-seed.ts)
// backed up the way the app does it (src-main/library/recovery.ts backupLibrary: SQLite online backup in steps,
// then quick_check of the copy on a worker thread). What matters is how long main is blocked at a time while it
// runs (the event loop's longest delay, sampled every millisecond), beside the whole backup's time and size.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { BACKUP_PAGES_PER_STEP, backupLibrary } from '../src-main/library/recovery.ts';
import { openLibraryDatabase } from '../src-main/library/index.ts';
import { seedLibrary } from './library-seed.ts';
import { machineLine, writeSection } from './report.ts';

const SESSIONS = Number(process.env.BENCH_BACKUP_SESSIONS ?? 500);
const TURNS_PER_SESSION = 50; // 4 images a turn: 100,000 images at 500 sessions

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-bench-backup-'));
  try {
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const seeded = seedLibrary(db, { sessions: SESSIONS, turnsPerSession: TURNS_PER_SESSION, boards: 50 });
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    // The seed's garbage is collected first, so a collection it left owing is not counted as the backup's.
    (globalThis as { gc?: () => void }).gc?.();
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const file = await backupLibrary(db, dataDir, new Date());
    const totalMs = performance.now() - started;
    delay.disable();
    db.close();
    const longestMs = delay.max / 1e6;
    const mb = (statSync(file ?? '').size / 1024 / 1024).toFixed(1);
    console.log(`library backup, ${seeded.images} images (${mb} MB): longest block ${longestMs.toFixed(1)} ms, whole backup ${totalMs.toFixed(0)} ms`);
    writeSection(
      'library-backup',
      `## Library backup (main process)

Machine: ${machineLine()}.
Command: \`npm run bench -- library-backup\` (bench/library-backup.bench.ts). A library of ${seeded.images.toLocaleString('en-US')} images
(${mb} MB) backed up as the app does: SQLite's online backup, ${BACKUP_PAGES_PER_STEP} pages a step, then quick_check of the copy on a worker
thread before it counts. The budget is 50 ms of main blocked at a time. Run as \`node --expose-gc bench/library-backup.bench.ts\`
the seed's garbage is collected before the backup starts; without it (\`npm run bench\`) a collection it left owing can land
inside the backup (71 ms was seen once that way).

| measure | value |
|---|---|
| longest block of main (event-loop delay, 1 ms sampling) | **${longestMs.toFixed(1)} ms** |
| whole backup, quick_check included | ${totalMs.toFixed(0)} ms |`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
