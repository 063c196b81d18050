// The Catalog's product × shot board (src-shared/ipc/batch-board.ts, docs/catalog.md "The board"): a batch's jobs
// grouped into cells (one product × one shot, every job the plan, a retry or a re-shoot made for it), each with one
// status, its candidates (the images of its succeeded jobs, with their marks) and its pick. Picks live in the
// library database (migration 0720, `batch_picks`); this file is their one owner: what a pick may be is decided here.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { BoardCell, BoardProduct, BoardShot, CatalogBoard, CellCandidate, CellStatus, SetPickInput } from '../../src-shared/ipc/batch-board.ts';
import type { Product } from '../../src-shared/ipc/batch.ts';
import type { PurposeId } from '../../src-shared/catalog.ts';
import { StudioError } from '../domain/errors.ts';
import { preparedOnce } from '../library/index.ts';
import type { BatchRepo } from './batch-repo.ts';
import { jobFacts, type JobView } from './reruns.ts';

type Row = Record<string, SQLInputValue>;
type Marks = Omit<CellCandidate, 'imageId' | 'jobId'>;

function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}

/** The cell's key: one product × one shot of the batch. */
function cellKey(productId: string, shotName: string): string {
  return `${productId}\u0000${shotName}`;
}

/** SQL of picks, and the marks of a batch's images (one statement each, not one per cell). */
class PicksRepo {
  private readonly sql: (text: string) => StatementSync;

  constructor(db: DatabaseSync) {
    this.sql = preparedOnce(db);
  }

  picks(batchId: string): Map<string, string> {
    const rows = this.sql('SELECT product_id, shot_name, image_id FROM batch_picks WHERE batch_id = ?').all(batchId) as Row[];
    return new Map(rows.map((r) => [cellKey(str(r.product_id), str(r.shot_name)), str(r.image_id)]));
  }

  setPick(batchId: string, productId: string, shotName: string, imageId: string | null, now: number): void {
    if (imageId === null) {
      this.sql('DELETE FROM batch_picks WHERE batch_id = ? AND product_id = ? AND shot_name = ?').run(batchId, productId, shotName);
      return;
    }
    this.sql(
      `INSERT INTO batch_picks (batch_id, product_id, shot_name, image_id, picked_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (batch_id, product_id, shot_name) DO UPDATE SET image_id = excluded.image_id, picked_at = excluded.picked_at`,
    ).run(batchId, productId, shotName, imageId, now);
  }

  /** Marks and download state of every image the batch's jobs made. */
  marks(batchId: string): Map<string, Marks> {
    const rows = this.sql(
      `SELECT i.id AS id, i.download AS download, i.rating AS rating, i.starred AS starred, i.rejected AS rejected
       FROM batch_jobs j JOIN images i ON i.turn_id = j.turn_id WHERE j.batch_id = ?`,
    ).all(batchId) as Row[];
    return new Map(
      rows.map((r) => [str(r.id), { download: str(r.download) as Marks['download'], rating: Number(r.rating), starred: Number(r.starred) === 1, rejected: Number(r.rejected) === 1 }]),
    );
  }
}

/** One status for a cell's jobs: something in flight first, then a result, then what its latest job says. */
function cellState(views: JobView[]): Pick<BoardCell, 'status' | 'startedAt' | 'code' | 'requestId'> {
  const none = { startedAt: null, code: null, requestId: null };
  const facts = views.map((view) => ({ view, facts: jobFacts(view) }));
  const running = facts.find((f) => f.facts.status === 'running');
  if (running) return { ...none, status: 'running', startedAt: running.view.turn?.startedAt ?? null };
  if (facts.some((f) => f.facts.status === 'queued')) return { ...none, status: 'queued' };
  if (facts.some((f) => f.facts.status === 'succeeded')) return { ...none, status: 'done' };
  // The latest job no retry stands in for says why the cell has no result.
  const latest = facts.filter((f) => f.view.replacedBy === null).at(-1) ?? facts.at(-1);
  if (!latest) return { ...none, status: 'not_sent' };
  const status = latest.facts.status as Exclude<CellStatus, 'running' | 'queued' | 'done' | 'not_sent'>;
  const code = status === 'failed' || status === 'unknown' ? (latest.facts.code ?? (status === 'unknown' ? 'outcome_unknown' : null)) : null;
  return { ...none, status, code, requestId: latest.facts.requestId };
}

function candidatesOf(views: JobView[], marks: Map<string, Marks>): CellCandidate[] {
  const out: CellCandidate[] = [];
  for (const view of views) {
    if (view.turn?.status !== 'succeeded') continue;
    for (const imageId of view.turn.imageIds) {
      const m = marks.get(imageId) ?? { download: 'pending', rating: 0, starred: false, rejected: false };
      out.push({ imageId, jobId: view.job.id, ...m });
    }
  }
  return out;
}

function buildCell(product: BoardProduct, shotName: string, views: JobView[], marks: Map<string, Marks>, pick: string | null): BoardCell {
  const candidates = candidatesOf(views, marks);
  return {
    productId: product.productId,
    sku: product.sku,
    shotName,
    ...cellState(views),
    candidates,
    // A pick whose image is no longer among the candidates (never expected: the image row cascades) is no pick.
    pick: pick !== null && candidates.some((c) => c.imageId === pick) ? pick : null,
    charged: views.reduce((sum, v) => sum + (v.turn?.creditsCharged ?? 0), 0),
    estimated: views.reduce((sum, v) => sum + v.job.estimate, 0),
    jobIds: views.map((v) => v.job.id),
  };
}

interface Grid {
  products: BoardProduct[];
  shots: BoardShot[];
  cells: Map<string, JobView[]>;
}

/** Products in plan order (with their master reference), shots in list order, and each cell's jobs. */
function gridOf(views: JobView[], product: (id: string) => Product | null): Grid {
  const products = new Map<string, BoardProduct>();
  const shots = new Map<string, { shot: BoardShot; index: number }>();
  const cells = new Map<string, JobView[]>();
  for (const view of views) {
    const { job } = view;
    if (!products.has(job.productId)) {
      products.set(job.productId, { productId: job.productId, sku: job.sku, name: job.productName, masterImageId: product(job.productId)?.referenceImageIds[0] ?? null });
    }
    const shot = shots.get(job.shotName);
    if (!shot || job.shotIndex < shot.index) shots.set(job.shotName, { shot: { name: job.shotName, kind: job.purpose as PurposeId }, index: job.shotIndex });
    const key = cellKey(job.productId, job.shotName);
    cells.set(key, [...(cells.get(key) ?? []), view]);
  }
  const ordered = [...shots.values()].sort((a, b) => a.index - b.index).map((s) => s.shot);
  return { products: [...products.values()], shots: ordered, cells };
}

export interface BoardDeps {
  db: DatabaseSync;
  batches: BatchRepo;
  /** The catalog's product (for its master reference), or null when it was deleted. */
  product: (productId: string) => Product | null;
  now?: () => number;
}

export class Board {
  private readonly deps: BoardDeps;
  private readonly picks: PicksRepo;
  private readonly now: () => number;

  constructor(deps: BoardDeps) {
    this.deps = deps;
    this.picks = new PicksRepo(deps.db);
    this.now = deps.now ?? Date.now;
  }

  board(batchId: string): CatalogBoard {
    const batch = this.deps.batches.getBatch(batchId);
    if (!batch) throw new StudioError('batch_not_found', { batchId });
    const grid = gridOf(this.deps.batches.jobViews(batchId), this.deps.product);
    const marks = this.picks.marks(batchId);
    const picks = this.picks.picks(batchId);
    const cells = grid.products.flatMap((p) =>
      grid.shots.map((s) => {
        const key = cellKey(p.productId, s.name);
        return buildCell(p, s.name, grid.cells.get(key) ?? [], marks, picks.get(key) ?? null);
      }),
    );
    return { batchId, state: batch.state, products: grid.products, shots: grid.shots, cells };
  }

  /** Sets or clears a cell's pick: only one of the cell's candidates, never a rejected one; a refusal changes nothing. */
  setPick(input: SetPickInput): BoardCell {
    const board = this.board(input.batchId);
    const product = board.products.find((p) => (input.productId !== undefined ? p.productId === input.productId : p.sku === input.sku));
    const cell = product ? board.cells.find((c) => c.productId === product.productId && c.shotName === input.shot) : undefined;
    if (!cell) throw new StudioError('batch_cell_not_found', { productId: input.productId ?? null, sku: input.sku ?? null, shot: input.shot });
    if (input.imageId !== null) {
      const candidate = cell.candidates.find((c) => c.imageId === input.imageId);
      if (!candidate) throw new StudioError('batch_pick_not_candidate', { imageId: input.imageId, sku: cell.sku, shot: cell.shotName }, { details: { imageId: input.imageId } });
      if (candidate.rejected) throw new StudioError('batch_pick_rejected', { imageId: input.imageId, sku: cell.sku, shot: cell.shotName }, { details: { imageId: input.imageId } });
    }
    this.picks.setPick(input.batchId, cell.productId, cell.shotName, input.imageId, this.now());
    return { ...cell, pick: input.imageId };
  }

  /** Every pick of the batch, by product and shot name (what the marketplace export writes in `picks` mode). */
  pickedImages(batchId: string): Map<string, string> {
    return this.picks.picks(batchId);
  }
}

export { cellKey as boardCellKey };
