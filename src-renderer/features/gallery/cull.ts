// Culling marks (rating 1–5, reject, star) on one image or a selection, through library:mark. The gallery's
// cached pages are patched at once, so a designer marking 200 images in a row never waits for a round trip;
// main's answer (and its library:changed event) then brings the filtered truth.
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage } from '../../../src-shared/ipc/library.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const MARK_BATCH = 1000;

export interface Marks {
  starred?: boolean;
  rating?: number;
  rejected?: boolean;
}

function isGalleryData(data: unknown): data is InfiniteData<GalleryPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

function patchImages(client: QueryClient, ids: ReadonlySet<string>, patch: (image: ImageRecord) => ImageRecord): void {
  // Other queries live under the same prefix (the viewer's neighbours): only the gallery's pages are patched.
  client.setQueriesData<unknown>({ queryKey: queryKeys.galleries() }, (data: unknown) => {
    if (!isGalleryData(data)) return data;
    let changed = false;
    const pages = data.pages.map((page) => ({
      ...page,
      groups: page.groups.map((group) => {
        if (!group.images.some((im) => ids.has(im.id))) return group;
        changed = true;
        return { ...group, images: group.images.map((im) => (ids.has(im.id) ? patch(im) : im)) };
      }),
    }));
    return changed ? { ...data, pages } : data;
  });
}

export function useMark() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { imageIds: string[] } & Marks) => {
      // library:mark takes up to 1000 images a call; a larger selection (select all) goes in batches.
      const out: ImageRecord[] = [];
      for (let i = 0; i < input.imageIds.length; i += MARK_BATCH) {
        out.push(...(await call('libraryMark', { ...input, imageIds: input.imageIds.slice(i, i + MARK_BATCH) })));
      }
      return out;
    },
    onMutate: (input) => {
      const { imageIds, ...marks } = input;
      patchImages(client, new Set(imageIds), (im) => ({ ...im, ...marks }));
    },
    onSuccess: (records) => {
      const byId = new Map(records.map((r) => [r.id, r]));
      patchImages(client, new Set(byId.keys()), (im) => byId.get(im.id) ?? im);
      for (const record of records) void client.invalidateQueries({ queryKey: queryKeys.image(record.id) });
    },
    onError: () => void client.invalidateQueries({ queryKey: queryKeys.galleries() }),
  });
}

/** What a culling key does to its images; null when the key is not a culling key. */
export function marksForKey(key: string, images: ReadonlyArray<Pick<ImageRecord, 'rejected' | 'starred'>>): Marks | null {
  if (/^[0-5]$/.test(key)) return { rating: Number(key) };
  const k = key.toLowerCase();
  // Toggles: all marked already → unmark them all; otherwise mark them all.
  if (k === 'x') return { rejected: !images.every((im) => im.rejected) };
  if (k === 's' || k === 'f') return { starred: !images.every((im) => im.starred) };
  return null;
}
