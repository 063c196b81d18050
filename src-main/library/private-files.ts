// Owner-only data on macOS and Linux (issue 25 item 8): the data folder holds prompts, the library, its backups and
// the send journal. Files are created 0600 where they are written; a folder made by an earlier version (0755,
// files 0644) is narrowed at start. Once the data folder is 0700 nobody else can reach anything under it, so the
// image cache is not walked file by file (100,000 images would slow every start); its folders are narrowed.
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_FOLDER = 0o700;
export const PRIVATE_FILE = 0o600;

/** Sub-folders whose files are narrowed one by one too (a few files each). */
const SMALL_FOLDERS = ['backups', 'logs'];

/** Narrows the data folder, its files and folders, and the files of its small folders, to the owner. */
export function narrowDataFolder(dataDir: string): void {
  if (process.platform === 'win32') return;
  narrowFolder(dataDir);
  for (const name of SMALL_FOLDERS) {
    const dir = join(dataDir, name);
    if (isFolder(dir)) narrowFolder(dir);
  }
}

function narrowFolder(dir: string): void {
  narrow(dir, PRIVATE_FOLDER);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) narrow(join(dir, entry.name), PRIVATE_FILE);
    else if (entry.isDirectory()) narrow(join(dir, entry.name), PRIVATE_FOLDER);
  }
}

/** Takes away what `mode` does not allow (group and others), keeping the owner's own bits as they are. */
function narrow(path: string, mode: number): void {
  try {
    const current = statSync(path).mode & 0o777;
    if ((current & ~mode) !== 0) chmodSync(path, current & mode);
  } catch {
    // Gone meanwhile, or not ours to change: the start goes on (the file keeps the mode it had).
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
