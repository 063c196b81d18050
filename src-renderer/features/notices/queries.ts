// This start's notices from main (a damaged file kept aside, a backup restored) and their dismissal.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';

export function useStartupNotices() {
  // Notices are fixed at start; only a dismissal changes them.
  return useQuery({ queryKey: queryKeys.notices(), queryFn: () => call('appNotices', {}), staleTime: Infinity });
}

export function useDismissNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('appDismissNotice', { id }),
    onSuccess: (remaining) => client.setQueryData(queryKeys.notices(), remaining),
  });
}
