// Checks for image requests of the app's one file protocol (DESIGN.md §2 rule 5), shared by the Electron
// `studio-image://` handler and the harness's `/studio-image/` route. Runtime-free apart from node:fs/path.
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ImageKind } from '../../src-shared/ipc/index.ts';
import { SHEET_MOST, sheetImageIds } from '../../src-shared/image-sheet.ts';

const IMAGE_KINDS: readonly ImageKind[] = ['thumb', 'full'];
const IMAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A request for a thumbnail sheet (kind `sheet`, its id the images' ids joined by dots): the ids, or null when it
 *  is not one (thumbnail-sheet.ts). */
export function parseSheetRequest(kind: string, id: string): string[] | null {
  if (kind !== 'sheet') return null;
  const ids = sheetImageIds(id);
  return ids.length >= 1 && ids.length <= SHEET_MOST && ids.every((one) => IMAGE_ID.test(one)) ? ids : null;
}

/** A sheet's answer headers: a sheet of images all on disk never changes (image ids are never reused), so the page
 *  keeps it and a row scrolled back to shows at once; one with a blank tile is asked for again. */
export function sheetHeaders(sheet: { bytes: Buffer; complete: boolean }): Record<string, string> {
  return {
    'content-type': 'image/webp',
    'content-length': String(sheet.bytes.length),
    'cache-control': sheet.complete ? 'private, max-age=86400, immutable' : 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

/** What a refused image request is told, by the protocol and by the harness route alike. */
export const BAD_IMAGE_REQUEST = `Bad image request: the kind is thumb or full and the id an image id, or the kind is sheet and the id 1 to ${SHEET_MOST} image ids joined by dots.`;

/** The (kind, id) of a request, or null when either is not one the app could have made. */
export function parseImageRequest(kind: string, id: string): { kind: ImageKind; id: string } | null {
  if (!(IMAGE_KINDS as readonly string[]).includes(kind)) return null;
  if (!IMAGE_ID.test(id)) return null;
  return { kind: kind as ImageKind, id };
}

/**
 * The real path of `file` when it lies inside `root` (after resolving symlinks), else null: the core
 * answers with paths into its cache, and a path anywhere else is never served.
 */
export async function fileInside(root: string, file: string): Promise<string | null> {
  try {
    const [realRoot, realFile] = await Promise.all([realpath(resolve(root)), realpath(resolve(file))]);
    const rel = relative(realRoot, realFile);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
    return realFile;
  } catch {
    return null;
  }
}

export function imageContentType(path: string): string {
  if (path.endsWith('.png')) return 'image/png';
  if (path.endsWith('.webp')) return 'image/webp';
  if (path.endsWith('.jpg') || path.endsWith('.jpeg')) return 'image/jpeg';
  return 'application/octet-stream';
}
