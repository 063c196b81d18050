// Downloads (spec §4.2, DESIGN.md §3 "Files"): GET /api/file answers 302 to a direct link signed over the
// file name and `expires`, valid one hour by the service clock; the direct link needs no key.
import { stat } from 'node:fs/promises';
import type { ServiceDeps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { createImagesRepo } from '../repos/images.ts';

export const DIRECT_LINK_TTL_S = 3600;

export type DirectLinkCheck =
  | { ok: true; path: string; size: number }
  | { ok: false; status: 403 | 404; why: 'expired' | 'bad_signature' | 'missing' };

export function createFileService(deps: Pick<ServiceDeps, 'db' | 'clock' | 'files'>) {
  const images = createImagesRepo(deps.db);
  return {
    /**
     * The path and query of the direct link for a caller's file; 404 for unknown or another account's. `expired`
     * (a fault scenario's expired_link) signs a link whose hour is already over.
     */
    directLink(accountId: string, filename: string, options: { expired?: boolean } = {}): string {
      const image = images.findByFilename(filename);
      if (!image || image.account_id !== accountId || image.deleted_at !== null) fail('not_found', { what: filename });
      const expires = deps.clock.nowSeconds() + (options.expired ? -1 : DIRECT_LINK_TTL_S);
      return `/direct/${filename}?expires=${expires}&sig=${deps.files.sign(filename, expires)}`;
    },
    async checkDirect(filename: string, expiresText: string | undefined, sig: string | undefined): Promise<DirectLinkCheck> {
      const expires = Number(expiresText);
      if (!expiresText || !/^\d{1,12}$/.test(expiresText) || !sig || !deps.files.verify(filename, expires, sig)) {
        return { ok: false, status: 403, why: 'bad_signature' };
      }
      if (expires < deps.clock.nowSeconds()) return { ok: false, status: 403, why: 'expired' };
      const image = images.findByFilename(filename);
      if (!image || image.deleted_at !== null) return { ok: false, status: 404, why: 'missing' };
      try {
        const path = deps.files.pathFor(filename);
        return { ok: true, path, size: (await stat(path)).size };
      } catch {
        return { ok: false, status: 404, why: 'missing' };
      }
    },
  };
}
