// UI state of the catalog screen: which products are left out of the batch (every product is in by default,
// new ones too), the shot list and its unsaved edits, budget and concurrency of the next batch, the batch on show,
// and which dialog is open. Kept while the app runs (a tab switch keeps an edit); the data itself lives in main.
import { create } from 'zustand';
import type { Shot } from '../../../src-shared/ipc/batch.ts';
import { DEFAULT_BATCH_CONCURRENCY } from '../../../src-shared/limits.ts';

/** A shot list as edited and not saved yet: the plan prices it, Start saves it first, leaving asks. */
export interface ShotListDraft {
  listId: string;
  name: string;
  shots: Shot[];
}

export type ProductEditor = { kind: 'new' } | { kind: 'edit'; productId: string };

interface BatchUiState {
  /** Products not in the batch (by id): the rest are selected. */
  excluded: ReadonlySet<string>;
  shotListId: string | null;
  /** The budget field as typed ('' = no cap). */
  budget: string;
  concurrency: number;
  /** The batch shown in Run; null = the newest one. */
  batchId: string | null;
  editor: ProductEditor | null;
  exportOpen: boolean;
  /** The chosen list's unsaved edits, or null. */
  draft: ShotListDraft | null;
  /** Leaving with unsaved edits was asked: what to do once they are saved or discarded (null = not asking). */
  leaving: { go: () => void } | null;
  setDraft: (draft: ShotListDraft | null) => void;
  askLeave: (go: () => void) => void;
  stay: () => void;
  setIncluded: (ids: string[], included: boolean) => void;
  setShotListId: (id: string | null) => void;
  setBudget: (budget: string) => void;
  setConcurrency: (n: number) => void;
  setBatchId: (id: string | null) => void;
  openEditor: (editor: ProductEditor) => void;
  closeEditor: () => void;
  setExportOpen: (open: boolean) => void;
}

export const useBatchStore = create<BatchUiState>((set) => ({
  excluded: new Set(),
  shotListId: null,
  budget: '',
  concurrency: DEFAULT_BATCH_CONCURRENCY,
  batchId: null,
  editor: null,
  exportOpen: false,
  draft: null,
  leaving: null,
  // An edit pins its list as the chosen one, so a change of the batch on show never hides it.
  setDraft: (draft) => set((s) => (draft !== null && s.shotListId === null ? { draft, shotListId: draft.listId } : { draft })),
  askLeave: (go) => set({ leaving: { go } }),
  stay: () => set({ leaving: null }),
  setIncluded: (ids, included) =>
    set((s) => {
      const excluded = new Set(s.excluded);
      for (const id of ids) {
        if (included) excluded.delete(id);
        else excluded.add(id);
      }
      return { excluded };
    }),
  setShotListId: (shotListId) => set({ shotListId }),
  setBudget: (budget) => set({ budget }),
  setConcurrency: (concurrency) => set({ concurrency }),
  setBatchId: (batchId) => set({ batchId }),
  openEditor: (editor) => set({ editor }),
  closeEditor: () => set({ editor: null }),
  setExportOpen: (exportOpen) => set({ exportOpen }),
}));

/** The budget as the contract takes it: a whole number ≥ 1, or null for "no cap" (also for anything unreadable). */
export function parseBudget(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

/** Whether there is anything leaving would lose: the one rule the leave guard and the window's close guard ask. */
export function holdsUnsavedEdits(state: Pick<BatchUiState, 'draft'>): boolean {
  return state.draft !== null;
}

/**
 * Whether leaving may happen now (nothing unsaved: true). With unsaved edits the question is asked and false
 * answered; `go` runs once the person has saved or discarded them (the app store's leave guard, another list).
 */
export function leaveDraft(go: () => void): boolean {
  const state = useBatchStore.getState();
  if (!holdsUnsavedEdits(state)) return true;
  state.askLeave(go);
  return false;
}
