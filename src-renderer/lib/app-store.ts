// UI state of the app frame: which section is showing (and on what). A leaf: features that switch sections import it.
import { create } from 'zustand';

export type AppTab = 'studio' | 'batch' | 'webhooks' | 'local' | 'settings';

/** Asked before the tab changes: true lets it change now; false holds it (the guard calls `go` once the person answers). */
export type LeaveGuard = (go: () => void) => boolean;

interface AppState {
  tab: AppTab;
  /** Every change of tab goes through here, so a page with unsaved work (the Catalog's shot list) is asked first. */
  setTab: (tab: AppTab) => void;
  leaveGuard: LeaveGuard | null;
  setLeaveGuard: (guard: LeaveGuard | null) => void;
  /** A request id an error card asked to look up; the Local service tab's request list takes it (and clears it). */
  requestLookup: string | null;
  /** Opens the Local service tab on one request's ledger entry. */
  lookUpRequest: (requestId: string | null) => void;
}

export const useAppStore = create<AppState>((set, get) => {
  const leaveFor = (tab: AppTab, go: () => void) => {
    const { leaveGuard, tab: current } = get();
    if (tab === current || leaveGuard === null || leaveGuard(go)) go();
  };
  return {
    tab: 'studio',
    setTab: (tab) => leaveFor(tab, () => set({ tab })),
    leaveGuard: null,
    setLeaveGuard: (leaveGuard) => set({ leaveGuard }),
    requestLookup: null,
    lookUpRequest: (requestLookup) => (requestLookup === null ? set({ requestLookup }) : leaveFor('local', () => set({ requestLookup, tab: 'local' }))),
  };
});
