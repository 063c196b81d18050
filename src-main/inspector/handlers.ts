// IPC handlers of the webhook inspector, keyed by the method names of inspectorMethods. Main's IPC table
// parses every input with the contract's schema before calling these; failures are StudioError values
// (src-main/domain/errors.ts) with a stable `code` and facts, rendered in the UI language by the IPC layer.
import type { MethodInput, MethodOutput } from '../../src-shared/ipc/contract.ts';
import type { inspectorMethods } from '../../src-shared/ipc/inspector.ts';
import type { InspectorContext } from './context.ts';
import { WebhookInspector, type InspectorOptions } from './inspector.ts';

type Methods = typeof inspectorMethods;
export type InspectorHandlers = {
  [K in keyof Methods]: (input: MethodInput<Methods[K]>) => Promise<MethodOutput<Methods[K]>>;
} & {
  /** Resolves once the receiver listens (or failed to, which status() then reports). */
  ready: Promise<void>;
  close(): Promise<void>;
};

export function createInspectorHandlers(ctx: InspectorContext, options: InspectorOptions = {}): InspectorHandlers {
  const inspector = new WebhookInspector(ctx, options);
  // The receiver runs from app start, so deliveries arrive even before the panel is opened.
  const ready = inspector.start().catch(() => {});
  const after = <T>(work: () => T | Promise<T>) => ready.then(work);
  return {
    ready,
    inspectorStatus: () => after(() => inspector.status()),
    inspectorConfigure: (input) => after(() => inspector.configure(input)),
    inspectorList: (input) => after(() => inspector.list(input.limit)),
    inspectorGet: (input) => after(() => inspector.get(input.requestId)),
    inspectorClear: () => after(() => inspector.clear()),
    inspectorVerifyPasted: (input) => after(() => inspector.verifyPasted(input)),
    inspectorSendTest: (input) => after(() => inspector.sendTest(input)),
    inspectorResend: (input) => after(() => inspector.resend(input)),
    inspectorSetSecret: (input) => after(() => inspector.setSecret(input.secret)),
    inspectorRevealSecret: () => after(() => inspector.revealSecret()),
    inspectorConnectLocal: () => after(() => inspector.connectLocal()),
    inspectorRegenerateLocal: () => after(() => inspector.regenerateLocal()),
    inspectorFetchPublication: (input) => after(() => inspector.fetchPublication(input.publicationId)),
    inspectorExport: (input) => after(() => inspector.export(input.requestId, input.format)),
    close: async () => {
      await ready;
      await inspector.stop();
    },
  };
}
