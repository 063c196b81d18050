// The library's shared reads, one key and one fetch each: an image's detail and a session's summary are shown by
// the viewer, compare, the gallery, compose's session bar, the reference tray and the export dialog, a session's
// turns by the stage and the export dialog; each must share one cache entry.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from './desktop.ts';
import { queryKeys } from './query-keys.ts';

export function imageQuery(imageId: string) {
  return { queryKey: queryKeys.image(imageId), queryFn: () => call('libraryGetImage', { imageId }) };
}

/** An image's detail (its turn's request included); nothing is asked while `imageId` is null. */
export function useImage(imageId: string | null) {
  return useQuery({ ...imageQuery(imageId ?? ''), enabled: imageId !== null });
}

/** A session's turns, oldest first, with their images; nothing is asked while `sessionId` is null. */
export function useSessionTurns(sessionId: string | null) {
  return useQuery({
    queryKey: queryKeys.sessionTurns(sessionId ?? ''),
    queryFn: () => call('libraryListTurns', { sessionId: sessionId ?? '' }),
    enabled: sessionId !== null,
  });
}

/** A session's summary (its titles among them); nothing is asked while `sessionId` is null. */
export function useSession(sessionId: string | null) {
  return useQuery({
    queryKey: queryKeys.session(sessionId ?? ''),
    queryFn: () => call('libraryGetSession', { sessionId: sessionId ?? '' }),
    enabled: sessionId !== null,
  });
}

/** Star or unstar one image (the stage's results): its gallery pages, detail and turn refresh. */
export function useStar() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { imageId: string; starred: boolean }) => call('libraryStar', input),
    onSuccess: (image) => {
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
      void client.invalidateQueries({ queryKey: queryKeys.image(image.id) });
      void client.invalidateQueries({ queryKey: queryKeys.turn(image.turnId) });
    },
  });
}
