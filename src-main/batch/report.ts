// The report of a batch: per product and in total, jobs by outcome, images, credits estimated, charged and
// refunded, and each failure with its request id; as the report panel shows it and as a CSV file.
import type { BatchDetail, BatchJob, BatchReport, BatchReportRow } from '../../src-shared/ipc/batch.ts';
import { csvDocument } from '../export/index.ts';

export function batchReport(detail: BatchDetail): BatchReport {
  const batchId = detail.id;
  const rows = new Map<string, BatchReportRow>();
  for (const job of detail.jobs) {
    let row = rows.get(job.productId);
    if (!row) {
      row = { productId: job.productId, sku: job.sku, name: job.productName, jobs: 0, succeeded: 0, failed: 0, unknown: 0, notSent: 0, images: 0, estimated: 0, charged: 0, refunded: 0, failures: [], reruns: 0 };
      rows.set(job.productId, row);
    }
    row.jobs++;
    if (job.origin !== 'plan') row.reruns++;
    row.estimated += job.estimate;
    row.charged += job.creditsCharged ?? 0;
    if (job.status === 'succeeded') {
      row.succeeded++;
      row.images += job.imageIds.length;
      row.refunded += refunded(job);
    } else if (job.status === 'failed') row.failed++;
    else if (job.status === 'unknown') row.unknown++;
    else if (job.status === 'over_budget' || job.status === 'cancelled' || job.status === 'queued') row.notSent++;
    if (job.error && (job.status === 'failed' || job.status === 'unknown')) {
      row.failures.push({ jobId: job.id, shotName: job.shotName, code: job.error.code, requestId: job.requestId, message: job.error.message });
    }
    if (job.status === 'unknown' && !job.error) {
      row.failures.push({ jobId: job.id, shotName: job.shotName, code: 'outcome_unknown', requestId: job.requestId, message: job.note ?? '' });
    }
  }
  const products = [...rows.values()];
  const sum = (key: 'jobs' | 'succeeded' | 'failed' | 'unknown' | 'notSent' | 'images' | 'estimated' | 'charged' | 'refunded' | 'reruns'): number => products.reduce((s, r) => s + r[key], 0);
  return {
    batchId,
    products,
    total: {
      jobs: sum('jobs'), succeeded: sum('succeeded'), failed: sum('failed'), unknown: sum('unknown'), notSent: sum('notSent'),
      images: sum('images'), estimated: sum('estimated'), charged: sum('charged'), refunded: sum('refunded'),
      failures: products.reduce((s, r) => s + r.failures.length, 0),
      reruns: sum('reruns'),
    },
  };
}

type CsvRow = Array<string | number | null>;

/** The report as CSV: one row per job (with its origin: plan, retry or rerun, and the job a retry replaces), then one per product, then the total. */
export function batchReportCsv(detail: BatchDetail): string {
  const theReport = batchReport(detail);
  const rows: CsvRow[] = detail.jobs.map((job) => [
    'job', job.sku, job.productName, job.shotName, job.status, job.estimate, job.creditsCharged,
    job.status === 'succeeded' ? refunded(job) : null,
    job.imageIds.length, job.error?.code ?? (job.status === 'unknown' ? 'outcome_unknown' : null), job.requestId, job.turnId, job.origin, job.replaces,
  ]);
  for (const p of theReport.products) rows.push(['product', p.sku, p.name, null, null, p.estimated, p.charged, p.refunded, p.images, p.failures.length > 0 ? `${p.failures.length} failed` : null, null, null, null, null]);
  const t = theReport.total;
  rows.push(['total', null, null, null, null, t.estimated, t.charged, t.refunded, t.images, t.failures > 0 ? `${t.failures} failed` : null, null, null, null, null]);
  return csvDocument(['row', 'sku', 'product', 'shot', 'status', 'estimated', 'charged', 'refunded', 'images', 'error', 'request_id', 'turn_id', 'origin', 'replaces'], rows, new Set([1, 2, 3]));
}

/** spec §4.1: a partial run is billed for what it produced; the rest of a succeeded job's reservation came back. */
function refunded(job: Pick<BatchJob, 'estimate' | 'creditsCharged'>): number {
  return Math.max(0, job.estimate - (job.creditsCharged ?? job.estimate));
}
