// The viewer's and compare's data: an image's place in the gallery's order (previous / next across every page)
// (culling marks: lib/library-state/marks.ts). Keys live under the gallery's and images' prefixes, so the library's
// change events (which invalidate those prefixes) refresh them too.
import { useQuery } from '@tanstack/react-query';
import type { GalleryFilters } from '../../../src-shared/ipc/library.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function neighborsQuery(filters: GalleryFilters, imageId: string) {
  return { queryKey: queryKeys.neighbors(filters, imageId), queryFn: () => call('libraryNeighbors', { filters, imageId }) };
}

export function useNeighbors(filters: GalleryFilters, imageId: string | null) {
  return useQuery({ ...neighborsQuery(filters, imageId ?? ''), enabled: imageId !== null, retry: false });
}
