// Leaving the shot list's unsaved edits asks first (docs/catalog.md "Plan and editing"): a change of tab anywhere in
// the app (the app store's leave guard), choosing another shot list, and closing the Catalog all open one dialog:
// save, discard, or stay (Escape). Focus is held in the dialog while it asks. Closing or reloading the window is
// asked by the browser (or Electron's shell, docs/main-process.md) through `beforeunload`, held while edits are unsaved.
import { useEffect } from 'react';
import { useAppStore } from '../../lib/app-store.ts';
import { useText } from '../../i18n/text.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { AskDialog } from './AskDialog.tsx';
import { planText } from './plan-i18n.ts';
import { useSaveDraft } from './queries.ts';
import { holdsUnsavedEdits, leaveDraft, useBatchStore } from './store.ts';

/** While the Catalog is open, every change of tab is asked through `leaveDraft`. */
function useTabGuard(): void {
  const setLeaveGuard = useAppStore((s) => s.setLeaveGuard);
  useEffect(() => {
    setLeaveGuard(leaveDraft);
    return () => setLeaveGuard(null);
  }, [setLeaveGuard]);
}

/** Asks the browser to hold the unload: it shows its own "leave this page?" question. */
function holdUnload(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Chromium before 119 (and so older Electron) asks only when returnValue is set as well.
  event.returnValue = true;
}

/** While edits are unsaved, closing or reloading the window asks too; with nothing unsaved it closes at once. */
function useCloseGuard(): void {
  const unsaved = useBatchStore(holdsUnsavedEdits);
  useEffect(() => {
    if (!unsaved) return;
    window.addEventListener('beforeunload', holdUnload);
    return () => window.removeEventListener('beforeunload', holdUnload);
  }, [unsaved]);
}

export function UnsavedEditsDialog({ listName }: { listName: string }) {
  const t = useText(planText);
  useTabGuard();
  useCloseGuard();
  const leaving = useBatchStore((s) => s.leaving);
  const draft = useBatchStore((s) => s.draft);
  const setDraft = useBatchStore((s) => s.setDraft);
  const stay = useBatchStore((s) => s.stay);
  const { save, saveDraft } = useSaveDraft();
  if (leaving === null || draft === null) return null;
  const leave = () => {
    stay();
    leaving.go();
  };
  const onSave = async () => {
    if (await saveDraft(draft)) leave();
  };
  const onDiscard = () => {
    setDraft(null);
    leave();
  };
  const onStay = () => {
    save.reset();
    stay();
  };
  return (
    <AskDialog
      title={t('leaveTitle')}
      testId="leave-unsaved"
      back={{ label: t('leaveStay'), testId: 'leave-stay', go: onStay }}
      busy={save.isPending}
      answers={
        <>
          <button type="button" className="btn btn-primary" data-testid="leave-save" disabled={save.isPending} onClick={() => void onSave()}>
            {t('leaveSave')}
          </button>
          <button type="button" className="btn btn-danger" data-testid="leave-discard" disabled={save.isPending} onClick={onDiscard}>
            {t('leaveDiscard')}
          </button>
        </>
      }
    >
      <p>{t('leaveQuestion', { name: draft.name.trim() || listName })}</p>
      <ErrorLine error={save.error} testId="leave-save-error" showCode />
    </AskDialog>
  );
}
