// The session the compose panel continues, read from the library so its title (the service's, or the local
// one after a rename) shows as soon as it exists.
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/desktop.ts';

export const sessionKey = (sessionId: string) => ['session', sessionId] as const;

export function useSessionSummary(sessionId: string | null) {
  return useQuery({
    queryKey: sessionKey(sessionId ?? ''),
    queryFn: () => call('libraryGetSession', { sessionId: sessionId ?? '' }),
    enabled: sessionId !== null,
  });
}
