// Image clean-up (DELETE /admin/images/:id): the file goes and the image can no longer be a reference
// (spec §4.1 rule 4, DESIGN.md §4).
import { rm } from 'node:fs/promises';
import type { ServiceDeps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { createImagesRepo } from '../repos/images.ts';

export function createImageService(deps: Pick<ServiceDeps, 'db' | 'clock' | 'files'>) {
  const images = createImagesRepo(deps.db);
  return {
    async cleanUp(id: string): Promise<void> {
      const row = images.findById(id);
      if (!row || row.deleted_at !== null) fail('not_found', { what: `image ${id}`, what_zh: `图片 ${id}` });
      images.markDeleted(id, deps.clock.now());
      await rm(deps.files.pathFor(row.filename), { force: true });
    },
  };
}
