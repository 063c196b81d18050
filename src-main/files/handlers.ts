// IPC handlers of an image's file (src-shared/ipc/library.ts `files:*`): save a copy of the full PNG where the
// user chooses, or drag images out of the app. Only a downloaded image has a file.
import { copyFile } from 'node:fs/promises';
import type { Language } from '../../src-shared/language.ts';
import { StudioError } from '../domain/errors.ts';
import type { LibraryRepo } from '../library/index.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import { existingCachePath, type CacheDirs } from './image-cache.ts';

export type FileMethods = 'filesExport' | 'filesStartDrag';

export interface FileHandlerDeps {
  repo: Pick<LibraryRepo, 'getImage'>;
  dirs: CacheDirs;
  shell: Pick<DesktopShell, 'showSaveDialog' | 'startDrag'>;
  language: () => Language;
}

const notFound = (imageId: string): never => {
  throw new StudioError('not_found', { what: 'image', id: imageId });
};

export function createFileHandlers({ repo, dirs, shell, language }: FileHandlerDeps): HandlerTable<FileMethods> {
  /** The downloaded full-size file of an image; an image still downloading cannot be saved or dragged yet. */
  const fullPath = (imageId: string): string => {
    const image = repo.getImage(imageId) ?? notFound(imageId);
    const file = image.download === 'done' ? existingCachePath(dirs, 'full', image.id) : null;
    if (!file) throw new StudioError('file_not_ready', { imageId });
    return file;
  };
  return {
    filesExport: async ({ imageId }) => {
      const file = fullPath(imageId);
      const image = repo.getImage(imageId);
      const target = await shell.showSaveDialog({
        title: language() === 'en' ? 'Export image' : '导出图片',
        defaultPath: image?.filename ?? `${imageId}.png`,
        filters: [{ name: 'PNG', extensions: ['png'] }],
      });
      if (!target) return { path: null };
      await copyFile(file, target);
      return { path: target };
    },
    filesStartDrag: async ({ imageIds }) => {
      const files = imageIds.map(fullPath);
      const icon = existingCachePath(dirs, 'thumb', imageIds[0] as string) ?? (files[0] as string);
      shell.startDrag(files, icon);
      return { started: true };
    },
  };
}
