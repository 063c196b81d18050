// The jobs of a batch, one row each (SKU, shot, model, estimate, charged, status, error and request id, the
// unknown-outcome note, result thumbnails large enough to judge that open the viewer in the job's cell, as Enter on
// the board does). A batch can hold 1,000 jobs, so the list is virtualised (@tanstack/react-virtual, as the gallery
// grid): only the rows near the viewport are in the DOM, each measured once it renders since an error or a note
// makes a row taller. The list scrolls with its column (the page on a narrow window), never in a scroll box of its
// own: one scroll area per column.
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef } from 'react';
import type { BatchJob } from '../../../src-shared/ipc/batch.ts';
import { chooseAutoModel } from '../../../src-shared/pricing.ts';
import { useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { jobCellImages } from '../../lib/library-state/cell-scope.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { LIST_NEAR, LIST_WHOLE_UP_TO, overscanFor, useColumnScroll } from './column-scroll.ts';
import { batchText } from './i18n.ts';
import { JobStatusBadge } from './parts.tsx';
import { CellRerun, JobRetry } from './Reruns.tsx';

const ROW_ESTIMATE = 104;

/** The model the job goes to: its own, or what auto chooses for it (the service's own choice function). */
function modelOf(job: BatchJob, auto: string): string {
  const asked = job.request.model ?? 'auto';
  if (asked !== 'auto') return asked;
  const choice = chooseAutoModel(job.request.prompt, job.request.ref_image_ids?.length ?? 0);
  return choice.ok ? `${auto} → ${choice.model}` : auto;
}

const JobRow = memo(function JobRow({ job, batchId }: { job: BatchJob; batchId: string }) {
  const t = useText(batchText);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const client = useQueryClient();
  const model = modelOf(job, t('auto'));
  // The viewer stays in the job's cell ("1 / 2 in SKU-001 · main"), with the cell's pick, as from the board.
  const open = (imageId: string) => {
    const { ids, index, scope } = jobCellImages(client, { batchId, productId: job.productId, sku: job.sku, shot: job.shotName, imageIds: job.imageIds }, imageId);
    openViewer(ids, index, scope);
  };
  return (
    <div className="batch-job-main">
      <span className="batch-job-pos muted">{job.position + 1}</span>
      <span className="batch-job-what">
        <span className="mono batch-job-sku">{job.sku}</span>
        <span className="batch-job-shot">{job.shotName}</span>
        <span className="muted small batch-job-model">{model}</span>
        {job.origin !== 'plan' ? (
          <span className="batch-job-origin small" data-testid="batch-job-origin" data-origin={job.origin}>
            {t(job.origin === 'retry' ? 'originRetry' : 'originRerun')}
          </span>
        ) : null}
      </span>
      <span className="batch-job-money small">
        <span>{t('estimateShort', { value: job.estimate })}</span>
        {job.creditsCharged !== null ? <span className="batch-job-charged">{t('chargedShort', { value: job.creditsCharged })}</span> : null}
      </span>
      <span className="batch-job-status">
        <JobStatusBadge status={job.status} />
      </span>
      {job.imageIds.length > 0 ? (
        <ul className="batch-job-thumbs">
          {job.imageIds.map((imageId, i) => (
            <li key={imageId}>
              <button type="button" className="batch-job-thumb" aria-label={t('openResult', { index: i + 1, sku: job.sku, shot: job.shotName })} onClick={() => open(imageId)}>
                <img src={imageUrl('thumb', imageId)} alt="" loading="lazy" draggable={false} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {job.error || job.note || job.requestId ? (
        <div className="batch-job-detail small">
          {job.error ? (
            <span className="batch-job-error" data-code={job.error.code}>
              {job.error.message} <code>{job.error.code}</code>
            </span>
          ) : null}
          {job.note ? <span className="batch-job-note">{job.note}</span> : null}
          {job.requestId ? (
            <span className="request-id-wrap">
              <span className="muted">{t('requestId')}</span> <code data-testid="batch-job-request-id">{job.requestId}</code>
              <CopyButton text={job.requestId} />
            </span>
          ) : null}
        </div>
      ) : null}
      {job.status !== 'queued' && job.status !== 'running' ? (
        <div className="batch-job-detail batch-job-actions small">
          <JobRetry batchId={batchId} job={job} />
          <CellRerun batchId={batchId} job={job} />
        </div>
      ) : null}
    </div>
  );
});

export function JobList({ jobs, label, batchId }: { jobs: BatchJob[]; label: string; batchId: string }) {
  const listRef = useRef<HTMLDivElement>(null);
  const { scrollElement, start } = useColumnScroll(listRef);
  // The virtualizer hands out fresh functions each render; the compiler skips this component, as in GalleryList.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: jobs.length,
    getScrollElement: scrollElement,
    estimateSize: () => ROW_ESTIMATE,
    overscan: overscanFor(jobs.length, LIST_WHOLE_UP_TO, LIST_NEAR),
    scrollMargin: start,
    getItemKey: (i) => jobs[i]?.id ?? i,
  });
  const items = virtualizer.getVirtualItems();
  return (
    // A focus stop of its own (keyboard users reach the rows' buttons from here), but no scroll box.
    <div className="batch-jobs-scroll" ref={listRef} tabIndex={0} role="region" aria-label={label} data-testid="batch-jobs" data-count={jobs.length}>
      <ul className="batch-jobs" style={{ height: virtualizer.getTotalSize() }} aria-label={label}>
        {items.map((item) => {
          const job = jobs[item.index];
          if (!job) return null;
          return (
            <li
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className={`batch-job batch-job-${job.status}`}
              data-testid="batch-job"
              data-job-id={job.id}
              data-status={job.status}
              data-sku={job.sku}
              data-shot={job.shotName}
              aria-setsize={jobs.length}
              aria-posinset={item.index + 1}
              style={{ transform: `translateY(${item.start - start}px)` }}
            >
              <JobRow job={job} batchId={batchId} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
