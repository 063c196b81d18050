// Live progress of running generations, fed by `generation:progress` events; the turn record in the library
// stays the source of truth, this only drives the running display between records.
import { create } from 'zustand';
import type { GenerationProgress } from '../../../src-shared/ipc/generation.ts';

interface RunsState {
  progress: Record<string, GenerationProgress>;
  /** Turns started from this window that are not in a session view yet (new sessions). */
  recentTurnIds: string[];
  setProgress: (p: GenerationProgress) => void;
  addRecent: (turnId: string) => void;
}

export const useRunsStore = create<RunsState>((set) => ({
  progress: {},
  recentTurnIds: [],
  setProgress: (p) => set((s) => ({ progress: { ...s.progress, [p.turnId]: p } })),
  addRecent: (turnId) => set((s) => ({ recentTurnIds: [turnId, ...s.recentTurnIds.filter((t) => t !== turnId)].slice(0, 20) })),
}));
