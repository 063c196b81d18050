// Where generated PNGs live, and the signing of direct links (DESIGN.md §3 "Files": the signature covers
// the file name and `expires`). The HMAC secret is kept in the database so links survive a restart.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { isFilename } from '../src-shared/ids.ts';

export interface FileStore {
  /** Folder of the PNG files. */
  readonly dir: string;
  /** Absolute path of a generated file; throws on a name that is not <8 chars>.png. */
  pathFor(filename: string): string;
  sign(filename: string, expires: number): string;
  verify(filename: string, expires: number, sig: string): boolean;
}

export function createFileStore(dataDir: string, db: DatabaseSync): FileStore {
  const dir = join(dataDir, 'files');
  mkdirSync(dir, { recursive: true });
  let row = db.prepare("SELECT value FROM kv WHERE key = 'direct_link_secret'").get() as { value: string } | undefined;
  if (!row) {
    row = { value: randomBytes(32).toString('hex') };
    db.prepare("INSERT INTO kv (key, value) VALUES ('direct_link_secret', ?)").run(row.value);
  }
  const secret = Buffer.from(row.value, 'hex');
  const sign = (filename: string, expires: number): string =>
    createHmac('sha256', secret).update(`${filename}\n${expires}`).digest('hex');
  return {
    dir,
    pathFor(filename) {
      if (!isFilename(filename)) throw new Error(`not a generated file name: ${filename}`);
      return join(dir, filename);
    },
    sign,
    verify(filename, expires, sig) {
      if (!/^[0-9a-f]{64}$/.test(sig)) return false;
      return timingSafeEqual(Buffer.from(sign(filename, expires), 'hex'), Buffer.from(sig, 'hex'));
    },
  };
}
