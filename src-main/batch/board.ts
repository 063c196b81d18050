// The Catalog's product × shot board (src-shared/ipc/batch-board.ts, docs/catalog.md "The board"): a batch's jobs
// grouped into cells (one product × one shot, every job the plan, a retry or a re-shoot made for it), each with one
// status, its candidates (the images of its succeeded jobs, with their marks) and its pick. Picks live in the
// library database (migration 0720, `batch_picks`); this file is their one owner: what a pick may be is decided here.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { BoardCell, BoardProduct, BoardShot, CatalogBoard, CellCandidate, CellStatus, GetBoardInput, PickedCell, SetPickInput, SetProductMasterInput } from '../../src-shared/ipc/batch-board.ts';
import type { JobShot, Product } from '../../src-shared/ipc/batch.ts';
import { StudioError } from '../domain/errors.ts';
import { preparedOnce, storedError, transaction } from '../library/index.ts';
import { jobShotOf, visibleStatus, type BatchRepo, type BatchRow, type JobRowStatus, type VisibleJobStatus } from './batch-repo.ts';
import { ProductMasters } from './product-master.ts';
import { onlyCandidate } from '../../src-shared/only-candidate.ts';

type Row = Record<string, SQLInputValue>;

function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}
function numOrNull(v: SQLInputValue | undefined): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/** The cell's key: one product × one shot of the batch. */
function cellKey(productId: string, shotName: string): string {
  return `${productId}\u0000${shotName}`;
}

/** What the board needs of one job and its turn (read in one statement for the batch, not through the job list). */
interface CellJob extends JobShot {
  id: string;
  estimate: number;
  status: VisibleJobStatus;
  /** A person's retry stands in for it. */
  replaced: boolean;
  turnId: string | null;
  charged: number | null;
  code: string | null;
  requestId: string | null;
  startedAt: number | null;
}

/** Which cell a read is about: a product (by id or SKU) and a shot; or some products' rows; omitted = the whole batch. */
type CellWhere = { productId?: string | undefined; sku?: string | undefined; shotName: string } | { productIds: string[] };

function toCellJob(row: Row): CellJob {
  const error = storedError(row.t_error) ?? storedError(row.error);
  const turnId = row.turn_id === null || row.turn_id === undefined ? null : str(row.turn_id);
  return {
    id: str(row.id),
    ...jobShotOf(row),
    estimate: Number(row.estimate),
    status: visibleStatus(str(row.status) as JobRowStatus, row.t_status === null || row.t_status === undefined ? null : str(row.t_status)),
    replaced: Number(row.replaced) === 1,
    turnId,
    charged: numOrNull(row.t_charged),
    code: error?.code ?? null,
    requestId: row.t_request_id === null || row.t_request_id === undefined ? (error?.requestId ?? null) : str(row.t_request_id),
    startedAt: numOrNull(row.t_started_at),
  };
}

/** SQL of picks, and the board's reads: jobs with their turns, images with their marks (one statement each). */
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

  /** Clears a cell's pick only while it is still `imageId`; answers whether it did. */
  clearPickOf(batchId: string, productId: string, shotName: string, imageId: string): boolean {
    const result = this.sql('DELETE FROM batch_picks WHERE batch_id = ? AND product_id = ? AND shot_name = ? AND image_id = ?').run(batchId, productId, shotName, imageId);
    return Number(result.changes) > 0;
  }

  /** The filter of a one-cell read (by product id or SKU), or none for the whole batch. */
  private cellFilter(where: CellWhere | null): { text: string; params: SQLInputValue[] } {
    if (!where) return { text: '', params: [] };
    if ('productIds' in where) return { text: ' AND j.product_id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(where.productIds)] };
    return where.productId !== undefined
      ? { text: ' AND j.product_id = ? AND j.shot_name = ?', params: [where.productId, where.shotName] }
      : { text: ' AND j.sku = ? AND j.shot_name = ?', params: [where.sku ?? '', where.shotName] };
  }

  /** The batch's products in plan order (the order of their first job), as the jobs name them. */
  products(batchId: string): Array<Pick<BoardProduct, 'productId' | 'sku' | 'name'>> {
    const rows = this.sql(
      'SELECT product_id, sku, product_name, MIN(position) AS first FROM batch_jobs WHERE batch_id = ? GROUP BY product_id ORDER BY first',
    ).all(batchId) as Row[];
    return rows.map((r) => ({ productId: str(r.product_id), sku: str(r.sku), name: str(r.product_name) }));
  }

  /** The batch's shots in list order, each with the purpose of its first job. */
  shots(batchId: string): BoardShot[] {
    const rows = this.sql('SELECT shot_name, purpose, MIN(shot_index) AS idx FROM batch_jobs WHERE batch_id = ? GROUP BY shot_name ORDER BY idx').all(batchId) as Row[];
    return rows.map((r) => ({ name: str(r.shot_name), kind: str(r.purpose) as BoardShot['kind'] }));
  }

  jobs(batchId: string, where: CellWhere | null): CellJob[] {
    const filter = this.cellFilter(where);
    const rows = this.sql(
      `SELECT j.id, j.product_id, j.sku, j.product_name, j.shot_index, j.shot_name, j.purpose, j.estimate, j.status, j.turn_id, j.error,
              t.status AS t_status, t.credits_charged AS t_charged, t.error_json AS t_error, t.request_id AS t_request_id, t.started_at AS t_started_at,
              EXISTS (SELECT 1 FROM batch_jobs r WHERE r.replaces = j.id) AS replaced
       FROM batch_jobs j LEFT JOIN turns t ON t.id = j.turn_id WHERE j.batch_id = ?${filter.text} ORDER BY j.position`,
    ).all(batchId, ...filter.params) as Row[];
    return rows.map(toCellJob);
  }

  /** The images of the jobs' turns with their marks, per turn, in the turn's order. */
  images(batchId: string, where: CellWhere | null): Map<string, Array<Omit<CellCandidate, 'jobId'>>> {
    const filter = this.cellFilter(where);
    const rows = this.sql(
      `SELECT i.id, i.turn_id, i.download, i.rating, i.starred, i.rejected FROM batch_jobs j JOIN images i ON i.turn_id = j.turn_id
       WHERE j.batch_id = ?${filter.text} ORDER BY j.position, i.position`,
    ).all(batchId, ...filter.params) as Row[];
    const byTurn = new Map<string, Array<Omit<CellCandidate, 'jobId'>>>();
    for (const r of rows) {
      const list = byTurn.get(str(r.turn_id)) ?? [];
      list.push({ imageId: str(r.id), download: str(r.download) as CellCandidate['download'], rating: Number(r.rating), starred: Number(r.starred) === 1, rejected: Number(r.rejected) === 1 });
      byTurn.set(str(r.turn_id), list);
    }
    return byTurn;
  }
}

/** One status for a cell's jobs: something in flight first, then a result, then what its latest job says. */
function cellState(jobs: CellJob[]): Pick<BoardCell, 'status' | 'startedAt' | 'code' | 'requestId'> {
  const none = { startedAt: null, code: null, requestId: null };
  const running = jobs.find((j) => j.status === 'running');
  if (running) return { ...none, status: 'running', startedAt: running.startedAt };
  if (jobs.some((j) => j.status === 'queued')) return { ...none, status: 'queued' };
  if (jobs.some((j) => j.status === 'succeeded')) return { ...none, status: 'done' };
  // The latest job no retry stands in for says why the cell has no result.
  const latest = jobs.filter((j) => !j.replaced).at(-1) ?? jobs.at(-1);
  if (!latest) return { ...none, status: 'not_sent' };
  const status = latest.status as Exclude<CellStatus, 'running' | 'queued' | 'done' | 'not_sent'>;
  const code = status === 'failed' || status === 'unknown' ? (latest.code ?? (status === 'unknown' ? 'outcome_unknown' : null)) : null;
  return { ...none, status, code, requestId: latest.requestId };
}

/** A job whose credits are still to be settled: waiting, with the service, or with an outcome nobody knows (may be charged). */
const PENDING: ReadonlySet<VisibleJobStatus> = new Set(['queued', 'running', 'unknown']);

/**
 * What the cell's shot is expected to cost (`BoardCell.estimated`): what was charged (a refunded failure charged
 * nothing) plus the estimates of its jobs still pending; a cell with neither (never sent, or every send refunded) is
 * expected to cost its latest job's estimate, the price of sending it once more. Failed attempts never add up.
 */
export function expectedCost(jobs: ReadonlyArray<Pick<CellJob, 'status' | 'estimate' | 'charged'>>): number {
  const charged = chargedOf(jobs);
  const pending = jobs.reduce((sum, j) => sum + (PENDING.has(j.status) ? j.estimate : 0), 0);
  if (pending > 0 || charged > 0 || jobs.some((j) => j.status === 'succeeded')) return charged + pending;
  return jobs.at(-1)?.estimate ?? 0;
}

/** Credits charged for the cell's jobs so far (net of refunds). */
function chargedOf(jobs: ReadonlyArray<Pick<CellJob, 'charged'>>): number {
  return jobs.reduce((sum, j) => sum + (j.charged ?? 0), 0);
}

type Images = ReturnType<PicksRepo['images']>;

function candidatesOf(jobs: CellJob[], images: Images): CellCandidate[] {
  return jobs.flatMap((job) => (job.status === 'succeeded' && job.turnId !== null ? (images.get(job.turnId) ?? []).map((image) => ({ ...image, jobId: job.id })) : []));
}

function buildCell(product: BoardProduct, shotName: string, jobs: CellJob[], images: Images, pick: string | null): BoardCell {
  const candidates = candidatesOf(jobs, images);
  return {
    productId: product.productId,
    sku: product.sku,
    shotName,
    ...cellState(jobs),
    candidates,
    // A pick whose image is no longer among the candidates (never expected: the image row cascades) is no pick.
    pick: pick !== null && candidates.some((c) => c.imageId === pick) ? pick : null,
    charged: chargedOf(jobs),
    estimated: expectedCost(jobs),
    jobIds: jobs.map((j) => j.id),
  };
}

/** Each cell's jobs, by cell key, in job order. */
function jobsByCell(jobs: CellJob[]): Map<string, CellJob[]> {
  const cells = new Map<string, CellJob[]>();
  for (const job of jobs) {
    const key = cellKey(job.productId, job.shotName);
    const list = cells.get(key);
    if (list) list.push(job);
    else cells.set(key, [job]);
  }
  return cells;
}

/** The products a read answers: a window of them in board order, some by id, or all. */
function chosenProducts<T extends { productId: string }>(all: T[], input: Omit<GetBoardInput, 'batchId'>): T[] {
  if (input.productIds !== undefined) {
    const wanted = new Set(input.productIds);
    return all.filter((p) => wanted.has(p.productId));
  }
  if (input.offset === undefined && input.limit === undefined) return all;
  const offset = input.offset ?? 0;
  return all.slice(offset, input.limit === undefined ? undefined : offset + input.limit);
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

  private readonly masters: ProductMasters;

  constructor(deps: BoardDeps) {
    this.deps = deps;
    this.picks = new PicksRepo(deps.db);
    this.masters = new ProductMasters(deps.db, deps.batches);
    this.now = deps.now ?? Date.now;
  }

  /** The board, whole or a part of its rows (a window of products, or some products by id). */
  board(batchId: string, part: Omit<GetBoardInput, 'batchId'> = {}): CatalogBoard {
    const batch = this.require(batchId);
    const all = this.picks.products(batchId);
    const chosen = chosenProducts(all, part);
    const whole = chosen.length === all.length;
    const where = whole ? null : { productIds: chosen.map((p) => p.productId) };
    const cells = jobsByCell(this.picks.jobs(batchId, where));
    const images = this.picks.images(batchId, where);
    const picks = this.picks.picks(batchId);
    const masters = this.masters.all();
    const products = chosen.map((p) => this.withMaster(p, masters.get(p.productId) ?? null));
    const shots = this.picks.shots(batchId);
    const rows = products.flatMap((p) =>
      shots.map((s) => {
        const key = cellKey(p.productId, s.name);
        return buildCell(p, s.name, cells.get(key) ?? [], images, picks.get(key) ?? null);
      }),
    );
    return { batchId, state: batch.state, products, shots, cells: rows, productCount: all.length };
  }

  /** A row head: the chosen master, else the product's first reference. */
  private withMaster(p: Pick<BoardProduct, 'productId' | 'sku' | 'name'>, chosen: string | null): BoardProduct {
    if (chosen !== null) return { ...p, masterImageId: chosen, masterChosen: true };
    return { ...p, masterImageId: this.deps.product(p.productId)?.referenceImageIds[0] ?? null, masterChosen: false };
  }

  /** Chooses or clears a product's master reference (product-master.ts decides what it may be); answers the row head. */
  setMaster(input: SetProductMasterInput): BoardProduct {
    this.require(input.batchId);
    const product = this.picks.products(input.batchId).find((p) => p.productId === input.productId);
    if (!product) throw new StudioError('batch_cell_not_found', { productId: input.productId, sku: null, shot: '' });
    const chosen = this.masters.set(input, this.now());
    return this.withMaster(product, chosen);
  }

  /** The product's chosen master reference, or null (re-shoots and plans send it in place of the first reference). */
  masterOf(productId: string): string | null {
    return this.masters.get(productId);
  }

  /** One cell, read alone (a pick answers without reading the whole board). */
  private cell(batchId: string, where: CellWhere): BoardCell | null {
    const jobs = this.picks.jobs(batchId, where);
    const first = jobs[0];
    if (!first) return null;
    const product = { productId: first.productId, sku: first.sku, name: first.productName, masterImageId: null };
    return buildCell(product, first.shotName, jobs, this.picks.images(batchId, where), this.picks.picks(batchId).get(cellKey(first.productId, first.shotName)) ?? null);
  }

  /** Sets or clears a cell's pick: only one of the cell's candidates, never a rejected one; a refusal changes nothing. */
  setPick(input: SetPickInput): BoardCell {
    this.require(input.batchId);
    const cell = this.cell(input.batchId, { productId: input.productId, sku: input.sku, shotName: input.shot });
    if (!cell) throw new StudioError('batch_cell_not_found', { productId: input.productId ?? null, sku: input.sku ?? null, shot: input.shot });
    if (input.imageId !== null) {
      const candidate = cell.candidates.find((c) => c.imageId === input.imageId);
      if (!candidate) throw new StudioError('batch_pick_not_candidate', { imageId: input.imageId, sku: cell.sku, shot: cell.shotName }, { details: { imageId: input.imageId } });
      if (candidate.rejected) throw new StudioError('batch_pick_rejected', { imageId: input.imageId, sku: cell.sku, shot: cell.shotName }, { details: { imageId: input.imageId } });
    }
    this.picks.setPick(input.batchId, cell.productId, cell.shotName, input.imageId, this.now());
    return { ...cell, pick: input.imageId };
  }

  /**
   * Picks the only candidate of every cell that is done, has no pick yet and exactly one candidate not rejected (an
   * n=1 run), in one transaction; answers the cells picked.
   */
  pickOnlyCandidates(batchId: string): PickedCell[] {
    this.require(batchId);
    return transaction(this.deps.db, () => {
      const picked = this.board(batchId).cells.flatMap((cell) => onlyCandidate(cell) ?? []);
      const now = this.now();
      for (const cell of picked) this.picks.setPick(batchId, cell.productId, cell.shot, cell.imageId, now);
      return picked;
    });
  }

  /** Clears these cells' picks, each only while it is still the image named (a bulk pick undone); answers how many. */
  clearPicks(batchId: string, cells: readonly PickedCell[]): number {
    this.require(batchId);
    return transaction(this.deps.db, () => cells.filter((c) => this.picks.clearPickOf(batchId, c.productId, c.shot, c.imageId)).length);
  }

  private require(batchId: string): BatchRow {
    const batch = this.deps.batches.getBatch(batchId);
    if (!batch) throw new StudioError('batch_not_found', { batchId });
    return batch;
  }

  /** Every pick of the batch, by product and shot name (what the marketplace export writes in `picks` mode). */
  pickedImages(batchId: string): Map<string, string> {
    return this.picks.picks(batchId);
  }
}

export { cellKey as boardCellKey };
