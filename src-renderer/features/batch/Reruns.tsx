// Re-runs inside a batch (src-shared/ipc/batch-reruns.ts), as main decides them: a failed job's Retry (disabled
// with the reason main gives when spec §7 does not allow it), a cell's Re-shoot with a prompt tweak priced before
// it is sent, the budget raised, and "only what is missing" (its count and price asked first, then confirmed).
// Main owns every rule; these only show its answers. `JobRetry` and `CellRerun` take a job of the cell, so the
// product × shot board can host them as the job list does.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { IMAGE_COUNTS, MODEL_IDS, type ImageCount, type ModelId } from '../../../src-shared/catalog.ts';
import type { BatchDetail, BatchJob, BatchSummary } from '../../../src-shared/ipc/batch.ts';
import type { FinishAnswer } from '../../../src-shared/ipc/batch-reruns.ts';
import { call } from '../../lib/desktop.ts';
import type { MethodInputOf, MethodOutputOf } from '../../lib/ipc-types.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useTemplatedText, useText } from '../../i18n/text.ts';
import { ConfirmBox } from '../../ui/ConfirmBox.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { batchText } from './i18n.ts';
import { batchKeys, useHeldBatchBudget } from './queries.ts';

type RerunMethod = 'batchRetryJob' | 'batchRerunCell' | 'batchRaiseBudget' | 'batchFinish';

/** The prefix of every re-shoot price asked (useRerunPrice). */
const RERUN_PRICE = ['batch', 'rerun-price'] as const;

/** One re-run call; on success the batch (detail, list, report) and the balance are read again. */
function useRerun<K extends RerunMethod>(name: K) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MethodInputOf<K>) => call(name, input) as Promise<MethodOutputOf<K>>,
    onSuccess: (_value, input) => {
      void client.invalidateQueries({ queryKey: batchKeys.detail(input.batchId) });
      void client.invalidateQueries({ queryKey: batchKeys.report(input.batchId) });
      void client.invalidateQueries({ queryKey: batchKeys.batches() });
      void client.invalidateQueries({ queryKey: queryKeys.localStatus() });
      // What a re-shoot would cost against what the budget leaves changed with this (a raise, a job added).
      void client.invalidateQueries({ queryKey: RERUN_PRICE });
    },
  });
}

/** Retry by hand of a failed or unknown job: a new job of the batch; when not allowed, disabled with main's reason. */
/** Whether a job holds a retry by hand at all: only a failed or unknown one (main's policy says if it may). */
const holdsRetry = (job: BatchJob) => job.status === 'failed' || job.status === 'unknown';

export function JobRetry({ batchId, job }: { batchId: string; job: BatchJob }) {
  const t = useText(batchText);
  const retry = useRerun('batchRetryJob');
  // A refusal answers the batch as it was (over budget: "30 left, budget 1500"): once the budget changes it is no
  // longer true, so it is shown only under the budget it was given under (the button asks again).
  const budget = useHeldBatchBudget(batchId);
  const [askedUnder, setAskedUnder] = useState<number | null | undefined>(undefined);
  const error = retry.error && askedUnder === budget ? retry.error : null;
  if (!holdsRetry(job)) return null;
  const reason = job.retry.allowed ? null : job.retry.message;
  return (
    <span className="batch-rerun-inline">
      <button
        type="button"
        className="btn btn-xs"
        data-testid="job-retry"
        data-allowed={job.retry.allowed}
        data-reason={job.retry.reason ?? undefined}
        aria-label={t('retryJobLabel', { sku: job.sku, shot: job.shotName })}
        title={reason ? t('retryNotAllowed', { reason }) : t('retryJobLabel', { sku: job.sku, shot: job.shotName })}
        disabled={!job.retry.allowed || retry.isPending}
        onClick={() => {
          setAskedUnder(budget);
          retry.mutate({ batchId, jobId: job.id });
        }}
      >
        {t('retryJob')}
      </button>
      {reason ? (
        <span className="batch-rerun-reason" data-testid="job-retry-reason">
          {reason}
        </span>
      ) : null}
      <ErrorLine error={error} testId="job-retry-error" showCode />
    </span>
  );
}

/** What a re-shoot would cost and what the budget leaves, asked of main (nothing is added). */
function useRerunPrice(input: MethodInputOf<'batchRerunCell'> | null) {
  const language = useLanguage();
  return useQuery({
    queryKey: [...RERUN_PRICE, input, language],
    queryFn: () => call('batchRerunCell', { ...(input as MethodInputOf<'batchRerunCell'>), dryRun: true }),
    enabled: input !== null,
    staleTime: 0,
    retry: false,
  });
}

/** One setting of a re-shoot: "as before" (the empty value), or another of `values`. */
function SameOrOther(props: { id: string; label: string; testId: string; same: string; values: readonly (string | number)[]; value: string | number; onChange: (value: string) => void; nameOf?: (value: string) => string }) {
  const name = props.nameOf ?? String;
  const options = [{ key: '', text: props.same }, ...props.values.map((v) => ({ key: String(v), text: name(String(v)) }))];
  return (
    <>
      <label className="field-label" htmlFor={props.id}>
        {props.label}
      </label>
      <select id={props.id} data-testid={props.testId} value={String(props.value)} onChange={(e) => props.onChange(e.target.value)}>
        {options.map((o) => <option key={o.key} value={o.key}>{o.text}</option>)}
      </select>
    </>
  );
}

/**
 * Keys typed in the dialog are its own: the board's grid keys (P, X, 1–5, arrows, Enter) must not mark a candidate
 * behind it. React bubbles a portal's keys to its React parents (the cell), so they stop here; Escape goes on, to
 * the dialog's own Escape (a window listener) that closes it.
 */
function keepKeysInside(e: KeyboardEvent) {
  if (e.key !== 'Escape') e.stopPropagation();
}

function RerunDialog({ batchId, job, onClose }: { batchId: string; job: BatchJob; onClose: () => void }) {
  const t = useText(batchText);
  const id = useId();
  const [tweak, setTweak] = useState('');
  const [model, setModel] = useState<ModelId | ''>('');
  const [n, setN] = useState<ImageCount | 0>(0);
  const rerun = useRerun('batchRerunCell');
  const cell = { batchId, productId: job.productId, shotName: job.shotName, ...(model !== '' ? { model } : {}), ...(n !== 0 ? { settings: { n } } : {}) };
  // The price depends on the model and the count, not on the words of the tweak: asked again when those change.
  const price = useRerunPrice(cell);
  const priced = price.data;
  const done = rerun.data;
  // Model ids are names the designer knows; only auto is said in the UI language.
  const modelName = (m: string) => (m === 'auto' ? t('auto') : m);
  const footer = (
    <>
      <button type="button" className="btn" data-testid="cell-rerun-close" onClick={onClose}>
        {t('rerunClose')}
      </button>
      <button
        type="button"
        className="btn btn-primary"
        data-testid="cell-rerun-send"
        disabled={!priced || rerun.isPending || done !== undefined}
        onClick={() => rerun.mutate({ ...cell, ...(tweak.trim() !== '' ? { promptTweak: tweak } : {}) })}
      >
        {t('rerunSend')}
      </button>
    </>
  );
  // Portalled into <body>: a modal over the whole window, not a box squeezed into a job row or a board cell.
  return createPortal(
    <div className="batch-rerun-keys" onKeyDown={keepKeysInside}>
      <Dialog
        title={t('rerunTitle', { sku: job.sku, shot: job.shotName })}
        description={job.request.prompt}
        testId="cell-rerun-dialog"
        className="batch-rerun-dialog"
        closeLabel={t('rerunClose')}
        busy={false}
        onClose={onClose}
        footer={footer}
      >
        <div className="field">
          <label className="field-label" htmlFor={`${id}-tweak`}>
            {t('rerunTweak')}
          </label>
          <input id={`${id}-tweak`} type="text" data-testid="cell-rerun-tweak" value={tweak} placeholder={t('rerunTweakPlaceholder')} maxLength={500} onChange={(e) => setTweak(e.target.value)} />
        </div>
        <div className="batch-rerun-settings">
          <SameOrOther id={`${id}-model`} label={t('rerunModel')} testId="cell-rerun-model" same={t('rerunSame', { value: modelName(job.request.model ?? 'auto') })} values={MODEL_IDS} nameOf={modelName} value={model} onChange={(v) => setModel(v as ModelId | '')} />
          <SameOrOther id={`${id}-n`} label={t('rerunCount')} testId="cell-rerun-n" same={t('rerunSame', { value: job.request.n ?? 1 })} values={IMAGE_COUNTS} value={n === 0 ? '' : n} onChange={(v) => setN(v === '' ? 0 : (Number(v) as ImageCount))} />
        </div>
        <p className="batch-rerun-price" data-testid="cell-rerun-price" data-price={priced?.estimate} data-left={priced?.left ?? undefined}>
          {priced ? (priced.left === null ? t('rerunPrice', { price: priced.estimate }) : t('rerunPriceLeft', { price: priced.estimate, left: priced.left })) : price.isPending ? t('rerunPricing') : null}
        </p>
        <ErrorLine error={price.error ?? rerun.error} testId="cell-rerun-error" showCode />
        {done ? (
          <p className="small hint-ok" role="status" data-testid="cell-rerun-done">
            {done.batch.state === 'paused' ? t('rerunPaused') : t('rerunQueued')}
          </p>
        ) : null}
      </Dialog>
    </div>,
    document.body,
  );
}

/** Re-shoot of the job's cell (its product × shot) as a new job of the batch; a dialog asks for a tweak and shows the price. */
export function CellRerun({ batchId, job }: { batchId: string; job: BatchJob }) {
  // Drawn in every cell of a board: its texts are filled from templates.
  const t = useTemplatedText(batchText);
  // The dialog keeps the job it was opened on: once sent, the cell's latest job is the new one (queued) and the old
  // one is replaced, yet the dialog stays to say what happened until the designer closes it.
  const [openOn, setOpenOn] = useState<BatchJob | null>(null);
  const offered = job.status !== 'queued' && job.status !== 'running' && job.replacedBy === null;
  const button = offered ? (
    <button type="button" className="btn btn-xs" data-testid="cell-rerun" aria-haspopup="dialog" aria-expanded={openOn !== null} aria-label={t('rerunCellLabel', { sku: job.sku, shot: job.shotName })} onClick={() => setOpenOn(openOn ? null : job)}>
      {t('rerunCell')}
    </button>
  ) : null;
  // No wrapper (a board draws one in each of its cells): the dialog is portalled into <body>.
  return (
    <>
      {button}
      {openOn ? <RerunDialog batchId={batchId} job={openOn} onClose={() => setOpenOn(null)} /> : null}
    </>
  );
}

/** Each batch detail's jobs by id, built once per detail the cache holds (a board shows many cells of one detail). */
const jobsById = new WeakMap<BatchDetail, Map<string, BatchJob>>();
/** A job of the batch detail by its id; null while the detail is not read or the job is not in it. */
export function jobOf(detail: BatchDetail | undefined, jobId: string | null): BatchJob | null {
  if (!detail || jobId === null) return null;
  let byId = jobsById.get(detail);
  if (!byId) {
    byId = new Map(detail.jobs.map((j) => [j.id, j]));
    jobsById.set(detail, byId);
  }
  return byId.get(jobId) ?? null;
}

/**
 * Retry and Re-shoot for one cell of the product × shot board: `job` is the cell's latest job (its `jobIds`' last),
 * read by the board from the batch detail the Catalog already holds (no call, and no query of its own per cell).
 */
export function CellActions({ batchId, job }: { batchId: string; job: BatchJob }) {
  return (
    // Rendered for a queued or running job too: a re-shoot dialog opened on the cell stays open after its send.
    // Keys on these buttons and in the dialog are theirs, not the board grid's (P, X, 1–5, arrows, Enter). A grid row
    // holds only cells: the actions are a cell of their own.
    <div role="gridcell" className="catalog-board-cell-actions batch-cell-actions small" onKeyDown={keepKeysInside}>
      {/* Only a failed or unknown job holds a retry (and its mutation): a board mounts hundreds of done cells. */}
      {holdsRetry(job) ? <JobRetry batchId={batchId} job={job} /> : null}
      <CellRerun batchId={batchId} job={job} />
    </div>
  );
}

function BudgetRaise({ batch, inputId }: { batch: BatchSummary; inputId: string }) {
  const t = useText(batchText);
  const raise = useRerun('batchRaiseBudget');
  const [text, setText] = useState(String(batch.budget ?? ''));
  const value = Number(text);
  const readable = text.trim() !== '' && Number.isInteger(value) && value >= 1;
  return (
    <div className="row-gap wrap batch-budget-raise">
      <label className="field-label" htmlFor={inputId} title={t('budgetRaiseLabel')}>
        {t('budgetLabel')}
      </label>
      <input id={inputId} type="number" min={1} step={1} className="batch-budget-input" data-testid="budget-raise-input" value={text} onChange={(e) => setText(e.target.value)} />
      <button type="button" className="btn btn-sm" data-testid="budget-raise" disabled={!readable || raise.isPending || value === batch.budget} onClick={() => raise.mutate({ batchId: batch.id, budget: value })}>
        {t('budgetRaise')}
      </button>
      <span className="muted small">{t('budgetNow', { budget: batch.budget ?? '', committed: batch.spent + batch.reserved })}</span>
      <ErrorLine error={raise.error} testId="budget-raise-error" showCode />
    </div>
  );
}

/** The cells "only what is missing" does not send, each with main's reason. */
function SkippedCells({ answer }: { answer: FinishAnswer }) {
  const t = useText(batchText);
  return (
    <ul className="batch-finish-skipped">
      {answer.skipped.map((s) => (
        <li key={s.jobId} data-sku={s.sku} data-shot={s.shotName} data-reason={s.reason}>
          {t('finishSkippedLine', { sku: s.sku, shot: s.shotName, message: s.message })}
        </li>
      ))}
    </ul>
  );
}

function FinishQuestion({ answer, busy, onConfirm, onKeep }: { answer: FinishAnswer; busy: boolean; onConfirm: () => void; onKeep: () => void }) {
  const t = useText(batchText);
  const skipped = answer.skipped.length > 0 ? (
    <div className="small" data-testid="batch-finish-skipped">
      <p>{t('finishSkipped')}</p>
      <SkippedCells answer={answer} />
    </div>
  ) : null;
  if (answer.jobs === 0) {
    // Nothing to send: either nothing is missing, or shots lack a result that none can be sent for (each says why).
    return (
      <div className="stack" data-testid="batch-finish-answer" data-jobs={0} data-total={0} data-missing={answer.missing}>
        {answer.missing === 0 ? (
          <p className="small" role="status">
            {t('finishNothing')}
          </p>
        ) : (
          <div className="small" role="status" data-testid="batch-finish-skipped">
            <p>{t('finishNoneSendable', { count: answer.missing })}</p>
            <SkippedCells answer={answer} />
          </div>
        )}
      </div>
    );
  }
  const question = `${t('finishAsk', { count: answer.jobs, total: answer.total })}${answer.left !== null ? ` ${t('finishFits', { fits: answer.withinBudget, left: answer.left })}` : ''}`;
  return (
    <div className="stack" data-testid="batch-finish-answer" data-jobs={answer.jobs} data-total={answer.total} data-missing={answer.missing}>
      <ConfirmBox label={t('finish')} question={question} confirmLabel={t('finishYes')} keepLabel={t('finishNo')} confirmTestId="batch-finish-confirm" busy={busy} onConfirm={onConfirm} onKeep={onKeep} />
      {skipped}
    </div>
  );
}

/** What "only what is missing" answers from: a job ending, a re-run or a new budget changes it. */
function finishFacts(batch: BatchSummary): string {
  return JSON.stringify([batch.state, batch.budget, batch.counts, batch.reruns.jobs]);
}

/**
 * "Only what is missing": main answers how many jobs and their price first; they are sent once confirmed. The
 * answer is of the batch as it is: when the batch changes (a re-shoot made a cell, a job ended, a new budget) the
 * answer on show is dropped and asked again (its key holds the batch's facts).
 */
function BatchFinish({ batch }: { batch: BatchSummary }) {
  const t = useText(batchText);
  const language = useLanguage();
  const [asked, setAsked] = useState(false);
  const question = useQuery({
    queryKey: ['batch', 'finish-question', batch.id, finishFacts(batch), language],
    queryFn: () => call('batchFinish', { batchId: batch.id, dryRun: true }),
    enabled: asked,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const send = useRerun('batchFinish');
  const answer = asked && !send.isSuccess ? (question.data ?? null) : null;
  return (
    <div className="stack">
      <div className="row-gap">
        <button
          type="button"
          className="btn btn-sm"
          data-testid="batch-finish"
          disabled={question.isFetching || send.isPending}
          onClick={() => {
            send.reset();
            if (asked) void question.refetch();
            else setAsked(true);
          }}
        >
          {t('finish')}
        </button>
      </div>
      {answer ? <FinishQuestion answer={answer} busy={send.isPending} onConfirm={() => send.mutate({ batchId: batch.id }, { onSuccess: () => setAsked(false) })} onKeep={() => setAsked(false)} /> : null}
      <ErrorLine error={(asked ? question.error : null) ?? send.error} testId="batch-finish-error" showCode />
    </div>
  );
}

/** Under the run controls: the budget (when the batch has one), "only what is missing", and what re-runs cost so far. */
export function RerunBar({ batch, budgetInputId }: { batch: BatchSummary; budgetInputId: string }) {
  const t = useText(batchText);
  return (
    <div className="stack batch-rerun-bar" data-testid="batch-reruns" data-jobs={batch.reruns.jobs} data-estimated={batch.reruns.estimated} data-charged={batch.reruns.charged}>
      <div className="row-gap wrap">
        {batch.budget !== null ? <BudgetRaise key={`${batch.id}-${batch.budget}`} batch={batch} inputId={budgetInputId} /> : null}
        <span className="spacer" />
        <BatchFinish key={batch.id} batch={batch} />
      </div>
      {batch.reruns.jobs > 0 ? <p className="muted small">{t('rerunsLine', { ...batch.reruns, count: batch.reruns.jobs })}</p> : null}
    </div>
  );
}
