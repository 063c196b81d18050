// Start of the plan on show (docs/catalog.md "Plan and editing"): what runs is what the plan shows. Unsaved shot-list
// edits are in the plan, and Start saves them before it creates the batch; main refuses a plan whose total is not the
// one shown (batch_plan_changed). When products × shots of the plan already have results in this list's batches,
// Start asks first: only what is missing (main's `missing`, never a done shot), or all again, each with its price.
import { useState } from 'react';
import type { BatchPlan, BatchPlanInput } from '../../../src-shared/ipc/batch.ts';
import { useText } from '../../i18n/text.ts';
import { ipcErrorOf } from '../../ui/ErrorLine.tsx';
import { AskDialog } from './AskDialog.tsx';
import { planText } from './plan-i18n.ts';
import { useCreateBatch, useSaveDraft } from './queries.ts';
import { useBatchStore, type ShotListDraft } from './store.ts';

interface StartInputs {
  input: BatchPlanInput | null;
  data: BatchPlan | null;
  draft: ShotListDraft | null;
  concurrency: number;
  refetch: () => unknown;
}

export function useStartBatch({ input, data, draft, concurrency, refetch }: StartInputs) {
  const setBatchId = useBatchStore((s) => s.setBatchId);
  const create = useCreateBatch();
  const { save, saveDraft } = useSaveDraft();
  const [planChanged, setPlanChanged] = useState(false);
  const [asking, setAsking] = useState(false);

  const run = async (onlyMissing: boolean) => {
    setAsking(false);
    if (!input || !data) return;
    setPlanChanged(false);
    if (draft !== null && !(await saveDraft(draft))) return;
    const { shots: _edits, ...saved } = input;
    create.mutate(
      { ...saved, onlyMissing, concurrency, expectedTotal: onlyMissing ? data.missing.total : data.total, start: true },
      {
        onSuccess: (detail) => setBatchId(detail.id),
        onError: (err) => {
          if (ipcErrorOf(err)?.code === 'batch_plan_changed') {
            setPlanChanged(true);
            void refetch();
          }
        },
      },
    );
  };
  const start = () => {
    if (data && data.alreadyMade.cells > 0) setAsking(true);
    else void run(false);
  };
  return { start, run, asking, cancel: () => setAsking(false), planChanged, busy: create.isPending || save.isPending, error: save.error ?? create.error };
}

/** The question before paying again for products × shots already made: only what is missing, all again, or cancel (Escape). */
export function StartWarning({ data, run, cancel }: { data: BatchPlan; run: (onlyMissing: boolean) => void; cancel: () => void }) {
  const t = useText(planText);
  const { cells, picked } = data.alreadyMade;
  const count = data.jobs.length;
  const missing = data.missing;
  return (
    <AskDialog
      title={t('warnTitle')}
      testId="start-warning"
      back={{ label: t('warnCancel'), testId: 'start-warning-cancel', go: cancel }}
      answers={
        <>
          <button type="button" className="btn btn-primary" data-testid="start-only-missing" data-jobs={missing.jobs} data-total={missing.total} disabled={missing.jobs === 0} onClick={() => run(true)}>
            {missing.jobs === 0 ? t('nothingMissing') : t('onlyMissing', { count: missing.jobs, total: missing.total })}
          </button>
          <button type="button" className="btn" data-testid="start-run-all" data-total={data.total} onClick={() => run(false)}>
            {t('runAll', { count, total: data.total })}
          </button>
        </>
      }
    >
      <p data-testid="start-warning-made" data-cells={cells} data-picked={picked}>
        {t('warnQuestion', { count, cells })} {picked > 0 ? t('madePicked', { count: picked }) : null}
      </p>
    </AskDialog>
  );
}
