// UI state of the app frame: which section is showing (and on what). A leaf: features that switch sections import it.
import { create } from 'zustand';

export type AppTab = 'studio' | 'batch' | 'webhooks' | 'local' | 'settings';

interface AppState {
  tab: AppTab;
  setTab: (tab: AppTab) => void;
  /** A request id an error card asked to look up; the Local service tab's request list takes it (and clears it). */
  requestLookup: string | null;
  /** Opens the Local service tab on one request's ledger entry. */
  lookUpRequest: (requestId: string | null) => void;
}

export const useAppStore = create<AppState>((set) => ({
  tab: 'studio',
  setTab: (tab) => set({ tab }),
  requestLookup: null,
  lookUpRequest: (requestLookup) => set(requestLookup === null ? { requestLookup } : { requestLookup, tab: 'local' }),
}));
