// Front door of the webhook inspector: its receiver, captures and diagnoses behind its IPC handlers, and the
// context it needs from the app (what it may touch).
export { createInspectorHandlers, type InspectorHandlers } from './handlers.ts';
export type { InspectorContext, InspectorSecrets, LocalServiceAdmin } from './context.ts';
export type { InspectorOptions } from './inspector.ts';
