// A product's master reference (issue 26, migration 0730): one image the designer chose from the product's candidates
// in a batch; later shots of the product (re-shoots, next batches) send it as their reference in place of the
// product's first (CSV) reference. This file owns what a master may be and how it enters a request; whether the
// request then fits the model (its reference limit) is validateGenerateRequest's rule, asked here, never restated.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { GenerateRequest } from '../../src-shared/api.ts';
import type { SetProductMasterInput } from '../../src-shared/ipc/batch-board.ts';
import { validateGenerateRequest } from '../../src-shared/validation.ts';
import { StudioError } from '../domain/errors.ts';
import { preparedOnce } from '../library/index.ts';
import type { BatchRepo, JobRow } from './batch-repo.ts';

type Row = Record<string, SQLInputValue>;

/** The request with the master as its first reference (the product's master slot); the other references stay. */
export function requestWithMaster(request: GenerateRequest, master: string | null): GenerateRequest {
  if (master === null) return request;
  const others = (request.ref_image_ids ?? []).slice(1).filter((id) => id !== master);
  return { ...request, ref_image_ids: [master, ...others] };
}

/** A product's references with its master in the first place (what the plan of a next batch builds requests from). */
export function referencesWithMaster(referenceImageIds: readonly string[], master: string | null): string[] {
  return requestWithMaster({ ref_image_ids: [...referenceImageIds] }, master).ref_image_ids ?? [];
}

/** Why the master cannot go into this request (the model's reference limit, or another rule), or null when it can. */
export function masterRefusal(request: GenerateRequest, master: string): { code: string; params: Record<string, unknown> } | null {
  if (!validateGenerateRequest(request).ok) return null; // a request already refused is not the master's doing
  const checked = validateGenerateRequest(requestWithMaster(request, master));
  return checked.ok ? null : { code: checked.error.code, params: { ...checked.error.params } };
}

/** A job as the master's rules read it: which cell it is for, and whether it ever went out. */
type MasterJob = Pick<JobRow, 'sku' | 'shotName' | 'request' | 'estimate' | 'origin' | 'earlierTurnIds' | 'retryOf'>;

/**
 * The request with the master, or the refusal that names the shot and the rule (a re-shoot is not added, a job not
 * yet sent is not sent): a master the model cannot take never goes out silently without it.
 */
export function requestWithUsableMaster(job: Pick<JobRow, 'sku' | 'shotName'>, request: GenerateRequest, master: string | null): GenerateRequest {
  if (master === null) return request;
  const refusal = masterRefusal(request, master);
  if (refusal) {
    throw new StudioError('batch_master_unusable', { sku: job.sku, shot: job.shotName, model: request.model ?? 'auto', reason: refusal.code, ...refusal.params }, { details: { reason: refusal.code } });
  }
  return requestWithMaster(request, master);
}

/**
 * Whether the job's next send is its first: a plan job or a re-shoot that never went out takes the product's master as
 * it is now. A job that went out before (the queue's resend after a 500, a 429 or 402 wait) or a person's retry is a
 * resend, and spec §7 (retry-policy.ts) resends "as is": it keeps the request of the send it repeats.
 */
export function firstSend(job: Pick<JobRow, 'origin' | 'earlierTurnIds' | 'retryOf'>): boolean {
  return job.origin !== 'retry' && job.earlierTurnIds.length === 0 && job.retryOf === null;
}

/**
 * What a queued job goes out with now, and its price: a first send takes the product's master chosen since it was
 * planned (the reference count, so the price, changes only when the product had no reference or had the master among
 * its others: the price is read again, never assumed). A resend goes as it went. Throws `batch_master_unusable`.
 */
export function requestAtSend(job: MasterJob, master: string | null): { request: GenerateRequest; estimate: number } {
  if (master === null || !firstSend(job)) return { request: job.request, estimate: job.estimate };
  const request = requestWithUsableMaster(job, job.request, master);
  const checked = validateGenerateRequest(request);
  // A request refused anyway is refused by the send (spec §4.1), at the price it was planned at.
  return { request, estimate: checked.ok ? checked.value.estimate.total : job.estimate };
}

export class ProductMasters {
  private readonly sql: (text: string) => StatementSync;
  private readonly batches: BatchRepo;

  constructor(db: DatabaseSync, batches: BatchRepo) {
    this.sql = preparedOnce(db);
    this.batches = batches;
  }

  /** The product's chosen master, or null. */
  get(productId: string): string | null {
    const row = this.sql('SELECT image_id FROM product_masters WHERE product_id = ?').get(productId) as Row | undefined;
    return row ? String(row.image_id) : null;
  }

  /** Every chosen master, by product. */
  all(): Map<string, string> {
    const rows = this.sql('SELECT product_id, image_id FROM product_masters').all() as Row[];
    return new Map(rows.map((r) => [String(r.product_id), String(r.image_id)]));
  }

  /**
   * Chooses (or with null clears) the product's master: one of its candidates in the batch, not rejected, and usable
   * by every shot of the product there (each cell's latest request still valid with it). A refusal changes nothing.
   */
  set(input: SetProductMasterInput, now: number): string | null {
    if (input.imageId === null) {
      this.sql('DELETE FROM product_masters WHERE product_id = ?').run(input.productId);
      return null;
    }
    const candidate = this.sql(
      `SELECT j.sku, i.rejected FROM batch_jobs j JOIN images i ON i.turn_id = j.turn_id
       WHERE j.batch_id = ? AND j.product_id = ? AND i.id = ? LIMIT 1`,
    ).get(input.batchId, input.productId, input.imageId) as Row | undefined;
    if (!candidate) throw new StudioError('batch_master_not_candidate', { imageId: input.imageId }, { details: { imageId: input.imageId } });
    const sku = String(candidate.sku);
    if (Number(candidate.rejected) === 1) throw new StudioError('batch_master_rejected', { imageId: input.imageId, sku }, { details: { imageId: input.imageId } });
    this.checkShots(input.batchId, input.productId, input.imageId, sku);
    this.sql(
      `INSERT INTO product_masters (product_id, image_id, batch_id, set_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (product_id) DO UPDATE SET image_id = excluded.image_id, batch_id = excluded.batch_id, set_at = excluded.set_at`,
    ).run(input.productId, input.imageId, input.batchId, now);
    return input.imageId;
  }

  /** Every shot of the product in the batch must take the master (its latest request, as a re-shoot would send it). */
  private checkShots(batchId: string, productId: string, imageId: string, sku: string): void {
    const latest = new Map<string, GenerateRequest>();
    for (const view of this.batches.jobViews(batchId)) if (view.job.productId === productId) latest.set(view.job.shotName, view.job.request);
    for (const [shot, request] of latest) {
      const refusal = masterRefusal(request, imageId);
      if (refusal) {
        throw new StudioError('batch_master_unusable', { sku, shot, model: request.model ?? 'auto', reason: refusal.code, ...refusal.params }, { details: { shot, reason: refusal.code } });
      }
    }
  }
}
