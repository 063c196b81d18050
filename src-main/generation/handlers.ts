// IPC handlers of generation (src-shared/ipc/generation.ts): start, cancel, stop waiting, retry, and the turns
// running now. The runner (runner.ts) does the work; these only hand over.
import type { HandlerTable } from '../ports/ipc-table.ts';
import type { GenerationRunner } from './runner.ts';

export type GenerationMethods = 'generateStart' | 'generateCancel' | 'generateStopWaiting' | 'generateRetry' | 'generateRunning';

export function createGenerationHandlers(runner: GenerationRunner): HandlerTable<GenerationMethods> {
  return {
    generateStart: async (input) => {
      const { turnId } = await runner.start(input);
      // The record main has in hand goes back with the id (the UI shows it at once, no second call).
      return { turnId, turn: runner.turn(turnId) };
    },
    generateCancel: async ({ turnId }) => runner.cancel(turnId),
    generateStopWaiting: async ({ turnId }) => runner.stopWaiting(turnId),
    generateRetry: ({ turnId }) => runner.retry(turnId),
    generateRunning: async () => runner.runningTurns(),
  };
}
