// This start's notices from main (a damaged file kept aside, a backup restored or failing) and their dismissal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, onEvent } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useStartupNotices() {
  const client = useQueryClient();
  // Notices are fixed at start, but a backup that fails (or succeeds again) later changes them.
  useEffect(() => onEvent('app:notices-changed', () => void client.invalidateQueries({ queryKey: queryKeys.notices() })), [client]);
  return useQuery({ queryKey: queryKeys.notices(), queryFn: () => call('appNotices', {}), staleTime: Infinity });
}

export function useDismissNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('appDismissNotice', { id }),
    onSuccess: (remaining) => client.setQueryData(queryKeys.notices(), remaining),
  });
}
