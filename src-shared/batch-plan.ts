// The batch plan (docs/catalog.md "The plan"): products × shots, each built into exactly the request a single
// generation would send and judged by the same stateless rules and prices (validateGenerateRequest,
// estimateCredits), so the plan's total is what the service will reserve, job by job.
import type { GenerateRequest } from './api.ts';
import type { PlanJob, Product, Shot } from './ipc/batch.ts';
import { validateGenerateRequest } from './validation.ts';

export type PlannedProduct = Pick<Product, 'id' | 'sku' | 'name' | 'prompt' | 'referenceImageIds'>;

/** A product × shot the service would refuse: the code and params validateGenerateRequest answered. */
export interface PlanJobProblem {
  productId: string;
  sku: string;
  shotName: string;
  code: string;
  params: Record<string, unknown>;
}

/** The request of one product × shot: the product's prompt then the shot's addition, one line each. */
export function shotRequest(product: PlannedProduct, shot: Shot): GenerateRequest {
  const prompt = [product.prompt.trim(), shot.promptAddition.trim()].filter((part) => part !== '').join('\n');
  const request: GenerateRequest = {};
  // An empty prompt is left out (a product may be its references alone); with no references either, the
  // validation answers as the service would.
  if (prompt !== '') request.prompt = prompt;
  if (product.referenceImageIds.length > 0) request.ref_image_ids = [...product.referenceImageIds];
  request.model = shot.model;
  request.ratio = shot.ratio;
  if (shot.resolution !== undefined) request.resolution = shot.resolution;
  if (shot.quality !== undefined) request.quality = shot.quality;
  request.n = shot.n;
  request.purpose_id = shot.purpose;
  return request;
}

/** One job per product and shot, product by product, in the shots' order; a request the service would refuse is a problem instead. */
export function planJobs(products: readonly PlannedProduct[], shots: readonly Shot[]): { jobs: PlanJob[]; problems: PlanJobProblem[] } {
  const jobs: PlanJob[] = [];
  const problems: PlanJobProblem[] = [];
  for (const product of products) {
    for (const [shotIndex, shot] of shots.entries()) {
      const request = shotRequest(product, shot);
      const checked = validateGenerateRequest(request);
      if (!checked.ok) {
        problems.push({ productId: product.id, sku: product.sku, shotName: shot.name, code: checked.error.code, params: { ...checked.error.params } });
        continue;
      }
      jobs.push({
        productId: product.id,
        sku: product.sku,
        productName: product.name,
        shotIndex,
        shotName: shot.name,
        purpose: shot.purpose,
        request,
        model: checked.value.model,
        estimate: checked.value.estimate.total,
      });
    }
  }
  return { jobs, problems };
}

/**
 * How many jobs the budget lets the batch send, as the runner decides: in order, a job is sent only while what is
 * already committed plus its own estimate stays within the budget; one that does not fit is skipped (not sent,
 * `over_budget`), and a cheaper job after it may still fit. Estimates stand in for charges, as reservations do.
 * No budget: every job.
 */
export function jobsWithinBudget(jobs: ReadonlyArray<{ estimate: number }>, budget: number | null): number {
  if (budget === null) return jobs.length;
  let committed = 0;
  let count = 0;
  for (const job of jobs) {
    if (committed + job.estimate > budget) continue;
    committed += job.estimate;
    count++;
  }
  return count;
}
