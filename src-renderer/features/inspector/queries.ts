// The inspector through main: receiver status, captured deliveries (refreshed on `inspector:delivery`), one
// request's verdict, and the actions. Diagnoses come in the UI language, so the language is part of the key.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, onEvent } from '../../lib/desktop.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { IpcMethodName, MethodInputOf, MethodOutputOf } from '../../lib/ipc-types.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';

export function useInspectorStatus() {
  return useQuery({ queryKey: queryKeys.inspectorStatus(), queryFn: () => call('inspectorStatus', {}) });
}

export function useDeliveries() {
  const client = useQueryClient();
  useEffect(
    () =>
      onEvent('inspector:delivery', () => {
        void client.invalidateQueries({ queryKey: queryKeys.inspectorList() });
        // A forward-to answer is added to a capture after it arrived: an open detail refreshes too.
        void client.invalidateQueries({ queryKey: queryKeys.inspectorRequest('', '').slice(0, 2) });
      }),
    [client],
  );
  return useQuery({ queryKey: queryKeys.inspectorList(), queryFn: () => call('inspectorList', { limit: 200 }) });
}

export function useCapturedRequest(requestId: string | null) {
  const language = useLanguage();
  return useQuery({
    queryKey: queryKeys.inspectorRequest(requestId ?? '', language),
    queryFn: () => call('inspectorGet', { requestId: requestId as string }),
    enabled: requestId !== null,
  });
}

/** An inspector action; status answers replace the cached status, list-changing ones refresh the list. */
export function useInspectorAction<K extends IpcMethodName>(name: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input) as Promise<MethodOutputOf<K>>,
    onSuccess: (value) => {
      if (value && typeof value === 'object' && 'running' in value && 'secretStored' in value) client.setQueryData(queryKeys.inspectorStatus(), value);
      if (name === 'inspectorClear' || name === 'inspectorResend' || name === 'inspectorSendTest') {
        void client.invalidateQueries({ queryKey: queryKeys.inspectorList() });
      }
    },
  });
}
