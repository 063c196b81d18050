// IPC handlers of catalog production (src-shared/ipc/batch.ts): products, shot lists, the plan, batch runs,
// marketplace export and the report. Rules live in src-shared (CSV, shot checks, the plan) and in the runner.
import { join } from 'node:path';
import type { BatchDetail, ExportSelection, PlanJob, Product } from '../../src-shared/ipc/batch.ts';
import type { CatalogBoard } from '../../src-shared/ipc/batch-board.ts';
import type { PurposeId } from '../../src-shared/catalog.ts';
import { productsCsv } from '../../src-shared/product-csv.ts';
import { checkShotList, presetById, presetLanguageOf } from '../../src-shared/shot-lists.ts';
import { DEFAULT_MARKETPLACE_TEMPLATE, MARKETPLACE_PRESETS, marketplacePreset, presetInfo } from '../../src-shared/marketplace-presets.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { newCatalogId, newLocalId } from '../domain/ids.ts';
import type { DesktopShell } from '../ports/desktop-shell.ts';
import { StudioError } from '../domain/errors.ts';
import { mainMessage } from '../domain/messages.ts';
import { createExclusive, generationDataOf } from '../export/index.ts';
import { existingCachePath, type CacheDirs } from '../files/index.ts';
import { transaction, type LibraryDatabase, type LibraryRepo } from '../library/index.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import { planFields, type BatchRepo, type NewJob } from './batch-repo.ts';
import type { BatchRunner } from './batch-runner.ts';
import type { CatalogRepo } from './catalog-repo.ts';
import { exportMarketplace, type MarketplaceItem, type MissingPick } from './marketplace-export.ts';
import { planBatch, requireProduct, type PlanDeps, type PlanInput } from './plan.ts';
import { importProductInput } from './product-import.ts';
import { batchReport, batchReportCsv } from './report.ts';
import { Reruns } from './reruns.ts';
import { Board, boardCellKey } from './board.ts';

type ProductMethods = 'productList' | 'productSave' | 'productDelete' | 'productImport' | 'productExport';
type ShotListMethods = 'shotListList' | 'shotListSave' | 'shotListDelete' | 'shotListReset';
type RunMethods = 'batchPlan' | 'batchCreate' | 'batchList' | 'batchGet' | 'batchPause' | 'batchResume' | 'batchCancel' | 'batchSetConcurrency';
type OutputMethods = 'marketplacePresets' | 'batchExport' | 'batchMissingPicks' | 'batchReport' | 'batchReportCsv';
type RerunMethods = 'batchRetryJob' | 'batchRerunCell' | 'batchRaiseBudget' | 'batchFinish';
type BoardMethods = 'catalogGetBoard' | 'catalogSetPick' | 'catalogSetProductMaster' | 'catalogPickOnlyCandidates' | 'catalogClearPicks';
export type BatchMethods = ProductMethods | ShotListMethods | RunMethods | OutputMethods | RerunMethods | BoardMethods;

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
  changed: (batchId: string, jobId?: string) => void;
  now?: () => number;
}

type CreateInput = PlanInput & { expectedTotal?: number | undefined; concurrency: number; start?: boolean | undefined };

/** The folder the renderer named, or one the user chooses now (null: they cancelled). */
async function askFolder(deps: BatchHandlerDeps, given: string | undefined): Promise<string | null> {
  return given ?? (await deps.shell.chooseFolder({ title: mainMessage('export_folder_title', {}, deps.language()) }));
}

function checkReferences(repo: Pick<LibraryRepo, 'getImage'>, ids: string[]): void {
  const unknown = ids.filter((id) => {
    const image = repo.getImage(id);
    return !image || image.missing;
  });
  if (unknown.length > 0) throw new StudioError('product_reference_unknown', { imageIds: unknown });
}

function checkSku(catalog: CatalogRepo, sku: string, ownId: string | null): void {
  const other = catalog.productBySku(sku);
  if (other && other.id !== ownId) throw new StudioError('product_sku_taken', { sku, name: other.name });
}

function productHandlers(deps: BatchHandlerDeps): HandlerTable<ProductMethods> {
  const now = deps.now ?? Date.now;
  const { catalog } = deps;
  return {
    productList: async () => catalog.listProducts(),
    productSave: async (input) => {
      const fields = { sku: input.sku, name: input.name, prompt: input.prompt, notes: input.notes, referenceImageIds: input.referenceImageIds };
      checkReferences(deps.repo, fields.referenceImageIds);
      if (input.id) {
        requireProduct(catalog, input.id);
        checkSku(catalog, fields.sku, input.id);
        return catalog.updateProduct(input.id, fields, now()) as Product;
      }
      checkSku(catalog, fields.sku, null);
      return catalog.createProduct(fields, now());
    },
    productDelete: async ({ id }) => ({ deleted: catalog.deleteProduct(id) }),
    productImport: async (input) => importProductInput(deps.db, catalog, input, now()),
    productExport: async ({ folder }) => {
      const products = catalog.listProducts();
      const target = await askFolder(deps, folder);
      if (target === null) return { file: null, count: products.length };
      // Never over an existing file: products_2.csv, … (as every export).
      const name = await createExclusive(target, 'products', 'csv', productsCsv(products), new Set(), 0);
      return { file: join(target, name), count: products.length };
    },
  };
}

function shotListHandlers(deps: BatchHandlerDeps): HandlerTable<ShotListMethods> {
  const now = deps.now ?? Date.now;
  const { catalog } = deps;
  return {
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
  };
}

/** The plan's needs: the handlers' deps, and what earlier batches made (their served cells and picks). */
function planDeps(deps: BatchHandlerDeps, board: Board): PlanDeps {
  return { ...deps, made: { batches: deps.batches, picks: (batchId) => board.pickedImages(batchId) }, master: (productId) => board.masterOf(productId) };
}

/** A built-in list a batch ran with its shipped words (in either language) keeps that language's words from now on. */
function keepPresetWords(catalog: CatalogRepo, listId: string, jobs: readonly PlanJob[], batchId: string, now: number): void {
  const preset = presetById(listId);
  const language = preset ? presetLanguageOf(preset, [...new Set(jobs.map((j) => j.shotName))]) : null;
  if (language) catalog.keepPresetWords(listId, language, batchId, now);
}

async function createBatch(deps: BatchHandlerDeps, board: Board, input: CreateInput): Promise<BatchDetail> {
  const now = deps.now ?? Date.now;
  const { catalog } = deps;
  const thePlan = await planBatch(planDeps(deps, board), input);
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
    // The batch's shot names are keys (picks, board columns, export names, "only what is missing"): a built-in list
    // whose shipped words it ran keeps them after a language switch (and after Reset).
    keepPresetWords(catalog, input.shotListId, thePlan.jobs, batchId, at);
  });
  if (input.start) deps.runner.start(batchId);
  deps.changed(batchId);
  return deps.runner.detail(batchId);
}

function runHandlers(deps: BatchHandlerDeps, board: Board): HandlerTable<RunMethods> {
  return {
    batchPlan: (input) => planBatch(planDeps(deps, board), input),
    batchCreate: (input) => createBatch(deps, board, input),
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
  };
}

/** The images of a batch's succeeded jobs, numbered per product and shot, each with its share of the credits. */
function marketplaceItems(detail: BatchDetail, repo: Pick<LibraryRepo, 'getTurn'>, picks: Map<string, string>): Array<MarketplaceItem & { rejected: boolean; starred: boolean }> {
  const items: Array<MarketplaceItem & { rejected: boolean; starred: boolean }> = [];
  const perShot = new Map<string, number>();
  for (const job of detail.jobs) {
    if (job.status !== 'succeeded' || !job.turnId) continue;
    const turn = repo.getTurn(job.turnId);
    if (!turn) continue;
    const share = turn.images.length > 0 ? (turn.creditsCharged ?? 0) / turn.images.length : 0;
    for (const image of turn.images) {
      const key = boardCellKey(job.productId, job.shotName);
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
        picked: picks.get(key) === image.id,
        generation: generationDataOf(image, turn),
        rejected: image.rejected,
        starred: image.starred,
      });
    }
  }
  return items;
}

/** Credits charged for each product's shots in the batch, by SKU: every job with a turn, re-runs included. */
function productCredits(detail: BatchDetail, repo: Pick<LibraryRepo, 'getTurn'>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const job of detail.jobs) {
    const charged = job.turnId ? (repo.getTurn(job.turnId)?.creditsCharged ?? 0) : 0;
    totals.set(job.sku, (totals.get(job.sku) ?? 0) + charged);
  }
  return totals;
}

/** What a mode writes: the picks, the starred, or every result; never a rejected image. */
function chosenItems(items: ReturnType<typeof marketplaceItems>, mode: ExportSelection): MarketplaceItem[] {
  return items.filter((item) => !item.rejected && (mode === 'picks' ? item.picked : mode === 'starred' ? item.starred : true));
}

/** `picks` mode: every product × shot of the board with no pick to write, and why (listed, never skipped silently). */
function missingPicks(board: CatalogBoard): MissingPick[] {
  const names = new Map(board.products.map((p) => [p.productId, p.name]));
  const purposes = new Map(board.shots.map((s) => [s.name, s.kind]));
  const missing: MissingPick[] = [];
  for (const cell of board.cells) {
    const picked = cell.pick === null ? null : cell.candidates.find((c) => c.imageId === cell.pick);
    if (picked && !picked.rejected) continue;
    const reason = picked ? 'pick_rejected' : cell.candidates.some((c) => !c.rejected) ? 'no_pick' : 'no_result';
    missing.push({ sku: cell.sku, productName: names.get(cell.productId) ?? '', shotName: cell.shotName, purpose: purposes.get(cell.shotName) ?? 'free', reason });
  }
  return missing;
}

/** The missing picks as the answer names them (the purpose is the manifest's). */
function missingPicksAnswer(missing: readonly MissingPick[]): Array<Omit<MissingPick, 'purpose'>> {
  return missing.map(({ purpose: _, ...m }) => m);
}

function outputHandlers(deps: BatchHandlerDeps, board: Board): HandlerTable<OutputMethods> {
  const now = deps.now ?? Date.now;
  return {
    marketplacePresets: async () => presetInfo(deps.language()),
    batchExport: async (input) => {
      const preset = marketplacePreset(input.presetId);
      if (!preset) throw new StudioError('export_preset_unknown', { presetId: input.presetId, allowed: MARKETPLACE_PRESETS.map((p) => p.id) });
      const detail = deps.runner.detail(input.batchId);
      const mode = input.mode;
      const items = chosenItems(marketplaceItems(detail, deps.repo, board.pickedImages(input.batchId)), mode);
      const missing = mode === 'picks' ? missingPicks(board.board(input.batchId)) : [];
      if (items.length === 0) throw new StudioError('export_nothing_ready', { count: 0 }, { details: { mode, missingPicks: missing.length } });
      const folder = await askFolder(deps, input.folder);
      if (folder === null) return { folder: null, presetId: preset.id, written: [], flagged: [], manifestFile: null, bytes: 0, mode, missingPicks: missingPicksAnswer(missing) };
      return exportMarketplace(
        items,
        {
          folder,
          preset,
          template: input.template ?? DEFAULT_MARKETPLACE_TEMPLATE,
          includeFailedChecks: input.includeFailedChecks,
          now: now(),
          mode,
          missingPicks: missing,
          productCredits: productCredits(detail, deps.repo),
        },
        { imagePath: (imageId) => existingCachePath(deps.dirs, 'full', imageId) },
      );
    },
    batchMissingPicks: async ({ batchId }) => ({ missingPicks: missingPicksAnswer(missingPicks(board.board(batchId))) }),
    batchReport: async ({ batchId }) => batchReport(deps.runner.detail(batchId)),
    batchReportCsv: async ({ batchId, folder }) => {
      const csv = batchReportCsv(deps.runner.detail(batchId));
      const target = await askFolder(deps, folder);
      if (target === null) return { file: null };
      const name = await createExclusive(target, `batch-report-${batchId}`, 'csv', csv, new Set(), 0);
      return { file: join(target, name) };
    },
  };
}

/** Re-runs inside a batch (reruns.ts): retry by hand, re-shoot a cell, raise the budget, finish. */
function rerunHandlers(deps: BatchHandlerDeps, board: Board): HandlerTable<RerunMethods> {
  const reruns = new Reruns({ db: deps.db, batches: deps.batches, runner: deps.runner, environment: deps.environment, language: deps.language, master: (productId) => board.masterOf(productId), ...(deps.now ? { now: deps.now } : {}) });
  return {
    batchRetryJob: async (input) => reruns.retryJob(input),
    batchRerunCell: async (input) => reruns.rerunCell(input),
    batchRaiseBudget: async (input) => reruns.raiseBudget(input),
    batchFinish: async (input) => reruns.finish(input),
  };
}

/** The product × shot board and its picks (board.ts); a pick sends `batch:changed` so every board re-reads. */
function boardHandlers(deps: BatchHandlerDeps, board: Board): HandlerTable<BoardMethods> {
  return {
    catalogGetBoard: async ({ batchId, ...part }) => board.board(batchId, part),
    catalogSetPick: async (input) => {
      const cell = board.setPick(input);
      // Named by the cell's latest job, so a board re-reads that row, not the whole batch.
      deps.changed(input.batchId, cell.jobIds.at(-1));
      return cell;
    },
    catalogSetProductMaster: async (input) => {
      const product = board.setMaster(input);
      deps.changed(input.batchId);
      return product;
    },
    // Many rows at once: the event names no job, so a board reads itself whole once.
    catalogPickOnlyCandidates: async ({ batchId }) => {
      const cells = board.pickOnlyCandidates(batchId);
      if (cells.length > 0) deps.changed(batchId);
      return { picked: cells.length, cells };
    },
    catalogClearPicks: async ({ batchId, cells }) => {
      const cleared = board.clearPicks(batchId, cells);
      if (cleared > 0) deps.changed(batchId);
      return { cleared };
    },
  };
}

export function createBatchHandlers(deps: BatchHandlerDeps): HandlerTable<BatchMethods> {
  const board = new Board({ db: deps.db, batches: deps.batches, product: (id) => deps.catalog.getProduct(id), ...(deps.now ? { now: deps.now } : {}) });
  return { ...productHandlers(deps), ...shotListHandlers(deps), ...runHandlers(deps, board), ...outputHandlers(deps, board), ...rerunHandlers(deps, board), ...boardHandlers(deps, board) };
}
