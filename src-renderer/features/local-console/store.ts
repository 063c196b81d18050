// Local console UI state: the image ids chosen in the gallery for a new image pack.
import { create } from 'zustand';

interface LocalConsoleUiState {
  packImageIds: string[];
  setPackImageIds: (ids: string[]) => void;
}

export const useLocalConsoleStore = create<LocalConsoleUiState>((set) => ({
  packImageIds: [],
  setPackImageIds: (packImageIds) => set({ packImageIds }),
}));
