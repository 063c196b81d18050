// Where downloaded images and thumbnails live, and the only way to map an image id to a file for the app's
// protocol (DESIGN.md §2 rule 5): ids are checked, and a path must resolve inside the cache folder.
import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { ImageKind } from '../../src-shared/ipc/index.ts';

export interface CacheDirs {
  root: string;
  full: string;
  thumb: string;
  tmp: string;
}

export function cacheDirs(dataDir: string): CacheDirs {
  const root = resolve(dataDir, 'cache');
  return { root, full: join(root, 'full'), thumb: join(root, 'thumb'), tmp: join(root, 'tmp') };
}

/** Service image ids (spec: img_<8>) and nothing that could walk a path. */
const IMAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function isSafeImageId(id: unknown): id is string {
  return typeof id === 'string' && IMAGE_ID.test(id);
}

/** The cache path of an image file, or null when the id is not one we would ever store. */
export function cachePath(dirs: CacheDirs, kind: ImageKind, id: string): string | null {
  if (!isSafeImageId(id)) return null;
  const folder = kind === 'thumb' ? dirs.thumb : dirs.full;
  const file = resolve(folder, kind === 'thumb' ? `${id}.webp` : `${id}.png`);
  return file.startsWith(folder + sep) ? file : null;
}

/** The file behind an app-protocol URL: only an existing file inside the cache. */
export function existingCachePath(dirs: CacheDirs, kind: ImageKind, id: string): string | null {
  const file = cachePath(dirs, kind, id);
  return file && existsSync(file) ? file : null;
}
