// The batch on show (the newest, or one reopened from the list): its progress (every job in one part: done, failed,
// unknown, over budget, cancelled, remaining; credits spent of planned, time left; what was never sent and how to send it), why it is paused and, when it goes on by itself, a live countdown; pause, resume,
// cancel (confirmed: nothing more is sent, running jobs finish) and the concurrency while it runs; then its jobs.
import { useId, useMemo, useState, type ReactNode } from 'react';
import type { BatchDetail, BatchSummary } from '../../../src-shared/ipc/batch.ts';
import { BATCH_CONCURRENCY_MAX } from '../../../src-shared/limits.ts';
import { formatDuration, useFormats } from '../../i18n/format.ts';
import { useText, type Text } from '../../i18n/text.ts';
import { useNow } from '../../ui/useNow.ts';
import { BatchCard } from './parts.tsx';
import { batchText } from './i18n.ts';
import { JobList } from './JobList.tsx';
import { RerunBar } from './Reruns.tsx';
import { ConfirmBox } from '../../ui/ConfirmBox.tsx';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { useBatchControls } from './queries.ts';
import { useBatchStore } from './store.ts';

/**
 * The batch on show, chosen among every batch. A select cannot wrap, so the chosen option is written in a box that
 * wraps, under the real select (transparent, covering the box: its click, keys and label stay the select's).
 */
function BatchPicker({ batches, current }: { batches: BatchSummary[]; current: string }) {
  const t = useText(batchText);
  const format = useFormats();
  const id = useId();
  const setBatchId = useBatchStore((s) => s.setBatchId);
  const optionText = (b: BatchSummary) => `${t('batchOption', { name: b.name, state: stateWords(b, t) })} · ${format.dateTime(b.createdAt)}`;
  const chosen = batches.find((b) => b.id === current);
  return (
    <div className="row-gap batch-picker">
      <label className="field-label" htmlFor={`${id}-batch`}>
        {t('batchSelect')}
      </label>
      <div className="batch-picker-box">
        <span className="batch-picker-text" aria-hidden="true">
          {chosen ? optionText(chosen) : ''}
        </span>
        <select id={`${id}-batch`} data-testid="batch-select" value={current} onChange={(e) => setBatchId(e.target.value)}>
          {batches.map((b) => (
            <option key={b.id} value={b.id}>
              {optionText(b)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

type BatchT = Text<typeof batchText.en>;

/**
 * The progress line from main's parts (BatchSummary.parts): every job in one part, so what is shown adds up to the
 * total; a part that is 0 is left out, except done, failed and remaining, which are always said.
 */
function progressLine(batch: BatchSummary, t: BatchT): string {
  const p = batch.parts;
  const parts = [
    t('partDone', { count: p.done }),
    t('partFailed', { count: p.failed }),
    p.unknown > 0 ? t('partUnknown', { count: p.unknown }) : null,
    p.overBudget > 0 ? t('partOverBudget', { count: p.overBudget }) : null,
    p.cancelled > 0 ? t('partCancelled', { count: p.cancelled }) : null,
    t('partRemaining', { count: p.remaining }),
  ];
  return t('progressParts', { parts: parts.filter((x) => x !== null).join(' · '), total: batch.jobCount });
}

/** The batch's state, with the jobs never sent beside it ("Finished · 288 over budget"): never "Finished" alone then. */
function stateWords(batch: BatchSummary, t: BatchT): string {
  const p = batch.parts;
  const unsent = [p.overBudget > 0 ? t('partOverBudget', { count: p.overBudget }) : null, p.cancelled > 0 ? t('partCancelled', { count: p.cancelled }) : null];
  return [t(`state.${batch.state}`), ...unsent.filter((x) => x !== null)].join(' · ');
}

/** What was never sent and how to have it sent: "Finished" is said with these, never alone while they are left. */
function unsentNotes(batch: BatchSummary, t: BatchT): string[] {
  const p = batch.parts;
  return [p.overBudget > 0 ? t('unsentOverBudget', { count: p.overBudget }) : null, p.cancelled > 0 ? t('unsentCancelled', { count: p.cancelled }) : null].filter((x) => x !== null);
}

function Progress({ batch, budgetInputId }: { batch: BatchSummary; budgetInputId: string }) {
  const t = useText(batchText);
  const total = Math.max(1, batch.jobCount);
  const donePct = (batch.done / total) * 100;
  const failedPct = (batch.failed / total) * 100;
  const line = progressLine(batch, t);
  const unsent = unsentNotes(batch, t);
  const state = batch.state === 'running' ? (batch.etaMs !== null ? t('eta', { time: formatDuration(batch.etaMs) }) : t('etaNone')) : t(`state.${batch.state}`);
  return (
    <div
      className="batch-progress"
      data-testid="batch-progress"
      data-state={batch.state}
      data-done={batch.done}
      data-failed={batch.failed}
      data-remaining={batch.remaining}
      data-unknown={batch.parts.unknown}
      data-over-budget={batch.parts.overBudget}
      data-cancelled={batch.parts.cancelled}
      data-spent={batch.spent}
      data-planned={batch.planned}
    >
      <div className="batch-bar" role="progressbar" aria-label={t('progressLabel')} aria-valuemin={0} aria-valuemax={batch.jobCount} aria-valuenow={batch.done + batch.failed} aria-valuetext={line}>
        <span className="batch-bar-done" style={{ width: `${donePct}%` }} />
        <span className="batch-bar-failed" style={{ width: `${failedPct}%` }} />
      </div>
      <p className="batch-progress-line">
        <span data-testid="batch-progress-text">{line}</span>
        <span>{t('spentText', { spent: batch.spent, planned: batch.planned })}</span>
      </p>
      <p className="batch-progress-line muted small" data-testid="batch-progress-state">
        <span>{[state, ...unsent].join(' · ')}</span>
        {batch.parts.overBudget > 0 && batch.budget !== null ? (
          // Points at the budget below (Re-runs): raising it sends the jobs set aside.
          <button type="button" className="btn btn-xs" data-testid="batch-raise-hint" onClick={() => document.getElementById(budgetInputId)?.focus()}>
            {t('raiseBudgetHint')}
          </button>
        ) : null}
        {batch.reserved > 0 ? <span>{t('reservedText', { reserved: batch.reserved })}</span> : null}
      </p>
    </div>
  );
}

function PauseNotice({ batch }: { batch: BatchSummary }) {
  const t = useText(batchText);
  const format = useFormats();
  const until = batch.pause?.until ?? null;
  const now = useNow(until !== null, 1000);
  if (batch.state !== 'paused' || !batch.pause) return null;
  return (
    <div className="batch-paused" role="status" data-testid="batch-paused" data-reason={batch.pause.reason}>
      <span>{batch.pause.message}</span>
      {until !== null ? (
        <span className="batch-countdown" data-testid="batch-resumes-at" data-until={until}>
          {until > now ? t('resumesAt', { time: format.clock(until, now), left: formatDuration(until - now) }) : t('resumesNow')}
        </span>
      ) : null}
    </div>
  );
}

/** How many jobs of a live batch run at the same time; main takes the change for the jobs it sends next. */
function RunConcurrency({ batch, setConcurrency }: { batch: BatchSummary; setConcurrency: BatchControls['setConcurrency'] }) {
  const t = useText(batchText);
  const id = useId();
  return (
    <>
      <label className="field-label" htmlFor={`${id}-concurrency`}>
        {t('runConcurrency')}
      </label>
      <select id={`${id}-concurrency`} data-testid="batch-run-concurrency" value={batch.concurrency} disabled={setConcurrency.isPending} onChange={(e) => setConcurrency.mutate({ batchId: batch.id, concurrency: Number(e.target.value) })}>
        {Array.from({ length: BATCH_CONCURRENCY_MAX }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </>
  );
}

type BatchControls = ReturnType<typeof useBatchControls>;

function Controls({ batch }: { batch: BatchSummary }) {
  const t = useText(batchText);
  const { pause, resume, cancel, setConcurrency, busy, error } = useBatchControls();
  const [confirming, setConfirming] = useState(false);
  const live = batch.state === 'running' || batch.state === 'paused';
  // spec §7: after a 429 or the daily limit the batch goes on by itself at `until`; main refuses an earlier Resume.
  const until = batch.state === 'paused' ? (batch.pause?.until ?? null) : null;
  const waiting = useNow(until !== null, 1000) < (until ?? 0);
  if (!live) return null;
  return (
    <div className="stack">
      <div className="row-gap wrap">
        {batch.state === 'running' ? (
          <button type="button" className="btn btn-sm" data-testid="batch-pause" disabled={busy} onClick={() => pause.mutate({ batchId: batch.id })}>
            {t('pause')}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-primary"
            data-testid="batch-resume"
            disabled={busy || waiting}
            title={waiting ? t('resumeWaits') : undefined}
            onClick={() => resume.mutate({ batchId: batch.id })}
          >
            {t('resume')}
          </button>
        )}
        <button type="button" className="btn btn-sm" data-testid="batch-cancel" disabled={busy || confirming} onClick={() => setConfirming(true)}>
          {t('cancelBatch')}
        </button>
        <span className="spacer" />
        <RunConcurrency batch={batch} setConcurrency={setConcurrency} />
      </div>
      {confirming ? (
        <ConfirmBox
          label={t('cancelBatch')}
          question={t('cancelConfirm')}
          confirmLabel={t('cancelYes')}
          keepLabel={t('cancelNo')}
          testId="batch-cancel-confirm-box"
          confirmTestId="batch-cancel-confirm"
          busy={cancel.isPending}
          onConfirm={() => cancel.mutate({ batchId: batch.id }, { onSettled: () => setConfirming(false) })}
          onKeep={() => setConfirming(false)}
        />
      ) : null}
      <ErrorLine error={error} testId="batch-control-error" showCode />
    </div>
  );
}

type JobFilter = 'all' | 'problems';

export function RunSection({ batches, batch, error, exportButton }: { batches: BatchSummary[]; batch: BatchDetail | null; error: unknown; exportButton: ReactNode }) {
  const t = useText(batchText);
  const id = useId();
  const budgetInputId = `${id}-budget`;
  const [filter, setFilter] = useState<JobFilter>('all');
  const jobs = useMemo(() => {
    const all = batch?.jobs ?? [];
    return filter === 'all' ? all : all.filter((j) => j.status === 'failed' || j.status === 'unknown' || j.status === 'over_budget');
  }, [batch, filter]);
  return (
    <BatchCard
      title={t('run')}
      testId="batch-run"
      className="batch-run"
      head={
        <>
          <span className="spacer" />
          {batch ? exportButton : null}
          {/* On a line of its own under the title and Export (batch.css): the whole option is read. */}
          {batch ? <BatchPicker batches={batches.some((b) => b.id === batch.id) ? batches : [batch, ...batches]} current={batch.id} /> : null}
        </>
      }
    >
      <ErrorLine error={error} testId="batch-error" showCode />
      {!batch ? (
        <p className="muted small">{t('noBatch')}</p>
      ) : (
        <>
          <Progress batch={batch} budgetInputId={budgetInputId} />
          <PauseNotice batch={batch} />
          <Controls batch={batch} />
          <RerunBar batch={batch} budgetInputId={budgetInputId} />
          <div className="row-gap batch-jobs-head">
            <h3 className="batch-subtitle">{t('jobs')}</h3>
            <span className="spacer" />
            <label className="field-label" htmlFor={`${id}-filter`}>
              {t('filterJobs')}
            </label>
            <select id={`${id}-filter`} data-testid="batch-job-filter" value={filter} onChange={(e) => setFilter(e.target.value as JobFilter)}>
              <option value="all">{t('filterAll')}</option>
              <option value="problems">{t('filterProblems')}</option>
            </select>
          </div>
          {jobs.length === 0 ? <p className="muted small">{t('jobsEmpty')}</p> : <JobList jobs={jobs} label={t('jobsList', { count: jobs.length })} batchId={batch.id} />}
        </>
      )}
    </BatchCard>
  );
}
