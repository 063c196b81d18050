// Live progress of running generations, fed by `generation:progress` events; the turn record in the library
// stays the source of truth, this only drives the running display between records.
import { create } from 'zustand';
import type { GenerationProgress } from '../../../src-shared/ipc/generation.ts';

interface RunsState {
  progress: Record<string, GenerationProgress>;
  setProgress: (p: GenerationProgress) => void;
  /** Failed turns the designer dismissed from the stage (they stay in the library); for this window's life. */
  dismissed: ReadonlySet<string>;
  dismiss: (turnIds: readonly string[]) => void;
}

export const useRunsStore = create<RunsState>((set) => ({
  progress: {},
  setProgress: (p) => set((s) => ({ progress: { ...s.progress, [p.turnId]: p } })),
  dismissed: new Set(),
  dismiss: (turnIds) => set((s) => ({ dismissed: new Set([...s.dismissed, ...turnIds]) })),
}));

/** What the stage shows behind results: a neutral matte, or a checkerboard that makes a white background's edge visible. */
export type StageBackground = 'matte' | 'checker';
const BACKGROUND_KEY = 'studio.stage-background';

function storedBackground(): StageBackground {
  try {
    return localStorage.getItem(BACKGROUND_KEY) === 'checker' ? 'checker' : 'matte';
  } catch {
    return 'matte';
  }
}

/** Remembered on this computer (a view preference, like a window size): not part of settings.json. */
export const useStageBackgroundStore = create<{ background: StageBackground; setBackground: (b: StageBackground) => void }>((set) => ({
  background: storedBackground(),
  setBackground: (background) => {
    try {
      localStorage.setItem(BACKGROUND_KEY, background);
    } catch {
      // Not remembered, still applied.
    }
    set({ background });
  },
}));

export function useStageBackground(): [StageBackground, (b: StageBackground) => void] {
  const background = useStageBackgroundStore((s) => s.background);
  const setBackground = useStageBackgroundStore((s) => s.setBackground);
  return [background, setBackground];
}
