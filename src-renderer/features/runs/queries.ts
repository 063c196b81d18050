// Generations: stop waiting, abort (cancel), retry, and the turn records they write into the library (start: compose/generate.ts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, onEvent } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useRunsStore } from './store.ts';

/** One listener for the whole app: progress into the store, a finished run's turn into the query cache. */
export function useGenerationEvents(): void {
  const client = useQueryClient();
  const setProgress = useRunsStore((s) => s.setProgress);
  useEffect(() => {
    const offProgress = onEvent('generation:progress', (p) => {
      setProgress(p);
      // The turn's record brings its images; library:changed events refresh the rest (lib/library-state).
      if (p.phase === 'done' || p.status !== 'running') void client.invalidateQueries({ queryKey: queryKeys.turn(p.turnId) });
    });
    return offProgress;
  }, [client, setProgress]);
}

export function useTurn(turnId: string) {
  return useQuery({
    queryKey: queryKeys.turn(turnId),
    queryFn: () => call('libraryGetTurn', { turnId }),
    // Events refresh it; the interval is a safety net for a running turn whose events were missed.
    refetchInterval: (q) => (q.state.data?.status === 'running' || q.state.data?.images.some((i) => i.download === 'pending') ? 2_000 : false),
  });
}

/** Whether the library holds any session (one row is enough); refreshed with every session change. */
export function useAnySession() {
  return useQuery({ queryKey: queryKeys.anySession(), queryFn: () => call('librarySessions', { cursor: null, limit: 1 }) });
}

export function useRunningTurns() {
  return useQuery({ queryKey: queryKeys.running(), queryFn: () => call('generateRunning', {}), staleTime: Infinity });
}

export function useCancelGeneration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (turnId: string) => call('generateCancel', { turnId }),
    onSuccess: (_r, turnId) => void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) }),
  });
}

/** Stop waiting in the foreground: the run goes on in the background and its images still land in the library. */
export function useStopWaiting() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (turnId: string) => call('generateStopWaiting', { turnId }),
    onSuccess: (_r, turnId) => void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) }),
  });
}

export function useRetryGeneration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (turnId: string) => call('generateRetry', { turnId }),
    // The retried turn's own record changes too (main no longer offers its retry): refreshed, or its card would
    // keep an enabled Retry that main then refuses.
    onSettled: (_r, _e, turnId) => {
      void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
      void client.invalidateQueries({ queryKey: queryKeys.allSessionTurns() });
    },
  });
}
