// The session the compose panel continues, read from the library so its title (the service's, or the local
// one after a rename) shows as soon as it exists.
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useSessionSummary(sessionId: string | null) {
  return useQuery({
    queryKey: queryKeys.session(sessionId ?? ''),
    queryFn: () => call('libraryGetSession', { sessionId: sessionId ?? '' }),
    enabled: sessionId !== null,
  });
}
