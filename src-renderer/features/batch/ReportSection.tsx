// The batch report: per product its results as thumbnails (from the batch detail the Catalog holds), what was
// estimated, charged and refunded, how many images, and every failure with its code and request id; in total
// too; written as CSV (main asks for the folder). Loaded when opened and kept fresh by the batch's events.
import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useId, useMemo, useState } from 'react';
import type { BatchDetail, BatchReport, BatchReportRow } from '../../../src-shared/ipc/batch.ts';
import { useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { productResultImages } from '../../lib/library-state/cell-scope.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { BatchCard, TableHead } from './parts.tsx';
import { batchText } from './i18n.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { useBatchDetail, useBatchReport, useBatchReportCsv } from './queries.ts';

type Counts = Omit<BatchReportRow, 'productId' | 'sku' | 'name' | 'failures'>;

function Cells({ row }: { row: Counts }) {
  return (
    <>
      <td className="batch-num">{row.jobs}</td>
      <td className="batch-num">{row.succeeded}</td>
      <td className="batch-num">{row.failed}</td>
      <td className="batch-num">{row.unknown}</td>
      <td className="batch-num">{row.notSent}</td>
      <td className="batch-num">{row.images}</td>
      <td className="batch-num">{row.estimated}</td>
      <td className="batch-num">{row.charged}</td>
      <td className="batch-num">{row.refunded}</td>
    </>
  );
}

/** The report's number columns, in the order Cells writes them. */
const REPORT_NUMBERS = ['colJobs', 'colSucceeded', 'colFailed', 'colUnknown', 'colNotSent', 'colImages', 'colEstimated', 'colCharged', 'colRefunded'] as const;

/** Thumbnails shown per product before "+n": enough to judge the set, a row that stays one line. */
const THUMBS_SHOWN = 6;

type Result = { imageId: string; shot: string };

/** Each product's result images in job order, with the shot each belongs to. */
function resultsByProduct(detail: BatchDetail | undefined): Map<string, Result[]> {
  const byProduct = new Map<string, Result[]>();
  for (const job of detail?.jobs ?? []) {
    if (job.imageIds.length === 0) continue;
    const list = byProduct.get(job.productId) ?? [];
    for (const imageId of job.imageIds) list.push({ imageId, shot: job.shotName });
    byProduct.set(job.productId, list);
  }
  return byProduct;
}

/** A product's results as thumbnails that open the viewer on the product ("3 / 8 in SKU-001"), as the board does. */
function ProductResults({ batchId, productId, sku, results }: { batchId: string; productId: string; sku: string; results: Result[] }) {
  const t = useText(batchText);
  const client = useQueryClient();
  const openViewer = useGalleryStore((s) => s.openViewer);
  const ids = results.map((r) => r.imageId);
  const open = (imageId: string) => {
    const scoped = productResultImages(client, batchId, { productId, sku }, ids, imageId);
    openViewer(scoped.ids, scoped.index, scoped.scope);
  };
  return (
    <ul className="batch-report-thumbs">
      {results.slice(0, THUMBS_SHOWN).map((r, i) => (
        <li key={r.imageId}>
          <button type="button" className="batch-job-thumb batch-report-thumb" aria-label={t('openResult', { index: i + 1, sku, shot: r.shot })} onClick={() => open(r.imageId)}>
            <img src={imageUrl('thumb', r.imageId)} alt="" loading="lazy" draggable={false} />
          </button>
        </li>
      ))}
      {results.length > THUMBS_SHOWN ? <li className="muted small batch-report-more">{t('moreResults', { count: results.length - THUMBS_SHOWN })}</li> : null}
    </ul>
  );
}

function ReportTable({ report, batchId }: { report: BatchReport; batchId: string }) {
  const t = useText(batchText);
  const detail = useBatchDetail(batchId).data;
  const results = useMemo(() => resultsByProduct(detail), [detail]);
  return (
    <div className="batch-table-scroll batch-report-scroll" tabIndex={0} role="region" aria-label={t('reportTable')}>
      <table className="table batch-table batch-report-table">
        <TableHead names={[t('colSku'), t('colName'), t('colResults')]} numbers={REPORT_NUMBERS.map((key) => t(key))} />
        <tbody>
          {report.products.map((row) => (
            <Fragment key={row.productId}>
              <tr data-testid="batch-report-row" data-sku={row.sku} data-charged={row.charged} data-images={row.images}>
                <td className="mono">{row.sku}</td>
                <td>{row.name}</td>
                <td>
                  <ProductResults batchId={batchId} productId={row.productId} sku={row.sku} results={results.get(row.productId) ?? []} />
                </td>
                <Cells row={row} />
              </tr>
              {row.failures.length > 0 ? (
                <tr className="batch-report-failures">
                  <td colSpan={12}>
                    <ul>
                      {row.failures.map((f) => (
                        <li key={f.jobId} data-code={f.code}>
                          {t('failureLine', { shot: f.shotName, message: f.message })} <code>{f.code}</code>{' '}
                          {f.requestId ? (
                            <span className="request-id-wrap">
                              {t('requestId')} <code>{f.requestId}</code>
                              <CopyButton text={f.requestId} />
                            </span>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          ))}
        </tbody>
        <tfoot>
          <tr
            className="batch-report-total"
            data-testid="batch-report-total"
            data-jobs={report.total.jobs}
            data-images={report.total.images}
            data-estimated={report.total.estimated}
            data-charged={report.total.charged}
            data-refunded={report.total.refunded}
            data-failures={report.total.failures}
          >
            <th scope="row" colSpan={3}>
              {t('total')}
            </th>
            <Cells row={report.total} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function ReportSection({ batchId }: { batchId: string }) {
  const t = useText(batchText);
  const id = useId();
  const [open, setOpen] = useState(false);
  const report = useBatchReport(batchId, open);
  const csv = useBatchReportCsv();
  return (
    <BatchCard
      title={t('report')}
      testId="batch-report"
      head={
        <>
          <span className="spacer" />
          <button type="button" className="btn btn-sm" data-testid="batch-report-toggle" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen(!open)}>
            {open ? t('reportHide') : t('reportShow')}
          </button>
          <button type="button" className="btn btn-sm" data-testid="batch-report-csv" disabled={csv.isPending} onClick={() => csv.mutate({ batchId })}>
            {t('reportCsv')}
          </button>
        </>
      }
    >
      {csv.data ? (
        <p className="small" role="status" data-testid="batch-report-csv-result">
          {csv.data.file === null ? t('exportCancelled') : t('reportCsvWritten', { file: csv.data.file })}
        </p>
      ) : null}
      <ErrorLine error={csv.error} testId="batch-error" showCode />
      <div id={`${id}-body`} hidden={!open}>
        {open ? (
          <>
            <ErrorLine error={report.error} testId="batch-report-error" showCode />
            {report.data ? <ReportTable report={report.data} batchId={batchId} /> : report.isPending ? <p className="small muted">…</p> : null}
          </>
        ) : null}
      </div>
    </BatchCard>
  );
}
