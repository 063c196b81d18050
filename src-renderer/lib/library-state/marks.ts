// Culling marks (rating 1–5, 0 clears; reject; star) on one image or a selection, through library:mark: the one mark
// hook of the renderer (grid, viewer, compare, catalog board). What the designer sees changes at once: the cached
// gallery pages and image details are patched before main answers, then patched with main's records; the filtered
// truth (an image leaving a "hide rejects" view) comes with main's library:changed event (library-events.ts).
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage, ImageDetail } from '../../../src-shared/ipc/library.ts';
import { call } from '../desktop.ts';
import { queryKeys } from '../query-keys.ts';

export interface Marks {
  starred?: boolean;
  rating?: number;
  rejected?: boolean;
}

export type MarkInput = { imageIds: string[] } & Marks;

/** library:mark takes up to 1000 images a call; a larger selection (select all) goes in batches. */
export const MARK_BATCH = 1000;

/** What a culling key does to its images; null when the key is not a culling key. */
export function marksForKey(key: string, images: ReadonlyArray<Pick<ImageRecord, 'rejected' | 'starred'>>): Marks | null {
  if (/^[0-5]$/.test(key)) return { rating: Number(key) };
  const k = key.toLowerCase();
  // Toggles: all marked already → unmark them all; otherwise mark them all. F as well as S.
  if (k === 'x') return { rejected: !images.every((im) => im.rejected) };
  if (k === 's' || k === 'f') return { starred: !images.every((im) => im.starred) };
  return null;
}

function isGalleryData(data: unknown): data is InfiniteData<GalleryPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

/** Patches the images in every cached gallery page (the viewer's neighbours, under the same prefix, are left alone). */
function patchGalleryPages(client: QueryClient, ids: ReadonlySet<string>, patch: (image: ImageRecord) => ImageRecord): void {
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

function patchImageDetails(client: QueryClient, ids: Iterable<string>, patch: (image: ImageRecord) => ImageRecord): void {
  for (const id of ids) client.setQueryData<ImageDetail>(queryKeys.image(id), (d) => (d ? { ...d, image: patch(d.image) } : d));
}

/** Shows marks at once, before main answers. */
export function applyMarks(client: QueryClient, { imageIds, ...marks }: MarkInput): void {
  patchGalleryPages(client, new Set(imageIds), (im) => ({ ...im, ...marks }));
  patchImageDetails(client, imageIds, (im) => ({ ...im, ...marks }));
}

/** Puts main's answer in place of the guesses. */
export function applyRecords(client: QueryClient, records: readonly ImageRecord[]): void {
  const byId = new Map(records.map((r) => [r.id, r]));
  patchGalleryPages(client, new Set(byId.keys()), (im) => byId.get(im.id) ?? im);
  patchImageDetails(client, byId.keys(), (im) => byId.get(im.id) ?? im);
}

async function sendMarks(input: MarkInput): Promise<ImageRecord[]> {
  const out: ImageRecord[] = [];
  for (let i = 0; i < input.imageIds.length; i += MARK_BATCH) {
    out.push(...(await call('libraryMark', { ...input, imageIds: input.imageIds.slice(i, i + MARK_BATCH) })));
  }
  return out;
}

/** The mark mutation's steps on a cache (the hook's body, apart so a test can run it on a real QueryClient). */
export function markMutation(client: QueryClient) {
  return {
    mutationFn: sendMarks,
    onMutate: (input: MarkInput) => applyMarks(client, input),
    onSuccess: (records: ImageRecord[]) => {
      applyRecords(client, records);
      // A turn's record carries its images' marks (the stage's results).
      for (const turnId of new Set(records.map((r) => r.turnId))) void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
    },
    // Refused (nothing changed): the guesses go, the cache asks again.
    onError: (_error: unknown, input: MarkInput) => {
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
      for (const id of input.imageIds) void client.invalidateQueries({ queryKey: queryKeys.image(id) });
    },
  };
}

export function useMark() {
  return useMutation(markMutation(useQueryClient()));
}
