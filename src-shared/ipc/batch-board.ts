// IPC: the Catalog's product × shot board (docs/catalog.md "The board"): for a batch, one row per product and one
// column per shot; each cell's status, its candidates (the images its jobs made, with their marks) and its pick,
// the one image that goes to the marketplace. A pick is stored in the library database (migration 0720).
import { z } from 'zod';
import type { PurposeId } from '../catalog.ts';
import { SHOT_NAME_MAX, SHOTS_MAX, SKU_MAX } from '../limits.ts';
import { IdSchema, method } from './contract.ts';
import type { BatchState } from './batch.ts';

/**
 * A cell's status: `queued` (a job waits), `running` (a job is with the service, since `startedAt`), `done` (a job
 * made images; a picked cell stays `done`), `failed` (with `code` and `requestId`), `unknown` (its outcome is
 * unknown), `over_budget` and `cancelled` (never sent), `not_sent` (the plan made no job for it).
 */
export const CELL_STATUSES = ['queued', 'running', 'done', 'failed', 'unknown', 'over_budget', 'not_sent', 'cancelled'] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];

/** One image a cell's jobs made, with its culling marks and whether its file is here yet. */
export interface CellCandidate {
  imageId: string;
  jobId: string;
  download: 'pending' | 'done' | 'failed';
  rating: number;
  starred: boolean;
  rejected: boolean;
}

export interface BoardCell {
  productId: string;
  sku: string;
  shotName: string;
  status: CellStatus;
  /** `running`: when its job was sent. */
  startedAt: number | null;
  /** `failed` / `unknown`: the error code (or `outcome_unknown`) and the service's request id. */
  code: string | null;
  requestId: string | null;
  candidates: CellCandidate[];
  /** The picked candidate's image id, or null. */
  pick: string | null;
  /**
   * Credits charged for the cell's jobs so far, and what its shot is expected to cost (src-main/batch/board.ts
   * `expectedCost`): charged plus the estimates of jobs still pending, or, with neither, its latest job's estimate.
   * Refunded failures count in neither.
   */
  charged: number;
  estimated: number;
  /** The cell's jobs, oldest first (a later re-run or retry last). */
  jobIds: string[];
}

export interface BoardProduct {
  productId: string;
  sku: string;
  name: string;
  /**
   * The product's master reference: the image chosen as master (`catalog:set-product-master`), else its first
   * reference image, or null (none, or the product was deleted).
   */
  masterImageId: string | null;
  /** Whether `masterImageId` was chosen from the product's candidates (later shots send it as their reference). */
  masterChosen?: boolean;
}

export interface BoardShot {
  name: string;
  /** The shot's purpose (main white, detail, …). */
  kind: PurposeId;
}

export interface CatalogBoard {
  batchId: string;
  state: BatchState;
  products: BoardProduct[];
  shots: BoardShot[];
  /** Row by row: every product × every shot, in the order of `products` and `shots`. */
  cells: BoardCell[];
  /** How many products the whole board has (with `offset`/`limit` or `productIds`, `products` is a part of them). */
  productCount?: number;
}

/** Most products one windowed read answers. */
export const BOARD_WINDOW_MAX = 1000;

export const GetBoardSchema = z.strictObject({
  batchId: IdSchema,
  /** Optional window over the products in board order (a board opens with its first rows, then reads the rest). */
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(BOARD_WINDOW_MAX).optional(),
  /** Optional: only these products' rows (one row refreshed after an event about it). */
  productIds: z.array(IdSchema).min(1).max(BOARD_WINDOW_MAX).optional(),
});
export type GetBoardInput = z.input<typeof GetBoardSchema>;

export const SetPickSchema = z
  .strictObject({
    batchId: IdSchema,
    /** The product, by id or by SKU (exactly one of the two). */
    productId: IdSchema.optional(),
    sku: z.string().min(1).max(SKU_MAX).optional(),
    /** The shot's name (`data-shot` of the cell). */
    shot: z.string().min(1).max(SHOT_NAME_MAX),
    /** One of the cell's candidates, or null to clear the pick. */
    imageId: IdSchema.nullable(),
  })
  .refine((input) => (input.productId === undefined) !== (input.sku === undefined), { message: 'give productId or sku, not both', path: ['productId'] });
export type SetPickInput = z.input<typeof SetPickSchema>;

export const SetProductMasterSchema = z.strictObject({
  batchId: IdSchema,
  productId: IdSchema,
  /** One of the product's candidates in this batch, or null to go back to the product's own first reference. */
  imageId: IdSchema.nullable(),
});
export type SetProductMasterInput = z.input<typeof SetProductMasterSchema>;

/** One cell a bulk pick set: its product, its shot and the image picked. */
export interface PickedCell {
  productId: string;
  shot: string;
  imageId: string;
}

export const PickOnlyCandidatesSchema = z.strictObject({ batchId: IdSchema });
export type PickOnlyCandidatesInput = z.input<typeof PickOnlyCandidatesSchema>;
/** What "pick the only candidate" did: how many cells it picked, and which (so Ctrl+Z can clear exactly those). */
export interface PickOnlyCandidatesAnswer {
  picked: number;
  cells: PickedCell[];
}

/** Most cells one call clears: every cell of the largest board read at once (products × shots). */
export const CLEAR_PICKS_MAX = BOARD_WINDOW_MAX * SHOTS_MAX;

export const ClearPicksSchema = z.strictObject({
  batchId: IdSchema,
  /** Each cell's pick is cleared only while it is still this image (a pick made since stays). */
  cells: z
    .array(z.strictObject({ productId: IdSchema, shot: z.string().min(1).max(SHOT_NAME_MAX), imageId: IdSchema }))
    .min(1)
    .max(CLEAR_PICKS_MAX),
});
export type ClearPicksInput = z.input<typeof ClearPicksSchema>;

export const batchBoardMethods = {
  /** The board of a batch: products, shots and every cell (status, candidates with marks, pick, cost) in one call. */
  catalogGetBoard: method<CatalogBoard>()('catalog:get-board', GetBoardSchema),
  /**
   * Sets (or with `imageId: null` clears) a cell's pick; answers the cell. An image that is not one of the cell's
   * candidates is refused (`batch_pick_not_candidate`), a rejected one too (`batch_pick_rejected`); an unknown batch
   * or cell is `batch_not_found` / `batch_cell_not_found`. A refusal changes nothing. Sends `batch:changed`.
   */
  catalogSetPick: method<BoardCell>()('catalog:set-pick', SetPickSchema),
  /**
   * Chooses (or with `imageId: null` clears) a product's master reference: later shots of the product (re-shoots,
   * next batches) send it as their reference instead of the product's first reference. Only one of the product's
   * candidates in the batch (`batch_master_not_candidate`), never a rejected one (`batch_master_rejected`), and only
   * when every shot of the product there still fits its model with it, the reference limit included
   * (`batch_master_unusable`, naming the shot and the rule). Answers the product's row head. Sends `batch:changed`.
   */
  catalogSetProductMaster: method<BoardProduct>()('catalog:set-product-master', SetProductMasterSchema),
  /**
   * Picks, in one transaction, the only candidate of every cell that is done, has no pick and exactly one candidate
   * that is not rejected (an n=1 run: 480 presses for 120 products × 4 shots otherwise); answers how many and which.
   * An unknown batch is `batch_not_found`. Sends `batch:changed` when it picked any.
   */
  catalogPickOnlyCandidates: method<PickOnlyCandidatesAnswer>()('catalog:pick-only-candidates', PickOnlyCandidatesSchema),
  /**
   * Clears these cells' picks in one transaction, each only while it is still the image named (undo of a bulk pick);
   * answers how many were cleared. Sends `batch:changed` when it cleared any.
   */
  catalogClearPicks: method<{ cleared: number }>()('catalog:clear-picks', ClearPicksSchema),
};
