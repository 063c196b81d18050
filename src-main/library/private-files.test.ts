// Data folders made by earlier versions (0755, files 0644) are narrowed to the owner at start, on real files; a
// new backup is owner-only from its first byte (docs/main-process.md "Recovery of local data").
import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLibraryDatabase } from './database.ts';
import { narrowDataFolder } from './private-files.ts';
import { backupLibrary } from './recovery.ts';

const posix = process.platform !== 'win32';
const modeOf = (path: string): number => statSync(path).mode & 0o777;

/** A data folder as an earlier version left it: everything readable by all. */
function oldDataFolder(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-modes-'));
  for (const dir of ['backups', 'logs', 'cache', 'cache/full', 'local-service']) mkdirSync(join(dataDir, dir), { recursive: true });
  for (const file of ['settings.json', 'settings.json.bak', 'sends.jsonl', 'library.db.damaged-2026-11-20T090000Z', 'backups/library-2026-11-20T090000Z.db', 'logs/main.log', 'cache/full/img_1.png']) {
    writeFileSync(join(dataDir, file), 'x');
    chmodSync(join(dataDir, file), 0o644);
  }
  for (const dir of ['', 'backups', 'logs', 'cache', 'cache/full', 'local-service']) chmodSync(join(dataDir, dir), 0o755);
  return dataDir;
}

describe.runIf(posix)('owner-only data', () => {
  it('narrows an old data folder, its files and folders, and the files of backups/ and logs/', () => {
    const dataDir = oldDataFolder();
    narrowDataFolder(dataDir);
    for (const dir of ['', 'backups', 'logs', 'cache', 'local-service']) expect([dir, modeOf(join(dataDir, dir))]).toEqual([dir, 0o700]);
    for (const file of ['settings.json', 'settings.json.bak', 'sends.jsonl', 'library.db.damaged-2026-11-20T090000Z', 'backups/library-2026-11-20T090000Z.db', 'logs/main.log']) {
      expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    }
    // The cache is not walked image by image: its folder is closed to others already.
    expect(modeOf(join(dataDir, 'cache/full/img_1.png'))).toBe(0o644);
  });

  it('keeps a file the owner made read-only as it is (only group and others lose access)', () => {
    const dataDir = oldDataFolder();
    chmodSync(join(dataDir, 'settings.json.bak'), 0o444);
    narrowDataFolder(dataDir);
    expect(modeOf(join(dataDir, 'settings.json.bak'))).toBe(0o400);
  });

  it('writes each new backup owner-only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-modes-'));
    const db = openLibraryDatabase(join(dataDir, 'library.db'));
    const file = await backupLibrary(db, dataDir, new Date('2026-11-20T09:00:00Z'));
    db.close();
    expect(modeOf(file as string)).toBe(0o600);
    expect(modeOf(join(dataDir, 'backups'))).toBe(0o700);
  });
});
