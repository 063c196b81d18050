// IPC handlers of the webhook inspector, keyed by the method names of inspectorMethods. Main's IPC table
// parses every input with the contract's schema before calling these.
import type { MethodInput, MethodOutput } from '../../src-shared/ipc/contract.ts';
import type { inspectorMethods } from '../../src-shared/ipc/inspector.ts';
import type { InspectorContext } from './context.ts';

type Methods = typeof inspectorMethods;
export type InspectorHandlers = {
  [K in keyof Methods]: (input: MethodInput<Methods[K]>) => Promise<MethodOutput<Methods[K]>>;
} & { close(): Promise<void> };

export function createInspectorHandlers(_ctx: InspectorContext): InspectorHandlers {
  const notYet = async (): Promise<never> => {
    throw new Error('The webhook inspector is not ready yet.');
  };
  return {
    inspectorStatus: async () => ({
      running: false,
      port: null,
      url: null,
      secretStored: false,
      secretMasked: null,
      previousSecrets: 0,
      forcedStatus: null,
      delayMs: 0,
      error: null,
    }),
    inspectorConfigure: notYet,
    inspectorList: async () => ({ groups: [], total: 0 }),
    inspectorGet: notYet,
    inspectorClear: async () => ({ cleared: 0 }),
    inspectorVerifyPasted: notYet,
    inspectorSendTest: notYet,
    inspectorResend: notYet,
    inspectorConnectLocal: notYet,
    inspectorRegenerateLocal: notYet,
    inspectorFetchPublication: notYet,
    inspectorExport: notYet,
    close: async () => {},
  };
}
