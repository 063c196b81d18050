// The compose feature's front door, and the one "generate" door: the panel, the draft and the session it continues
// (recall and drag-to-reuse write there), the start of a generation, and a model's usual run time.
export { ComposePanel } from './ComposePanel.tsx';
export { useComposeStore, type ContinuedSession } from './store.ts';
export { useStartGeneration } from './generate.ts';
export { usualSeconds } from './draft.ts';
