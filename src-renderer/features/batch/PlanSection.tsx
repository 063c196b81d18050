// The plan of the next batch: the selected products × the shot list, priced by main with the compose form's own
// functions (debounced as the inputs change): credits per product, what cannot be sent and why, the total, on
// Local the balance after it, a budget (how many jobs fit) and the concurrency; Start creates the batch with
// the total the designer saw, so a plan that changed meanwhile is refused and shown again. The shot list's unsaved
// edits are priced in (Start saves them first), and what this list's batches already made is said (StartBatch.tsx).
import { useId, useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import type { BatchPlan, BatchPlanInput } from '../../../src-shared/ipc/batch.ts';
import { BATCH_CONCURRENCY_MAX } from '../../../src-shared/limits.ts';
import { useText } from '../../i18n/text.ts';
import { BatchCard, TableHead } from './parts.tsx';
import { batchText, type BatchT } from './i18n.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { Field } from '../../ui/Field.tsx';
import { planText } from './plan-i18n.ts';
import { useBatchPlan, useDebounced } from './queries.ts';
import { StartWarning, useStartBatch } from './StartBatch.tsx';
import { parseBudget, useBatchStore, type ShotListDraft } from './store.ts';

const PLAN_DEBOUNCE_MS = 300;

/** The budget as typed, what it reads as, and whether it is something a number field cannot read. */
function useBudget() {
  const budgetText = useBatchStore((s) => s.budget);
  const setBudget = useBatchStore((s) => s.setBudget);
  const budget = parseBudget(budgetText);
  // Text a number field cannot read (`1,000`, `1e`) reaches us as '' with validity.badInput: never "no cap".
  const [unreadable, setUnreadable] = useState(false);
  const invalid = unreadable || (budgetText.trim() !== '' && budget === null);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    setUnreadable(e.target.validity.badInput);
    setBudget(e.target.value);
  };
  return { budgetText, budget, invalid, onChange };
}

type Budget = ReturnType<typeof useBudget>;

/** The plan priced by main for these inputs (debounced), and whether what is shown is for exactly them; unsaved edits of the list are priced in. */
function usePricedPlan(productIds: string[], shotListId: string | null, budget: number | null, draft: ShotListDraft | null) {
  const wanted = useMemo<BatchPlanInput | null>(
    () => (productIds.length > 0 && shotListId ? { productIds, shotListId, budget, ...(draft ? { shots: draft.shots } : {}) } : null),
    [productIds, shotListId, budget, draft],
  );
  const input = useDebounced(wanted, PLAN_DEBOUNCE_MS);
  const settled = JSON.stringify(input) === JSON.stringify(wanted);
  const plan = useBatchPlan(input);
  return {
    wanted,
    input,
    plan,
    data: wanted && plan.data ? plan.data : null,
    // Priced for exactly these inputs (a background refresh of the same plan, for the balance, does not count).
    fresh: settled && !plan.isPlaceholderData,
    pricing: !settled || (plan.isFetching && (plan.isPlaceholderData || !plan.data)),
  };
}

function budgetHint(budget: Budget, data: BatchPlan | null, t: BatchT): ReactNode {
  if (budget.invalid) return <span className="hint-danger">{t('budgetInvalid')}</span>;
  if (budget.budget === null || !data || data.budget !== budget.budget) return t('budgetHint');
  return data.jobsWithinBudget >= data.jobs.length ? t('budgetAll') : t('budgetFits', { fit: data.jobsWithinBudget, count: data.jobs.length });
}

/** The total, the balance after it (Local), what cannot be sent and why, and the credits per product. */
function PlanSummary({ data }: { data: BatchPlan }) {
  const t = useText(batchText);
  const pt = useText(planText);
  return (
    <>
      <div className="batch-plan-summary" aria-live="polite">
        <p className="batch-plan-total" data-testid="batch-plan-total" data-total={data.total} data-jobs={data.jobs.length}>
          {t('planTotal', { count: data.total })}
        </p>
        <span className="muted">{t('planJobs', { count: data.jobs.length })}</span>
      </div>
      {data.alreadyMade.cells > 0 ? (
        <p className="small hint-warn" data-testid="batch-plan-made" data-cells={data.alreadyMade.cells} data-missing={data.missing.jobs}>
          {pt('madeLine', { count: data.alreadyMade.cells })} {data.alreadyMade.picked > 0 ? pt('madePicked', { count: data.alreadyMade.picked }) : null}
        </p>
      ) : null}
      {data.balance !== null && data.balanceAfter !== null ? (
        <p className="small" data-testid="batch-plan-balance" data-balance={data.balance} data-after={data.balanceAfter}>
          {t('balance', { value: data.balance })} ·{' '}
          {data.balanceAfter < 0 ? <strong className="balance-short">{t('balanceShort', { value: -data.balanceAfter })}</strong> : t('balanceAfter', { value: data.balanceAfter })}
        </p>
      ) : (
        <p className="small muted">{t('balanceUnknown')}</p>
      )}
      {data.problems.length > 0 ? (
        <div className="batch-problems batch-plan-problems" data-testid="batch-plan-problems">
          <p>{t('problems', { count: data.problems.length })}</p>
          <ul tabIndex={0} aria-label={t('problemsLabel')}>
            {data.problems.map((p, i) => (
              <li key={i} data-code={p.code}>
                {t('problemLine', { sku: p.sku, shot: p.shotName, message: p.message })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {data.perProduct.length > 0 ? <PerProductTable data={data} /> : null}
    </>
  );
}

function PerProductTable({ data }: { data: BatchPlan }) {
  const t = useText(batchText);
  // Its rows are made only while it is open: a closed table of 1,000 products was 5,000 elements made again with
  // every re-pricing of the plan.
  const [open, setOpen] = useState(false);
  return (
    <details className="batch-plan-details" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="small">{t('planTableShow', { count: data.perProduct.length })}</summary>
      {open ? (
        <div className="batch-table-scroll batch-plan-scroll" tabIndex={0} role="region" aria-label={t('planTable')}>
          <table className="table batch-table">
            <TableHead names={[t('colSku'), t('colName')]} numbers={[t('colJobs'), t('colCredits')]} />
            <tbody>
              {data.perProduct.map((p) => (
                <tr key={p.productId} data-testid="plan-row" data-sku={p.sku}>
                  <td className="mono">{p.sku}</td>
                  <td>{p.name}</td>
                  <td className="batch-num">{p.jobs}</td>
                  <td className="batch-num">{p.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </details>
  );
}

/** Budget and concurrency, the two numbers the designer sets before Start. */
function StartFields({ budget, data, concurrencyValid }: { budget: Budget; data: BatchPlan | null; concurrencyValid: boolean }) {
  const t = useText(batchText);
  const id = useId();
  const concurrency = useBatchStore((s) => s.concurrency);
  const setConcurrency = useBatchStore((s) => s.setConcurrency);
  return (
    <>
      <Field id={`${id}-budget`} label={t('budget')} hint={<span data-testid="batch-budget-fit">{budgetHint(budget, data, t)}</span>}>
        <input
          id={`${id}-budget`}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          className="input-medium"
          data-testid="batch-budget"
          value={budget.budgetText}
          aria-invalid={budget.invalid}
          aria-describedby={`${id}-budget-hint`}
          onChange={budget.onChange}
        />
      </Field>
      <Field id={`${id}-concurrency`} label={t('concurrency')} hint={t('concurrencyHint')}>
        <input
          id={`${id}-concurrency`}
          type="number"
          min={1}
          max={BATCH_CONCURRENCY_MAX}
          step={1}
          className="input-narrow"
          data-testid="batch-concurrency"
          value={Number.isNaN(concurrency) ? '' : concurrency}
          aria-invalid={!concurrencyValid}
          aria-describedby={`${id}-concurrency-hint`}
          onChange={(e) => setConcurrency(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        />
      </Field>
    </>
  );
}

/** Why Start cannot go, or what it will do first, written beside the button. */
function StartNote({ draft, priced }: { draft: ShotListDraft | null; priced: boolean }) {
  const t = useText(planText);
  if (!priced) return draft ? <span className="small hint-warn batch-start-note" data-testid="batch-start-reason">{t('cannotPrice')}</span> : null;
  if (!draft) return null;
  return (
    <span className="small hint-warn batch-start-note" data-testid="batch-start-unsaved">
      {t('unsavedStart')}
    </span>
  );
}

export function PlanSection({ productIds, shotListId }: { productIds: string[]; shotListId: string | null }) {
  const t = useText(batchText);
  const pt = useText(planText);
  const concurrency = useBatchStore((s) => s.concurrency);
  const draft = useBatchStore((s) => (s.draft !== null && s.draft.listId === shotListId ? s.draft : null));
  const budget = useBudget();
  const concurrencyValid = Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= BATCH_CONCURRENCY_MAX;
  const { wanted, input, plan, data, fresh, pricing } = usePricedPlan(productIds, shotListId, budget.budget, draft);
  const starter = useStartBatch({ input, data, draft, concurrency, refetch: () => plan.refetch() });

  return (
    <BatchCard
      title={t('plan')}
      testId="batch-plan"
      head={
        <>
          {wanted && pricing ? (
            <span className="small muted" role="status">
              {t('planLoading')}
            </span>
          ) : null}
        </>
      }
    >
      {!wanted ? <p className="muted small">{t('planNeeds')}</p> : null}
      {wanted ? <ErrorLine error={plan.error} testId="batch-plan-error" showCode /> : null}
      {data ? <PlanSummary data={data} /> : null}
      <div className="batch-start-row">
        <StartFields budget={budget} data={data} concurrencyValid={concurrencyValid} />
        <span className="spacer" />
        <StartNote draft={draft} priced={wanted === null || plan.error === null} />
        <button
          type="button"
          className="btn btn-primary batch-start"
          data-testid="batch-start"
          data-unsaved={draft !== null}
          disabled={!data || !fresh || data.jobs.length === 0 || budget.invalid || !concurrencyValid || starter.busy}
          onClick={starter.start}
        >
          {starter.busy ? t('starting') : draft ? pt('saveAndStart') : t('start')}
        </button>
      </div>
      {starter.planChanged ? (
        <p className="hint-warn" role="status" data-testid="batch-plan-changed">
          {t('planChanged')}
        </p>
      ) : null}
      <ErrorLine error={starter.error} testId="batch-start-error" showCode />
      {starter.asking && data ? <StartWarning data={data} run={(only) => void starter.run(only)} cancel={starter.cancel} /> : null}
    </BatchCard>
  );
}
