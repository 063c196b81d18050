// The viewer's and compare's data: an image's place in the gallery's order (previous / next across every page),
// culling marks, and the session title. Keys live under the gallery's and images' prefixes, so the library's
// change events (which invalidate those prefixes) refresh them too.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryFilters, ImageDetail } from '../../../src-shared/ipc/library.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export const neighborsKey = (filters: GalleryFilters, imageId: string) => [...queryKeys.galleries(), 'neighbors', filters, imageId] as const;

export function neighborsQuery(filters: GalleryFilters, imageId: string) {
  return { queryKey: neighborsKey(filters, imageId), queryFn: () => call('libraryNeighbors', { filters, imageId }) };
}

export function useNeighbors(filters: GalleryFilters, imageId: string | null) {
  return useQuery({ ...neighborsQuery(filters, imageId ?? ''), enabled: imageId !== null, retry: false });
}


export type Marks = { starred?: boolean; rating?: number; rejected?: boolean };

/** Star, rate (0 clears) or reject images; the image details show the change at once and refresh after. */
export function useMark() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { imageIds: string[] } & Marks) => call('libraryMark', input),
    onMutate: ({ imageIds, ...marks }) => {
      for (const id of imageIds) {
        client.setQueryData<ImageDetail>(queryKeys.image(id), (d) => (d ? { ...d, image: { ...d.image, ...marks } } : d));
      }
    },
    onSettled: (images: ImageRecord[] | undefined, _error, input) => {
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
      for (const id of input.imageIds) void client.invalidateQueries({ queryKey: queryKeys.image(id) });
      for (const turnId of new Set((images ?? []).map((i) => i.turnId))) void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
    },
  });
}
