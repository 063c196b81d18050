// UI state of the inspector: which attempt is open.
import { create } from 'zustand';

interface InspectorUiState {
  selectedRequestId: string | null;
  select(requestId: string | null): void;
}

export const useInspectorStore = create<InspectorUiState>((set) => ({
  selectedRequestId: null,
  select: (selectedRequestId) => set({ selectedRequestId }),
}));
