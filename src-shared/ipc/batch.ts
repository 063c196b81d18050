// IPC: catalog production (docs/catalog.md): products, shot lists, a batch plan (products × shot list, priced by
// the same functions as the compose form), a batch run (a persisted queue in the library database), marketplace
// export and the batch report. Progress arrives as `batch:changed` events; the batch's rows are the truth.
import { z } from 'zod';
import { IMAGE_COUNTS, MODEL_IDS, PURPOSE_IDS, QUALITIES, RATIOS, RESOLUTIONS, type ConcreteModelId, type PurposeId } from '../catalog.ts';
import type { GenerateRequest } from '../api.ts';
import {
  BATCH_CONCURRENCY_MAX,
  DEFAULT_BATCH_CONCURRENCY,
  EXPORT_SELECTIONS,
  PRODUCT_CSV_MAX_BYTES,
  PRODUCT_NAME_MAX,
  PRODUCT_NOTES_MAX,
  PRODUCT_PROMPT_MAX,
  SHOT_ADDITION_MAX,
  SHOT_NAME_MAX,
  SHOTS_MAX,
  SKU_MAX,
} from '../limits.ts';
import { IdSchema, method, type IpcError } from './contract.ts';
import { isAbsolutePath } from './export.ts';
import { oneLineName } from './text-fields.ts';
import type { EnvironmentName } from './settings.ts';
import type { Language } from '../language.ts';
import type { BatchReruns, JobOrigin, JobRetryOffer } from './batch-reruns.ts';

// ---- products ----

export { PRODUCT_NAME_MAX, PRODUCT_NOTES_MAX, PRODUCT_PROMPT_MAX, SKU_MAX };

export interface Product {
  /** Local id (pr_…). */
  id: string;
  /** Unique in the library (compared exactly); used in export names. */
  sku: string;
  name: string;
  /** The product's description: every shot's prompt starts with it. */
  prompt: string;
  notes: string;
  /** Library image ids (the account's own images, spec §4.1 rule 3), in order. */
  referenceImageIds: string[];
  createdAt: number;
  updatedAt: number;
}

export const ProductInputSchema = z.strictObject({
  /** Omitted = a new product. */
  id: IdSchema.optional(),
  sku: oneLineName(SKU_MAX),
  name: oneLineName(PRODUCT_NAME_MAX),
  prompt: z.string().max(PRODUCT_PROMPT_MAX).default(''),
  notes: z.string().max(PRODUCT_NOTES_MAX).default(''),
  referenceImageIds: z.array(IdSchema).max(16).default([]),
});
export type ProductInput = z.input<typeof ProductInputSchema>;

/** One problem of an imported CSV: 1-based line and column of the file, the column's name when known. */
export interface CsvProblem {
  line: number;
  column: number;
  field: string | null;
  /** `missing_header`, `unknown_column`, `duplicate_column`, `missing_column`, `unclosed_quote`, `stray_quote`, `empty`, `too_long`, `control_character`, `duplicate_sku`, `wrong_field_count`, `invalid_utf8`. */
  reason: string;
  /** Facts for the message (limit, the other line of a duplicate SKU). */
  params?: Record<string, unknown>;
}

/** The encodings a product file is read in (src-main/batch/text-encoding.ts decides which): spreadsheets save these. */
export const CSV_ENCODINGS = ['utf-8', 'utf-8-bom', 'utf-16le', 'utf-16be', 'gb18030'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];
/**
 * Encodings a product file is refused in but recognised (`product_csv_encoding`'s `details.looksLike`), so the
 * refusal names what was found: Japanese, Korean and Traditional Chinese files from other Windows locales.
 */
export const CSV_FOREIGN_ENCODINGS = ['shift_jis', 'euc-jp', 'euc-kr', 'big5'] as const;
export type CsvForeignEncoding = (typeof CSV_FOREIGN_ENCODINGS)[number];
/** Comma, or tab when the header is tab-separated (Excel's "Unicode text"). */
export type CsvSeparator = 'comma' | 'tab';

// ---- shot lists ----

export { SHOT_ADDITION_MAX, SHOT_NAME_MAX, SHOTS_MAX };

export const ShotSchema = z.strictObject({
  name: oneLineName(SHOT_NAME_MAX),
  purpose: z.enum(PURPOSE_IDS),
  model: z.enum(MODEL_IDS),
  ratio: z.enum(RATIOS),
  resolution: z.enum(RESOLUTIONS).optional(),
  quality: z.enum(QUALITIES).optional(),
  n: z.union(IMAGE_COUNTS.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<4>]),
  promptAddition: z.string().max(SHOT_ADDITION_MAX).default(''),
});
/**
 * A shot: short name (unique in its list; `{shot}` in export names), purpose, model, ratio, resolution (omitted =
 * the model's default), quality (GPT models; omitted = medium), n, and the prompt addition (appended to the
 * product's prompt).
 */
export type Shot = z.output<typeof ShotSchema>;

export interface ShotList {
  /** Local id (sl_…); built-in presets have fixed ids (`sl_preset_…`). */
  id: string;
  name: string;
  /** The preset this list is (possibly edited), or null for the user's own. */
  preset: string | null;
  /** A built-in preset changed by the user (`shotlist:reset` brings it back). */
  edited: boolean;
  shots: Shot[];
  updatedAt: number;
  /**
   * A built-in list a batch ran: its shots keep that batch's words (names, prompt additions) in this language, whatever
   * the UI language, since picks, the board and exports go by shot name. Absent or null: they follow the UI language.
   */
  keptLanguage?: Language | null;
}

export const ShotListInputSchema = z.strictObject({
  /** Omitted = a new list. */
  id: IdSchema.optional(),
  name: oneLineName(80),
  shots: z.array(ShotSchema).min(1).max(SHOTS_MAX),
});
export type ShotListInput = z.input<typeof ShotListInputSchema>;

// ---- the plan ----

export { BATCH_CONCURRENCY_MAX, DEFAULT_BATCH_CONCURRENCY };

/** Which product × shot a job makes: what a planned job and a sent one share. */
export interface JobShot {
  productId: string;
  sku: string;
  productName: string;
  shotIndex: number;
  shotName: string;
  purpose: PurposeId;
}

export interface PlanJob extends JobShot {
  /** Exactly what is sent (without session_id). */
  request: GenerateRequest;
  /** The model auto chose (or the shot's own). */
  model: ConcreteModelId;
  /** What the service reserves for it (spec §4.1, estimateCredits). */
  estimate: number;
}

/** A product × shot that cannot be sent as it is (no job is made for it). */
export interface PlanProblem {
  productId: string;
  sku: string;
  shotName: string;
  code: string;
  message: string;
}

export interface BatchPlan {
  jobs: PlanJob[];
  problems: PlanProblem[];
  /** Sum of every job's estimate. */
  total: number;
  perProduct: Array<{ productId: string; sku: string; name: string; jobs: number; total: number }>;
  environment: EnvironmentName;
  /** On Local: the account's balance now (credits minus reservations); null elsewhere or when unknown. */
  balance: number | null;
  /** balance − total (negative = short), or null. */
  balanceAfter: number | null;
  /** The budget asked for, and how many jobs (in order) fit in it (every job when there is none). */
  budget: number | null;
  jobsWithinBudget: number;
  /**
   * The products × shots of this plan that already have a result or a job on its way in a batch of the same shot
   * list on this environment (`picked`: how many of them have a pick; `batches`: in how many batches): Start warns.
   */
  alreadyMade: { cells: number; picked: number; batches: number };
  /** "Only what is missing": the plan's jobs for the other products × shots (never a done shot) and their total. */
  missing: { jobs: number; total: number };
}

export const BatchPlanInputSchema = z.strictObject({
  productIds: z.array(IdSchema).min(1).max(1000),
  shotListId: IdSchema,
  /** Credits the batch may spend at most (reservations counted); null/omitted = no cap. */
  budget: z.number().int().min(1).max(100_000_000).nullable().optional(),
  /** The list's unsaved edits: the plan is priced with these shots instead of the saved ones (nothing is saved). */
  shots: ShotListInputSchema.shape.shots.optional(),
  /** true: only the products × shots with no result yet (`missing`); `jobs` and the totals are theirs. */
  onlyMissing: z.boolean().optional(),
});
export type BatchPlanInput = z.input<typeof BatchPlanInputSchema>;

// ---- the run ----

export type BatchState = 'running' | 'paused' | 'cancelled' | 'done';

/**
 * `queued`: waits its turn; `running`: sent, waiting for the service; `succeeded`; `failed` (its code says why;
 * nothing more will be sent for it); `unknown`: its outcome is unknown (timeout, crash, lost connection): never
 * resent by the batch, left to the user (on Local reconciled from the service); `over_budget`: not sent, its
 * reservation would have taken the batch over its budget; `cancelled`: not sent, the batch was cancelled.
 */
export type BatchJobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown' | 'over_budget' | 'cancelled';

/**
 * `user`: paused by the user; `rate_limited` / `daily_limit`: the service asked to wait (goes on by itself at
 * `until`); `insufficient_credits`: the next job costs more than the balance (Resume after a top-up);
 * `restarted`: the app stopped mid-batch (Resume goes on; nothing in flight is resent); `service_unreachable`: the
 * service did not answer (Resume to try again); `problem`: something stops every job (no key, another environment
 * selected); the message says what.
 */
export type BatchPauseReason = 'user' | 'rate_limited' | 'daily_limit' | 'insufficient_credits' | 'restarted' | 'service_unreachable' | 'problem';

export interface BatchPause {
  reason: BatchPauseReason;
  /** When the batch goes on by itself (rate limit, daily limit); null = waits for Resume. */
  until: number | null;
  /** insufficient_credits: credits the next job needs, and the balance when it was refused (if known). */
  needed: number | null;
  /** In the UI language. */
  message: string;
}

export interface BatchJob extends JobShot {
  id: string;
  position: number;
  /** Local session of the product's jobs in this batch (titled with the product). */
  sessionId: string;
  request: GenerateRequest;
  estimate: number;
  status: BatchJobStatus;
  /** The library turn of its last send (lt_…), once sent; earlier sends (a 429 then a resend) in `turnIds`. */
  turnId: string | null;
  turnIds: string[];
  imageIds: string[];
  creditsCharged: number | null;
  error: IpcError | null;
  requestId: string | null;
  /** Why its outcome is unknown, and how to check, in the UI language. */
  note: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  /** `plan`, or added by a person: `retry` (of the job it `replaces`), `rerun` (a re-shoot of the cell). */
  origin: JobOrigin;
  replaces: string | null;
  /** The job a person's retry of this one made, or null. */
  replacedBy: string | null;
  /** Whether a person may retry it now (`batch:retry-job`), and why not. */
  retry: JobRetryOffer;
}

export interface BatchCounts {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  unknown: number;
  overBudget: number;
  cancelled: number;
  /** Failed jobs a person's retry stands in for (batch:retry-job): counted here, not as failed, nor in `jobCount`. */
  replaced: number;
}

/**
 * A batch's progress with every job in exactly one part (src-main/batch/progress.ts): done + failed + unknown +
 * overBudget + cancelled + remaining = `jobCount`. `unsent` = overBudget + cancelled (never sent, still sendable:
 * raise the budget, "only what is missing"): a batch that ended with some is "finished" only with them said.
 */
export interface BatchParts {
  done: number;
  failed: number;
  unknown: number;
  overBudget: number;
  cancelled: number;
  remaining: number;
  unsent: number;
}

export interface BatchSummary {
  id: string;
  name: string;
  createdAt: number;
  environment: EnvironmentName;
  /** The shot list the batch ran (the Catalog selects it again after a reload). */
  shotListId: string;
  shotListName: string;
  state: BatchState;
  pause: BatchPause | null;
  budget: number | null;
  concurrency: number;
  /** The plan's total (every job's estimate). */
  planned: number;
  jobCount: number;
  counts: BatchCounts;
  /** succeeded; failed + unknown; queued + running (`batch-progress`'s data attributes; `parts` has every part). */
  done: number;
  failed: number;
  remaining: number;
  /** Every job in one part, the parts adding up to `jobCount` (what the progress line says). */
  parts: BatchParts;
  /** Credits charged by the batch's jobs (net of partial refunds). */
  spent: number;
  /** Reserved by jobs in flight (their estimates). */
  reserved: number;
  /** Estimated ms until the queue is empty at the current pace; null before the first job ends or when paused. */
  etaMs: number | null;
  /** Jobs a person added after the plan (retries, re-shoots): `planned` plus their estimates is the batch's whole price. */
  reruns: BatchReruns;
}

export interface BatchDetail extends BatchSummary {
  jobs: BatchJob[];
}

export const BatchCreateSchema = z.strictObject({
  productIds: BatchPlanInputSchema.shape.productIds,
  shotListId: BatchPlanInputSchema.shape.shotListId,
  budget: BatchPlanInputSchema.shape.budget,
  /** true: only the products × shots with no result yet in a batch of this shot list (the plan's `missing`). */
  onlyMissing: BatchPlanInputSchema.shape.onlyMissing,
  concurrency: z.number().int().min(1).max(BATCH_CONCURRENCY_MAX).default(DEFAULT_BATCH_CONCURRENCY),
  /** Default true; false = created paused (starts on `batch:resume`). */
  start: z.boolean().default(true),
  /** The plan total the user saw: refused (`batch_plan_changed`) if the plan now costs something else. */
  expectedTotal: z.number().int().min(0).optional(),
});
export type BatchCreateInput = z.input<typeof BatchCreateSchema>;

const BatchIdSchema = z.strictObject({ batchId: IdSchema });
/** Omitted = ask with the folder chooser. */
const FolderSchema = z.strictObject({ folder: z.string().min(1).max(4096).refine(isAbsolutePath, 'must be an absolute path').optional() });

// ---- marketplace export and report ----

export interface MarketplacePresetInfo {
  id: string;
  name: string;
  /** One line: size, fit, format, limits. */
  summary: string;
}

export const BatchExportSchema = z.strictObject({
  batchId: IdSchema,
  presetId: IdSchema,
  /** Default `{sku}_{shot}_{index}`; fields: sku, shot, index, product, model, purpose, date. */
  template: z.string().max(200).optional(),
  /** Omitted = ask with the folder chooser. One folder per product is made inside it. */
  folder: FolderSchema.shape.folder,
  /** Also export images of white-background shots whose border is not white (default false: listed, not written). */
  includeFailedChecks: z.boolean().default(false),
  /**
   * Which images: `picks` (each cell's pick; a product × shot without one is listed in `missingPicks`), `starred`, or
   * `not_rejected` (every result). Rejected images are never written. Omitted = `not_rejected` (what a caller that
   * names no mode got before picks existed, rejects left out); the export dialog starts on `picks`.
   */
  mode: z.enum(EXPORT_SELECTIONS).default('not_rejected'),
});
export { EXPORT_SELECTIONS };
export type ExportSelection = (typeof EXPORT_SELECTIONS)[number];
export type BatchExportInput = z.input<typeof BatchExportSchema>;

export interface WhiteCheck {
  /** Share of border pixels (0–1) within the tolerance of pure white. */
  whiteShare: number;
  passed: boolean;
}

export interface MarketplaceExportFile {
  imageId: string;
  sku: string;
  shotName: string;
  /** Path relative to the export folder: `<product folder>/<file>`. */
  file: string;
  width: number;
  height: number;
  bytes: number;
  /** null when the shot's purpose needs no white background. */
  whiteCheck: WhiteCheck | null;
}

export interface MarketplaceExportSummary {
  folder: string | null;
  presetId: string;
  written: MarketplaceExportFile[];
  /** Not written: a white-background check failed (unless included), the file is missing, or it cannot fit the preset's size limit. */
  flagged: Array<{ imageId: string; sku: string; shotName: string; reason: 'not_white' | 'not_downloaded' | 'too_large' | 'unreadable'; whiteCheck: WhiteCheck | null }>;
  /** `manifest.csv` inside folder, or null when nothing was written. */
  manifestFile: string | null;
  bytes: number;
  /** The images chosen (`mode` of the input). */
  mode: ExportSelection;
  /**
   * `picks` mode: every product × shot that has no pick to write, never skipped silently (also in the manifest, status
   * `no_pick`): `no_pick` (candidates, none picked), `no_result` (no usable candidate), `pick_rejected` (the pick was
   * rejected since). Empty in the other modes.
   */
  missingPicks: Array<{ sku: string; productName: string; shotName: string; reason: 'no_pick' | 'no_result' | 'pick_rejected' }>;
}

export interface BatchReportRow {
  productId: string;
  sku: string;
  name: string;
  jobs: number;
  succeeded: number;
  failed: number;
  unknown: number;
  notSent: number;
  images: number;
  estimated: number;
  charged: number;
  /** Estimated minus charged of succeeded jobs that produced fewer images than asked (spec §4.1 partial runs). */
  refunded: number;
  failures: Array<{ jobId: string; shotName: string; code: string; requestId: string | null; message: string }>;
  /** Jobs a person added after the plan (retries by hand, re-shoots), counted in the rows above too. */
  reruns: number;
}

export interface BatchReport {
  batchId: string;
  products: BatchReportRow[];
  total: Omit<BatchReportRow, 'productId' | 'sku' | 'name' | 'failures'> & { failures: number };
}

export const batchMethods = {
  productList: method<Product[]>()('product:list', z.object({})),
  /** Creates or updates; a SKU another product has is refused (`product_sku_taken`). */
  productSave: method<Product>()('product:save', ProductInputSchema),
  productDelete: method<{ deleted: boolean }>()('product:delete', z.strictObject({ id: IdSchema })),
  /**
   * A product list (`sku,name,prompt`, optional `notes`; RFC 4180 quotes; comma-separated, or tab-separated when the
   * header is), either as text (`csv`) or as the file's bytes (`fileBase64`), which main reads in the encoding it
   * detects: UTF-8 with or without BOM, UTF-16 LE/BE with BOM, GB18030/GBK; any other file answers
   * `product_csv_encoding` once. All or nothing: any bad row answers `product_csv_invalid` with `details.problems`
   * (CsvProblem[]) and nothing is imported. A known SKU updates that product. Answers counts (`imported` = created +
   * updated), the separator read and, for bytes, the encoding read; read the list with `product:list`. Written in
   * chunks between which main keeps answering (src-main/batch/product-import.ts).
   */
  productImport: method<{ imported: number; created: number; updated: number; separator: CsvSeparator; encoding?: CsvEncoding }>()(
    'product:import',
    z.union([
      z.strictObject({ csv: z.string().max(PRODUCT_CSV_MAX_BYTES), fileName: z.string().max(260).optional() }),
      z.strictObject({ fileBase64: z.string().max(Math.ceil(PRODUCT_CSV_MAX_BYTES / 3) * 4), fileName: z.string().max(260).optional() }),
    ]),
  ),
  /** The product list written as `products.csv` (UTF-8 with BOM; the columns the import takes) into a folder; file null = chooser cancelled. */
  productExport: method<{ file: string | null; count: number }>()('product:export', FolderSchema),

  shotListList: method<ShotList[]>()('shotlist:list', z.object({})),
  /** Every shot is checked against the catalog; one a model cannot honour is refused (`shot_not_supported`, naming the shot and why). */
  shotListSave: method<ShotList>()('shotlist:save', ShotListInputSchema),
  shotListDelete: method<{ deleted: boolean }>()('shotlist:delete', z.strictObject({ id: IdSchema })),
  /** A built-in preset back to what ships with the app. */
  shotListReset: method<ShotList>()('shotlist:reset', z.strictObject({ id: IdSchema })),

  batchPlan: method<BatchPlan>()('batch:plan', BatchPlanInputSchema),
  batchCreate: method<BatchDetail>()('batch:create', BatchCreateSchema),
  batchList: method<BatchSummary[]>()('batch:list', z.object({})),
  batchGet: method<BatchDetail>()('batch:get', BatchIdSchema),
  batchPause: method<BatchSummary>()('batch:pause', BatchIdSchema),
  /** Goes on from where it stopped; jobs whose outcome is unknown are never resent. */
  batchResume: method<BatchSummary>()('batch:resume', BatchIdSchema),
  /** Sends no more jobs; the ones running finish. */
  batchCancel: method<BatchSummary>()('batch:cancel', BatchIdSchema),
  batchSetConcurrency: method<BatchSummary>()('batch:set-concurrency', z.strictObject({ batchId: BatchIdSchema.shape.batchId, concurrency: z.number().int().min(1).max(BATCH_CONCURRENCY_MAX) })),
  marketplacePresets: method<MarketplacePresetInfo[]>()('batch:export-presets', z.object({})),
  batchExport: method<MarketplaceExportSummary>()('batch:export', BatchExportSchema),
  /**
   * Before a `picks` export: every product × shot with no pick to write, and why, in board order (the list
   * `batch:export` answers in `missingPicks` and writes in the manifest), so the designer can pick first. Writes nothing.
   */
  batchMissingPicks: method<{ missingPicks: MarketplaceExportSummary['missingPicks'] }>()('batch:missing-picks', BatchIdSchema),
  batchReport: method<BatchReport>()('batch:report', BatchIdSchema),
  /** The report written as `batch-report-<id>.csv` (UTF-8 with BOM: one row per job, then per product and total rows); file null = chooser cancelled. */
  batchReportCsv: method<{ file: string | null }>()('batch:report-csv', BatchIdSchema.extend(FolderSchema.shape)),
};
