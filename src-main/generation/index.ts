// Front door of generation: the runner that carries out spec §4.1 turns (retry decisions come from
// domain/retry-policy.ts), the settling of Local turns a crash left unknown, and the generation IPC handlers.
export { GenerationRunner, type GenerationDeps, type GenerationPolicy } from './runner.ts';
export { reconcileLocalTurns } from './reconcile.ts';
export { bringBackSentTurns } from './bring-back.ts';
export { createGenerationHandlers, type GenerationMethods } from './handlers.ts';
