// UI state of the app frame: which section is showing. A leaf: features that switch sections import it.
import { create } from 'zustand';

export type AppTab = 'studio' | 'batch' | 'webhooks' | 'local' | 'settings';

interface AppState {
  tab: AppTab;
  setTab: (tab: AppTab) => void;
}

export const useAppStore = create<AppState>((set) => ({
  tab: 'studio',
  setTab: (tab) => set({ tab }),
}));
