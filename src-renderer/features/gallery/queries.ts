// The gallery from the library: pages of sessions (react-query infinite query), rename (image details and star: lib/library-queries.ts).
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { GalleryFilters, GalleryPage } from '../../../src-shared/ipc/library.ts';
import { call, imageUrl } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** Sessions per page; the library returns each session with all its matching images. */
export const GALLERY_PAGE_SESSIONS = 25;

/** The gallery's pages for some filters (shared by the hook and the start-up prefetch in main.tsx). */
export function galleryQuery(filters: GalleryFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.gallery(filters),
    queryFn: ({ pageParam }) => call('libraryGallery', { filters, cursor: pageParam, limit: GALLERY_PAGE_SESSIONS }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/**
 * Asks for the thumbnails of a page's first `count` images now, ahead of the grid's first render: they load
 * while React renders and lays the app out, and the grid's <img>s, asking for the same URLs, find them in the
 * document's image cache (each URL is fetched once). The images are held (by the timer) for `holdMs`.
 */
export function warmThumbnails(page: GalleryPage, count: number, holdMs = 10_000): void {
  const images: HTMLImageElement[] = [];
  groups: for (const group of page.groups) {
    for (const image of group.images) {
      if (images.length === count) break groups;
      if (image.download !== 'done') continue;
      const img = new Image();
      img.decoding = 'async';
      img.src = imageUrl('thumb', image.id);
      images.push(img);
    }
  }
  setTimeout(() => images.splice(0), holdMs);
}

export function useGallery(filters: GalleryFilters) {
  return useInfiniteQuery(galleryQuery(filters));
}

export function useRenameSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { sessionId: string; title: string }) => call('libraryRenameSession', input),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
      void client.invalidateQueries({ queryKey: queryKeys.sessions() });
    },
  });
}

export function useExportImage() {
  return useMutation({ mutationFn: (imageId: string) => call('filesExport', { imageId }) });
}
