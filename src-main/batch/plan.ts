// The plan of a batch (spec §4.1 jobs per product and shot): which jobs run, which cannot and why, what they
// cost in total and per product, and on Local what the balance is after. Rules live in src-shared/batch-plan.ts.
import type { BatchPlan, Product, Shot } from '../../src-shared/ipc/batch.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { jobsWithinBudget, planJobs } from '../../src-shared/batch-plan.ts';
import { StudioError, renderError } from '../domain/errors.ts';
import type { LibraryRepo } from '../library/index.ts';
import type { CatalogRepo } from './catalog-repo.ts';
import { checkShotList } from '../../src-shared/shot-lists.ts';
import { alreadyMade, type MadeDeps } from './plan-made.ts';
import { referencesWithMaster } from './product-master.ts';

export interface PlanDeps {
  repo: Pick<LibraryRepo, 'getImage'>;
  catalog: CatalogRepo;
  language: () => Language;
  environment: () => EnvironmentName;
  balance: () => Promise<number | null>;
  /** What earlier batches of the list made (Start warns, and "only what is missing" leaves it out). */
  made: MadeDeps;
  /** A product's chosen master reference (product-master.ts), sent in place of its first reference. */
  master?: (productId: string) => string | null;
}

export interface PlanInput {
  productIds: string[];
  shotListId: string;
  budget?: number | null | undefined;
  /** The list's unsaved edits, priced instead of its saved shots. */
  shots?: Shot[] | undefined;
  onlyMissing?: boolean | undefined;
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
  const shots = input.shots ?? list.shots;
  // Unsaved edits are checked as Save would check them, so a plan never prices a list Save would refuse.
  const checked = checkShotList({ name: list.name, shots });
  if (!checked.ok) throw new StudioError(checked.code, checked.params);
  const products = [...new Set(input.productIds)].map((id) => withMaster(requireProduct(catalog, id), deps.master?.(id) ?? null));
  const environment = deps.environment();
  // A reference the library no longer has (deleted on the service), or one of the other environment's account,
  // would fail every shot of its product (spec §4.1 rule 3: only this account's images).
  const usableRef = (id: string): boolean => {
    const image = deps.repo.getImage(id);
    return image !== null && !image.missing && image.environment === environment;
  };
  const usable = products.filter((p) => p.referenceImageIds.every(usableRef));
  const planned = planJobs(usable, shots);
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
    for (const shot of shots) problems.push({ productId: product.id, sku: product.sku, shotName: shot.name, code: 'product_reference_unknown', message });
  }
  const made = alreadyMade(deps.made, list.id, environment, planned.jobs);
  const jobs = input.onlyMissing === true ? made.missing : planned.jobs;
  const total = sumEstimates(jobs);
  const perProduct = products.map((p) => {
    const own = jobs.filter((j) => j.productId === p.id);
    return { productId: p.id, sku: p.sku, name: p.name, jobs: own.length, total: sumEstimates(own) };
  });
  const balance = environment === 'local' ? await deps.balance().catch(() => null) : null;
  const budget = input.budget ?? null;
  return {
    jobs,
    problems,
    total,
    perProduct,
    environment,
    balance,
    balanceAfter: balance === null ? null : balance - total,
    budget,
    jobsWithinBudget: jobsWithinBudget(jobs, budget),
    alreadyMade: { cells: made.cells, picked: made.picked, batches: made.batches },
    missing: { jobs: made.missing.length, total: sumEstimates(made.missing) },
  };
}

/** The product as its shots see it: a chosen master reference in place of its first reference. */
function withMaster(product: Product, master: string | null): Product {
  return master === null ? product : { ...product, referenceImageIds: referencesWithMaster(product.referenceImageIds, master) };
}

function sumEstimates(jobs: ReadonlyArray<{ estimate: number }>): number {
  return jobs.reduce((sum, j) => sum + j.estimate, 0);
}
