// IPC handlers of catalog production (src-shared/ipc/batch.ts): products, shot lists, the plan, batch runs,
// marketplace export and the report. Rules live in src-shared (CSV, shot checks, the plan) and in the runner.
import { join } from 'node:path';
import type { BatchDetail, BatchJob, BatchPlan, BatchReport, BatchReportRow, PlanJob, Product } from '../../src-shared/ipc/batch.ts';
import type { PurposeId } from '../../src-shared/catalog.ts';
import { jobsWithinBudget, planJobs } from '../../src-shared/batch-plan.ts';
import { parseProductCsv, productsCsv } from '../../src-shared/product-csv.ts';
import { checkShotList, presetById } from '../../src-shared/shot-lists.ts';
import { DEFAULT_MARKETPLACE_TEMPLATE, MARKETPLACE_PRESETS, marketplacePreset, presetInfo } from '../../src-shared/marketplace-presets.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { newLocalId } from '../generation/runner.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import { StudioError, renderError } from '../domain/errors.ts';
import { mainMessage } from '../domain/messages.ts';
import { csvDocument } from '../export/csv.ts';
import { createExclusive } from '../export/exporter.ts';
import { existingCachePath, type CacheDirs } from '../files/image-cache.ts';
import { transaction, type LibraryDatabase } from '../library/database.ts';
import type { LibraryRepo } from '../library/library-repo.ts';
import type { IpcHandlers } from '../ipc/dispatch.ts';
import { planFields, type BatchRepo, type NewJob } from './batch-repo.ts';
import type { BatchRunner } from './batch-runner.ts';
import { newCatalogId, type CatalogRepo } from './catalog-repo.ts';
import { exportMarketplace, type MarketplaceItem } from './marketplace-export.ts';

type BatchMethods =
  | 'productList' | 'productSave' | 'productDelete' | 'productImport' | 'productExport'
  | 'shotListList' | 'shotListSave' | 'shotListDelete' | 'shotListReset'
  | 'batchPlan' | 'batchCreate' | 'batchList' | 'batchGet' | 'batchPause' | 'batchResume' | 'batchCancel' | 'batchSetConcurrency'
  | 'marketplacePresets' | 'batchExport' | 'batchReport' | 'batchReportCsv';

export interface BatchHandlerDeps {
  db: LibraryDatabase;
  repo: LibraryRepo;
  catalog: CatalogRepo;
  batches: BatchRepo;
  runner: BatchRunner;
  dirs: CacheDirs;
  shell: Pick<DesktopShell, 'chooseFolder'>;
  language: () => Language;
  environment: () => EnvironmentName;
  balance: () => Promise<number | null>;
  changed: (batchId: string) => void;
  now?: () => number;
}

export function createBatchHandlers(deps: BatchHandlerDeps): Pick<IpcHandlers, BatchMethods> {
  const now = deps.now ?? Date.now;
  const { catalog } = deps;

  function requireProduct(id: string): Product {
    const product = catalog.getProduct(id);
    if (!product) throw new StudioError('product_not_found', { productId: id });
    return product;
  }

  function checkReferences(ids: string[]): void {
    const unknown = ids.filter((id) => {
      const image = deps.repo.getImage(id);
      return !image || image.missing;
    });
    if (unknown.length > 0) throw new StudioError('product_reference_unknown', { imageIds: unknown });
  }

  function checkSku(sku: string, ownId: string | null): void {
    const other = catalog.productBySku(sku);
    if (other && other.id !== ownId) throw new StudioError('product_sku_taken', { sku, name: other.name });
  }

  async function askFolder(given: string | undefined, titleCode: 'export_folder_title'): Promise<string | null> {
    return given ?? (await deps.shell.chooseFolder({ title: mainMessage(titleCode, {}, deps.language()) }));
  }

  async function plan(input: { productIds: string[]; shotListId: string; budget?: number | null | undefined }): Promise<BatchPlan> {
    const language = deps.language();
    const list = catalog.getShotList(input.shotListId, language);
    if (!list) throw new StudioError('shot_list_not_found', { id: input.shotListId });
    const products = [...new Set(input.productIds)].map(requireProduct);
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

  function report(detail: BatchDetail): BatchReport {
    const batchId = detail.id;
    const rows = new Map<string, BatchReportRow>();
    for (const job of detail.jobs) {
      let row = rows.get(job.productId);
      if (!row) {
        row = { productId: job.productId, sku: job.sku, name: job.productName, jobs: 0, succeeded: 0, failed: 0, unknown: 0, notSent: 0, images: 0, estimated: 0, charged: 0, refunded: 0, failures: [] };
        rows.set(job.productId, row);
      }
      row.jobs++;
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
    const sum = (key: 'jobs' | 'succeeded' | 'failed' | 'unknown' | 'notSent' | 'images' | 'estimated' | 'charged' | 'refunded'): number => products.reduce((s, r) => s + r[key], 0);
    return {
      batchId,
      products,
      total: {
        jobs: sum('jobs'), succeeded: sum('succeeded'), failed: sum('failed'), unknown: sum('unknown'), notSent: sum('notSent'),
        images: sum('images'), estimated: sum('estimated'), charged: sum('charged'), refunded: sum('refunded'),
        failures: products.reduce((s, r) => s + r.failures.length, 0),
      },
    };
  }

  return {
    productList: async () => catalog.listProducts(),
    productSave: async (input) => {
      const fields = { sku: input.sku, name: input.name, prompt: input.prompt, notes: input.notes, referenceImageIds: input.referenceImageIds };
      checkReferences(fields.referenceImageIds);
      if (input.id) {
        requireProduct(input.id);
        checkSku(fields.sku, input.id);
        return catalog.updateProduct(input.id, fields, now()) as Product;
      }
      checkSku(fields.sku, null);
      return catalog.createProduct(fields, now());
    },
    productDelete: async ({ id }) => ({ deleted: catalog.deleteProduct(id) }),
    productImport: async ({ csv }) => {
      const parsed = parseProductCsv(csv);
      // A file without a notes column leaves the notes of products it updates as they are.
      const header = csv.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/).find((line) => line.trim() !== '') ?? '';
      const hasNotes = header.split(',').some((cell) => cell.trim().replace(/^"|"$/g, '').trim().toLowerCase() === 'notes');
      if (!parsed.ok) {
        const first = parsed.problems[0];
        throw new StudioError('product_csv_invalid', { count: parsed.problems.length, line: first?.line ?? 1, column: first?.column ?? 1 }, { details: { problems: parsed.problems } });
      }
      let created = 0;
      let updated = 0;
      const at = now();
      const products = transaction(deps.db, () =>
        parsed.rows.map((row) => {
          const known = catalog.productBySku(row.sku);
          const fields = { sku: row.sku, name: row.name, prompt: row.prompt, ...(hasNotes ? { notes: row.notes } : {}) };
          if (known) {
            updated++;
            return catalog.updateProduct(known.id, fields, at) as Product;
          }
          created++;
          return catalog.createProduct({ notes: '', ...fields, referenceImageIds: [] }, at);
        }),
      );
      return { created, updated, products };
    },
    productExport: async ({ folder }) => {
      const products = catalog.listProducts();
      const target = await askFolder(folder, 'export_folder_title');
      if (target === null) return { file: null, count: products.length };
      // Never over an existing file: products_2.csv, … (as every export).
      const name = await createExclusive(target, 'products', 'csv', productsCsv(products), new Set(), 0);
      return { file: join(target, name), count: products.length };
    },

    shotListList: async () => catalog.listShotLists(deps.language()),
    shotListSave: async (input) => {
      const checked = checkShotList({ name: input.name, shots: input.shots });
      if (!checked.ok) throw new StudioError(checked.code, checked.params);
      if (input.id && !catalog.shotListExists(input.id)) throw new StudioError('shot_list_not_found', { id: input.id });
      const id = catalog.saveShotList(input.id ?? null, input.name, input.shots, now());
      return catalog.getShotList(id, deps.language()) as NonNullable<ReturnType<CatalogRepo['getShotList']>>;
    },
    shotListDelete: async ({ id }) => {
      if (presetById(id)) throw new StudioError('shot_list_builtin', { id });
      if (!catalog.shotListExists(id)) throw new StudioError('shot_list_not_found', { id });
      return { deleted: catalog.deleteShotList(id) };
    },
    shotListReset: async ({ id }) => {
      if (!presetById(id)) throw new StudioError('shot_list_not_found', { id });
      catalog.deleteShotList(id);
      return catalog.getShotList(id, deps.language()) as NonNullable<ReturnType<CatalogRepo['getShotList']>>;
    },

    batchPlan: (input) => plan(input),
    batchCreate: async (input) => {
      const thePlan = await plan(input);
      if (thePlan.jobs.length === 0) throw new StudioError('batch_plan_empty', {}, { details: { problems: thePlan.problems } });
      if (input.expectedTotal !== undefined && input.expectedTotal !== thePlan.total) {
        throw new StudioError('batch_plan_changed', { total: thePlan.total, expected: input.expectedTotal });
      }
      const language = deps.language();
      const list = catalog.getShotList(input.shotListId, language);
      const at = now();
      const batchId = newCatalogId('bt_');
      const environment = thePlan.environment;
      transaction(deps.db, () => {
        // Each product's jobs go into a session of its own, titled with the product.
        const sessions = new Map<string, string>();
        for (const job of thePlan.jobs) {
          if (sessions.has(job.productId)) continue;
          const sessionId = newLocalId('ls_');
          deps.repo.createSession(sessionId, environment, at);
          deps.repo.renameSession(sessionId, `${job.productName} · ${job.sku}`);
          sessions.set(job.productId, sessionId);
        }
        const jobs: NewJob[] = thePlan.jobs.map((job: PlanJob, position) => ({
          id: newCatalogId('bj_'),
          position,
          ...planFields(job),
          sessionId: sessions.get(job.productId) as string,
        }));
        const products = new Set(thePlan.jobs.map((j) => j.productId)).size;
        deps.batches.createBatch(
          {
            id: batchId,
            name: mainMessage('batch_name', { list: list?.name ?? '', products }, language),
            environment,
            shotListId: input.shotListId,
            shotListName: list?.name ?? '',
            state: 'paused',
            pause: { reason: 'user', until: null, needed: null },
            budget: input.budget ?? null,
            concurrency: input.concurrency,
            planned: thePlan.total,
            createdAt: at,
            updatedAt: at,
          },
          jobs,
        );
      });
      if (input.start) deps.runner.start(batchId);
      deps.changed(batchId);
      return deps.runner.detail(batchId);
    },
    batchList: async () => deps.runner.list(),
    batchGet: async ({ batchId }) => deps.runner.detail(batchId),
    batchPause: async ({ batchId }) => {
      deps.runner.pause(batchId);
      return deps.runner.summary(batchId);
    },
    batchResume: async ({ batchId }) => {
      deps.runner.resume(batchId);
      return deps.runner.summary(batchId);
    },
    batchCancel: async ({ batchId }) => {
      deps.runner.cancel(batchId);
      return deps.runner.summary(batchId);
    },
    batchSetConcurrency: async ({ batchId, concurrency }) => {
      deps.runner.setConcurrency(batchId, concurrency);
      return deps.runner.summary(batchId);
    },

    marketplacePresets: async () => presetInfo(deps.language()),
    batchExport: async (input) => {
      const preset = marketplacePreset(input.presetId);
      if (!preset) throw new StudioError('export_preset_unknown', { presetId: input.presetId, allowed: MARKETPLACE_PRESETS.map((p) => p.id) });
      const detail = deps.runner.detail(input.batchId);
      const items: MarketplaceItem[] = [];
      const perShot = new Map<string, number>();
      for (const job of detail.jobs) {
        if (job.status !== 'succeeded' || !job.turnId) continue;
        const turn = deps.repo.getTurn(job.turnId);
        if (!turn) continue;
        const share = turn.images.length > 0 ? (turn.creditsCharged ?? 0) / turn.images.length : 0;
        for (const image of turn.images) {
          const key = `${job.productId}\u0000${job.shotName}`;
          const index = (perShot.get(key) ?? 0) + 1;
          perShot.set(key, index);
          items.push({
            imageId: image.id,
            sku: job.sku,
            productName: job.productName,
            shotName: job.shotName,
            purpose: job.purpose as PurposeId,
            model: turn.estimate.model,
            credits: share,
            turnId: turn.id,
            index,
            createdAt: image.createdAt,
            width: image.width,
            height: image.height,
            downloaded: image.download === 'done',
          });
        }
      }
      if (items.length === 0) throw new StudioError('export_nothing_ready', { count: 0 });
      const folder = await askFolder(input.folder, 'export_folder_title');
      if (folder === null) return { folder: null, presetId: preset.id, written: [], flagged: [], manifestFile: null, bytes: 0 };
      return exportMarketplace(
        items,
        { folder, preset, template: input.template ?? DEFAULT_MARKETPLACE_TEMPLATE, includeFailedChecks: input.includeFailedChecks, now: now() },
        { imagePath: (imageId) => existingCachePath(deps.dirs, 'full', imageId) },
      );
    },
    batchReport: async ({ batchId }) => report(deps.runner.detail(batchId)),
    batchReportCsv: async ({ batchId, folder }) => {
      const detail = deps.runner.detail(batchId);
      const theReport = report(detail);
      const target = await askFolder(folder, 'export_folder_title');
      if (target === null) return { file: null };
      const rows: Array<Array<string | number | null>> = detail.jobs.map((job) => [
        'job', job.sku, job.productName, job.shotName, job.status, job.estimate, job.creditsCharged,
        job.status === 'succeeded' ? refunded(job) : null,
        job.imageIds.length, job.error?.code ?? (job.status === 'unknown' ? 'outcome_unknown' : null), job.requestId, job.turnId,
      ]);
      for (const p of theReport.products) rows.push(['product', p.sku, p.name, null, null, p.estimated, p.charged, p.refunded, p.images, p.failures.length > 0 ? `${p.failures.length} failed` : null, null, null]);
      const t = theReport.total;
      rows.push(['total', null, null, null, null, t.estimated, t.charged, t.refunded, t.images, t.failures > 0 ? `${t.failures} failed` : null, null, null]);
      const csv = csvDocument(['row', 'sku', 'product', 'shot', 'status', 'estimated', 'charged', 'refunded', 'images', 'error', 'request_id', 'turn_id'], rows, new Set([1, 2, 3]));
      const name = await createExclusive(target, `batch-report-${batchId}`, 'csv', csv, new Set(), 0);
      return { file: join(target, name) };
    },
  };
}

/** spec §4.1: a partial run is billed for what it produced; the rest of a succeeded job's reservation came back. */
function refunded(job: Pick<BatchJob, 'estimate' | 'creditsCharged'>): number {
  return Math.max(0, job.estimate - (job.creditsCharged ?? job.estimate));
}
