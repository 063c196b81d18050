// The plan of a batch (spec §4.1 jobs per product and shot): which jobs run, which cannot and why, what they
// cost in total and per product, and on Local what the balance is after. Rules live in src-shared/batch-plan.ts.
import type { BatchPlan, Product } from '../../src-shared/ipc/batch.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { jobsWithinBudget, planJobs } from '../../src-shared/batch-plan.ts';
import { StudioError, renderError } from '../domain/errors.ts';
import type { LibraryRepo } from '../library/index.ts';
import type { CatalogRepo } from './catalog-repo.ts';

export interface PlanDeps {
  repo: Pick<LibraryRepo, 'getImage'>;
  catalog: CatalogRepo;
  language: () => Language;
  environment: () => EnvironmentName;
  balance: () => Promise<number | null>;
}

export interface PlanInput {
  productIds: string[];
  shotListId: string;
  budget?: number | null | undefined;
}

export function requireProduct(catalog: Pick<CatalogRepo, 'getProduct'>, id: string): Product {
  const product = catalog.getProduct(id);
  if (!product) throw new StudioError('product_not_found', { productId: id });
  return product;
}

export async function planBatch(deps: PlanDeps, input: PlanInput): Promise<BatchPlan> {
  const { catalog } = deps;
  const language = deps.language();
  const list = catalog.getShotList(input.shotListId, language);
  if (!list) throw new StudioError('shot_list_not_found', { id: input.shotListId });
  const products = [...new Set(input.productIds)].map((id) => requireProduct(catalog, id));
  const environment = deps.environment();
  // A reference the library no longer has (deleted on the service), or one of the other environment's account,
  // would fail every shot of its product (spec §4.1 rule 3: only this account's images).
  const usableRef = (id: string): boolean => {
    const image = deps.repo.getImage(id);
    return image !== null && !image.missing && image.environment === environment;
  };
  const usable = products.filter((p) => p.referenceImageIds.every(usableRef));
  const planned = planJobs(usable, list.shots);
  const problems: BatchPlan['problems'] = planned.problems.map((p) => ({
    productId: p.productId,
    sku: p.sku,
    shotName: p.shotName,
    code: p.code,
    message: renderError({ code: p.code, params: p.params }, language).message,
  }));
  for (const product of products) {
    if (usable.includes(product)) continue;
    const missing = product.referenceImageIds.filter((id) => !usableRef(id));
    const message = renderError({ code: 'product_reference_unknown', params: { imageIds: missing } }, language).message;
    for (const shot of list.shots) problems.push({ productId: product.id, sku: product.sku, shotName: shot.name, code: 'product_reference_unknown', message });
  }
  const total = planned.jobs.reduce((sum, j) => sum + j.estimate, 0);
  const perProduct = products.map((p) => {
    const jobs = planned.jobs.filter((j) => j.productId === p.id);
    return { productId: p.id, sku: p.sku, name: p.name, jobs: jobs.length, total: jobs.reduce((sum, j) => sum + j.estimate, 0) };
  });
  const balance = environment === 'local' ? await deps.balance().catch(() => null) : null;
  const budget = input.budget ?? null;
  return {
    jobs: planned.jobs,
    problems,
    total,
    perProduct,
    environment,
    balance,
    balanceAfter: balance === null ? null : balance - total,
    budget,
    jobsWithinBudget: jobsWithinBudget(planned.jobs, budget),
  };
}
