// The local service console through main (which holds the admin token): state and every admin action.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { IpcMethodName, MethodInputOf, MethodOutputOf } from '../../lib/ipc-types.ts';

export function useLocalStatus(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.localStatus(), queryFn: () => call('localStatus', {}), enabled, refetchInterval: enabled ? 5_000 : false });
}

/** A console action; answers that carry the whole console state replace the cached one. */
export function useLocalAction<K extends IpcMethodName>(name: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input) as Promise<MethodOutputOf<K>>,
    onSuccess: (value) => {
      if (value && typeof value === 'object' && 'account' in value && 'keys' in value) client.setQueryData(queryKeys.localStatus(), value);
      else void client.invalidateQueries({ queryKey: queryKeys.localStatus() });
      if (name === 'localDeleteImage' || name === 'localCreateKey') {
        void client.invalidateQueries({ queryKey: queryKeys.galleries() });
        void client.invalidateQueries({ queryKey: queryKeys.images() });
        void client.invalidateQueries({ queryKey: queryKeys.settings() });
      }
    },
  });
}
