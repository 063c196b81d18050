// Where generated PNGs live, and the signing of direct links (DESIGN.md §3 "Files": the signature covers
// the file name and `expires`). The HMAC secret is kept in the database so links survive a restart.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { isFilename } from '../src-shared/ids.ts';
import { createKvRepo } from './repos/kv.ts';

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
  const kv = createKvRepo(db);
  let saved = kv.get('direct_link_secret');
  if (saved === null) {
    saved = randomBytes(32).toString('hex');
    kv.put('direct_link_secret', saved);
  }
  const secret = Buffer.from(saved, 'hex');
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
