// The one door to start a generation: the compose panel's Generate sends the draft; the turn main records goes into
// the cache at once, and the next generation continues its session.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GenerateRequest } from '../../../src-shared/api.ts';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useComposeStore } from './store.ts';

export function useStartGeneration() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { request: GenerateRequest; sessionId?: string }) => {
      // Main answers with the turn it recorded: no second round trip for it.
      const { turn } = await call('generateStart', input.sessionId ? input : { request: input.request });
      return turn;
    },
    // Here, not in mutate()'s own callbacks: those never run when the panel that started the run has gone (the
    // designer switched tabs before main answered), and the run's session would be forgotten.
    onSuccess: (turn, input) => {
      client.setQueryData(queryKeys.turn(turn.id), turn);
      void client.invalidateQueries({ queryKey: queryKeys.allSessionTurns() });
      // The next generation continues this run's session, unless the designer chose another one meanwhile.
      const { session, setSession } = useComposeStore.getState();
      if ((session?.id ?? undefined) === input.sessionId && session?.id !== turn.sessionId) setSession({ id: turn.sessionId, title: null });
    },
  });
}
