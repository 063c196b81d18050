// Leaving the Catalog's unsaved shot-list edits (docs/catalog.md "Plan and editing"): every change of tab goes
// through the app store's leave guard; with a draft it is held until the person answers (save or discard run `go`,
// stay drops it), without one it happens at once; a draft pins its list as the chosen one.
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../lib/app-store.ts';
import { leaveDraft, useBatchStore } from './store.ts';

const shot = { name: 'main', purpose: 'free', model: 'seedream-5-0-pro', ratio: '1:1', n: 4, promptAddition: '' } as const;

describe('leaving unsaved shot-list edits', () => {
  beforeEach(() => {
    useAppStore.setState({ tab: 'batch', leaveGuard: leaveDraft, requestLookup: null });
    useBatchStore.setState({ draft: null, leaving: null, shotListId: null });
  });

  it('changes tab at once when nothing is unsaved', () => {
    useAppStore.getState().setTab('settings');
    expect(useAppStore.getState().tab).toBe('settings');
    expect(useBatchStore.getState().leaving).toBeNull();
  });

  it('holds a tab change while a draft is unanswered; stay keeps the tab, the answer then goes', () => {
    useBatchStore.getState().setDraft({ listId: 'sl_a', name: 'A', shots: [shot] });
    expect(useBatchStore.getState().shotListId).toBe('sl_a');
    useAppStore.getState().setTab('settings');
    expect(useAppStore.getState().tab).toBe('batch');
    useBatchStore.getState().stay();
    expect(useAppStore.getState().tab).toBe('batch');
    expect(useBatchStore.getState().draft).not.toBeNull();

    useAppStore.getState().setTab('local');
    const asked = useBatchStore.getState().leaving;
    expect(asked).not.toBeNull();
    // Discard: the draft goes, then the held change of tab.
    useBatchStore.getState().setDraft(null);
    asked!.go();
    expect(useAppStore.getState().tab).toBe('local');
  });

  it('a request look-up that opens another tab is asked too', () => {
    useBatchStore.getState().setDraft({ listId: 'sl_a', name: 'A', shots: [shot] });
    useAppStore.getState().lookUpRequest('req_00000000000000000000');
    expect(useAppStore.getState()).toMatchObject({ tab: 'batch', requestLookup: null });
    useBatchStore.getState().leaving!.go();
    expect(useAppStore.getState()).toMatchObject({ tab: 'local', requestLookup: 'req_00000000000000000000' });
  });

  it('a draft does not move a list the person chose', () => {
    useBatchStore.setState({ shotListId: 'sl_b' });
    useBatchStore.getState().setDraft({ listId: 'sl_b', name: 'B', shots: [shot] });
    expect(useBatchStore.getState().shotListId).toBe('sl_b');
  });
});
