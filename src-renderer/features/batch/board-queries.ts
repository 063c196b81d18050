// The board's data from main (catalog:get-board, catalog:set-pick, catalog:set-product-master) and its marks (the
// one mark hook, lib/library-state/marks.ts). The board opens with its first rows (a small window), then reads the
// whole board; events refresh only the rows they are about: a job's `batch:changed` its product's row, an image's
// change (library-events.ts watchLibraryImages) the rows holding it; an event naming nothing the board holds (a new
// re-run job, the batch's state, a pick from elsewhere) reads the whole board again. At most ~4 flushes a second.
// A pick or a mark shows on the board at once; main's answer then brings the truth. Picks and master choices go on
// the one undo stack with the marks (lib/library-state/undo.ts): Ctrl+Z puts the earlier one back.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { BoardCell, BoardProduct, CatalogBoard, CellCandidate, SetPickInput, SetProductMasterInput } from '../../../src-shared/ipc/batch-board.ts';
import { call, onEvent } from '../../lib/desktop.ts';
import { watchLibraryImages } from '../../lib/library-state/library-events.ts';
import { useMark, type Marks } from '../../lib/library-state/marks.ts';
import { cellName, placeName } from '../../lib/library-state/store.ts';
import { joinNewest, oneAfterAnother, remember, say, type UndoEntry } from '../../lib/library-state/undo.ts';
import { batchKeys } from './queries.ts';

export const boardKey = (batchId: string) => [...batchKeys.all(), 'board', batchId] as const;
const firstRowsKey = (batchId: string) => [...boardKey(batchId), 'first'] as const;
const wholeKey = (batchId: string) => [...boardKey(batchId), 'whole'] as const;

/** How many rows the board opens with (more than a screen holds), before the whole board is in. */
const FIRST_ROWS = 24;
/** How often events may refresh the board (a running batch and its downloads send many). */
const REFRESH_MS = 250;

function firstRowsQuery(batchId: string | null) {
  return {
    queryKey: firstRowsKey(batchId ?? ''),
    queryFn: () => call('catalogGetBoard', { batchId: batchId ?? '', offset: 0, limit: FIRST_ROWS }),
    enabled: batchId !== null,
  };
}

/**
 * Whether the board of `batchId` has its first rows (or failed, or there is none): the page's other reads wait for
 * it once, when the page opens; a batch shown later (one just started) keeps them.
 */
export function useBoardOpened(batchId: string | null): boolean {
  const first = useQuery(firstRowsQuery(batchId));
  const ready = batchId === null || first.data !== undefined || first.error !== null;
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (!ready || opened) return;
    // A task after the board's rows were committed and painted: the rest of the page never delays them.
    const id = window.setTimeout(() => setOpened(true), 0);
    return () => window.clearTimeout(id);
  }, [ready, opened]);
  return opened;
}

/** The board: its first rows at once, then the whole of it. */
export function useBoard(batchId: string | null) {
  const first = useQuery(firstRowsQuery(batchId));
  const whole = useQuery({
    queryKey: wholeKey(batchId ?? ''),
    queryFn: () => call('catalogGetBoard', { batchId: batchId ?? '' }),
    enabled: batchId !== null && first.data !== undefined,
    // Events carry the progress; this only covers one missed while jobs are in flight.
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 5_000 : false),
  });
  return { data: whole.data ?? first.data ?? null, error: whole.error ?? first.error, whole: whole.data !== undefined };
}

/** The board with some products' rows replaced by a fresh read of them (rows not read keep their very objects). */
export function withRows(board: CatalogBoard, rows: CatalogBoard): CatalogBoard | null {
  if (rows.shots.length !== board.shots.length || rows.shots.some((s, i) => s.name !== board.shots[i]?.name)) return null;
  const width = board.shots.length;
  const fresh = new Map(rows.products.map((p, i) => [p.productId, i]));
  const cells = board.cells.slice();
  const products = board.products.map((p, r) => {
    const i = fresh.get(p.productId);
    if (i === undefined) return p;
    for (let s = 0; s < width; s++) cells[r * width + s] = rows.cells[i * width + s] as BoardCell;
    return rows.products[i] as BoardProduct;
  });
  return { ...board, state: rows.state, products, cells };
}

function boards(client: QueryClient, batchId: string): CatalogBoard[] {
  return client.getQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }).flatMap(([, data]) => (data ? [data] : []));
}

/** The rows (product ids) of the cached board that hold one of these jobs or images; null when one is not on it. */
function rowsHolding(client: QueryClient, batchId: string, test: (cell: BoardCell) => boolean): Set<string> {
  const rows = new Set<string>();
  for (const board of boards(client, batchId)) for (const cell of board.cells) if (test(cell)) rows.add(cell.productId);
  return rows;
}

/** Reads these products' rows and puts them in every cached board of the batch (the whole board again if shots moved). */
async function refreshRows(client: QueryClient, batchId: string, productIds: string[]): Promise<void> {
  const rows = await call('catalogGetBoard', { batchId, productIds });
  let stale = false;
  client.setQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }, (board) => {
    if (!board) return board;
    const next = withRows(board, rows);
    if (!next) stale = true;
    return next ?? board;
  });
  if (stale) await client.invalidateQueries({ queryKey: boardKey(batchId) });
}

/** Gathers what events make stale (some rows, or the whole board) and refreshes it at most every REFRESH_MS. */
function boardRefresher(client: QueryClient, batchId: string) {
  let rows = new Set<string>();
  let whole = false;
  let timer: number | null = null;
  let last = 0;
  const flush = () => {
    timer = null;
    last = Date.now();
    const ids = [...rows];
    const all = whole;
    rows = new Set();
    whole = false;
    if (all) void client.invalidateQueries({ queryKey: boardKey(batchId) });
    else if (ids.length > 0) void refreshRows(client, batchId, ids).catch(() => client.invalidateQueries({ queryKey: boardKey(batchId) }));
  };
  const schedule = () => {
    if (timer === null) timer = window.setTimeout(flush, Math.max(0, last + REFRESH_MS - Date.now()));
  };
  return {
    /** A job changed: its row, or the whole board when the board does not hold it yet (a new re-run). */
    job(jobId: string | undefined) {
      const held = jobId === undefined ? new Set<string>() : rowsHolding(client, batchId, (cell) => cell.jobIds.includes(jobId));
      if (held.size === 0) whole = true;
      for (const id of held) rows.add(id);
      schedule();
    },
    /** Images changed (a download, marks): the rows holding them; nothing when the board holds none of them. */
    images(ids: ReadonlySet<string>) {
      const held = rowsHolding(client, batchId, (cell) => cell.candidates.some((c) => ids.has(c.imageId)));
      if (held.size === 0) return;
      for (const id of held) rows.add(id);
      schedule();
    },
    stop: () => {
      if (timer !== null) window.clearTimeout(timer);
    },
  };
}

/** Keeps the board of `batchId` current from `batch:changed` and the library's image changes, row by row. */
export function useBoardEvents(batchId: string | null): void {
  const client = useQueryClient();
  useEffect(() => {
    if (batchId === null) return;
    const refresher = boardRefresher(client, batchId);
    const offBatch = onEvent('batch:changed', (e) => {
      if (e.batchId === batchId) refresher.job(e.jobId);
    });
    const offImages = watchLibraryImages((ids) => refresher.images(ids));
    return () => {
      offBatch();
      offImages();
      refresher.stop();
    };
  }, [client, batchId]);
}

function patchCells(client: QueryClient, batchId: string, patch: (cell: BoardCell) => BoardCell): void {
  client.setQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }, (board) => (board ? { ...board, cells: board.cells.map(patch) } : board));
}

/** A cell as a pick names it: its product (by id, or by SKU) and its shot. */
type CellAt = Pick<SetPickInput, 'productId' | 'sku' | 'shot'>;

const isCell = (at: CellAt) => (c: BoardCell) => c.shotName === at.shot && (at.productId !== undefined ? c.productId === at.productId : c.sku === at.sku);

/** Shows a pick on every cached board of the batch: at once as asked, then as main stored it. */
function showPick(client: QueryClient, batchId: string, at: CellAt, pick: string | null): void {
  const here = isCell(at);
  patchCells(client, batchId, (c) => (here(c) ? { ...c, pick } : c));
}

/** The cell's pick as the board shows it; undefined when no board here holds the cell. */
function shownPick(client: QueryClient, batchId: string, at: CellAt): string | null | undefined {
  for (const board of boards(client, batchId)) {
    const cell = board.cells.find(isCell(at));
    if (cell) return cell.pick;
  }
  return undefined;
}

function showProduct(client: QueryClient, batchId: string, product: BoardProduct): void {
  client.setQueriesData<CatalogBoard>({ queryKey: boardKey(batchId) }, (board) =>
    board ? { ...board, products: board.products.map((p) => (p.productId === product.productId ? product : p)) } : board,
  );
}

/** A product's row as main has it now (its head and its cells), or null when main cannot say: then no undo entry. */
async function rowNow(batchId: string, productId: string): Promise<{ product: BoardProduct; cells: BoardCell[] } | null> {
  try {
    const rows = await call('catalogGetBoard', { batchId, productIds: [productId] });
    const product = rows.products[0];
    return product ? { product, cells: rows.cells.filter((c) => c.productId === productId) } : null;
  } catch {
    return null;
  }
}

/** An image by its place on the board, as the notes name it ("SKU-001 · main 2/2"); null when no cell holds it. */
function placeOf(cells: readonly BoardCell[], imageId: string): string | null {
  for (const cell of cells) {
    const at = cell.candidates.findIndex((c) => c.imageId === imageId);
    if (at >= 0) return placeName(cellName(cell.sku, cell.shotName), at, cell.candidates.length);
  }
  return null;
}

/** Sets a pick in main and the boards; main refusing leaves the boards to read it again. */
async function putPick(client: QueryClient, batchId: string, input: SetPickInput): Promise<BoardCell> {
  showPick(client, batchId, input, input.imageId);
  try {
    const stored = await call('catalogSetPick', input);
    showPick(client, batchId, { productId: stored.productId, shot: stored.shotName }, stored.pick);
    return stored;
  } catch (error) {
    void client.invalidateQueries({ queryKey: boardKey(batchId) });
    throw error;
  }
}

/** A pick as the board asks for it: `withReject` when the same key press rejected the image (X on the pick). */
type PickAsked = SetPickInput & { withReject?: boolean };

/** Whether a change is the reject of exactly this image: the pick it clears is part of that one key press. */
const rejectOf = (imageId: string) => (newest: UndoEntry) => newest.done === 'marked' && newest.marks.rejected === true && newest.imageIds.length === 1 && newest.imageIds[0] === imageId;

/**
 * Picks asked for and not yet written, by cell: a pick replaces what those before it will have set (the board may
 * show main's older answer meanwhile). Each pick is its own token, so only the last of a cell clears the entry.
 */
const pendingPicks = new Map<string, { pick: string | null; token: object }>();
const cellKey = (batchId: string, at: CellAt) => JSON.stringify([batchId, at.productId ?? null, at.sku ?? null, at.shot]);

/**
 * Sets a pick, remembering the cell's earlier pick (none or another candidate) so Ctrl+Z puts it back
 * (lib/library-state/undo.ts). The earlier pick is a pick of this window still on its way, else the one the board
 * shows (a pick made elsewhere reaches it with main's event): one call to main per pick, so main has it as soon as
 * the designer sees it.
 */
function pickAndRemember(client: QueryClient, batchId: string, { withReject, ...input }: PickAsked): Promise<BoardCell> {
  const key = cellKey(batchId, input);
  const before = pendingPicks.has(key) ? pendingPicks.get(key)?.pick : shownPick(client, batchId, input);
  const token = {};
  pendingPicks.set(key, { pick: input.imageId, token });
  showPick(client, batchId, input, input.imageId);
  return oneAfterAnother(async () => {
    try {
      const stored = await call('catalogSetPick', input);
      rememberPick(batchId, stored, before, withReject === true);
      return stored;
    } finally {
      if (pendingPicks.get(key)?.token === token) pendingPicks.delete(key);
    }
  });
}

/** Puts a pick on the undo stack (or, after X on the pick, with that reject) and names it in the note. */
function rememberPick(batchId: string, stored: BoardCell, before: string | null | undefined, withReject: boolean): void {
  const imageId = stored.pick ?? before;
  if (before === stored.pick || !imageId) return;
  const done = stored.pick ? 'picked' : 'unpicked';
  const name = placeOf([stored], imageId) ?? cellName(stored.sku, stored.shotName);
  if (before === undefined) {
    say({ kind: done, marks: {}, name });
    return;
  }
  const back = { batchId, productId: stored.productId, shot: stored.shotName, imageId: before };
  const step = { what: 'pick' as const, putBack: (c: QueryClient) => putPick(c, batchId, back).then(() => undefined) };
  // X on the picked candidate rejects it and clears the pick: one change, one Ctrl+Z.
  if (done === 'unpicked' && joinNewest([step], rejectOf(imageId), withReject)) return;
  remember({ done, marks: {}, name, imageIds: [imageId], steps: [step] });
}

/** The pick mutation's steps on a cache (the hook's body, apart so a test can run it on a real QueryClient). */
export function pickMutation(client: QueryClient, batchId: string) {
  return {
    // Shows the pick at once (the board's cell), then sends it in turn.
    mutationFn: (input: PickAsked) => pickAndRemember(client, batchId, input),
    onError: () => void client.invalidateQueries({ queryKey: boardKey(batchId) }),
    // The answer is the cell as main stored it.
    onSuccess: (stored: BoardCell) => showPick(client, batchId, { productId: stored.productId, shot: stored.shotName }, stored.pick),
  };
}

/** Sets or clears a cell's pick; the cell shows it at once; Ctrl+Z puts the earlier pick back. */
export function useSetPick(batchId: string) {
  return useMutation(pickMutation(useQueryClient(), batchId));
}

/** Sets a master in main and the boards; main refusing leaves the boards to read it again. */
async function putMaster(client: QueryClient, batchId: string, input: SetProductMasterInput): Promise<void> {
  try {
    showProduct(client, batchId, await call('catalogSetProductMaster', input));
  } catch (error) {
    void client.invalidateQueries({ queryKey: boardKey(batchId) });
    throw error;
  }
}

/** The master a product has chosen, or null when it uses its own first reference. */
const chosenMaster = (product: BoardProduct): string | null => (product.masterChosen ? product.masterImageId : null);

/** Chooses or clears a master, remembering the earlier one (or none) so Ctrl+Z puts it back. */
function masterAndRemember(client: QueryClient, batchId: string, input: SetProductMasterInput): Promise<BoardProduct> {
  return oneAfterAnother(async () => {
    const row = await rowNow(batchId, input.productId);
    const product = await call('catalogSetProductMaster', input);
    const before = row ? chosenMaster(row.product) : undefined;
    const after = chosenMaster(product);
    const imageId = after ?? before;
    if (before === after) return product;
    const done = after ? 'master' : 'unmaster';
    const name = (imageId && row ? placeOf(row.cells, imageId) : null) ?? product.sku;
    if (before === undefined) say({ kind: done, marks: {}, name });
    else {
      const back = { batchId, productId: product.productId, imageId: before };
      remember({ done, marks: {}, name, imageIds: imageId ? [imageId] : [], steps: [{ what: 'master', putBack: (c) => putMaster(c, batchId, back) }] });
    }
    return product;
  });
}

/** The master mutation's steps on a cache (apart from the hook, as pickMutation). */
export function masterMutation(client: QueryClient, batchId: string) {
  return {
    mutationFn: (input: SetProductMasterInput) => masterAndRemember(client, batchId, input),
    onSuccess: (product: BoardProduct) => showProduct(client, batchId, product),
  };
}

/** Chooses or clears a product's master reference; its row head shows main's answer; Ctrl+Z puts the earlier one back. */
export function useSetProductMaster(batchId: string) {
  return useMutation(masterMutation(useQueryClient(), batchId));
}

/** Culling marks on board candidates through the one mark hook; the board's candidates show them at once. */
export function useBoardMark(batchId: string): (imageIds: string[], marks: Marks, label?: string) => void {
  const client = useQueryClient();
  const { mutate } = useMark();
  return useCallback(
    (imageIds, marks, label) => {
      const ids = new Set(imageIds);
      const mark = (c: CellCandidate): CellCandidate => (ids.has(c.imageId) ? { ...c, ...marks } : c);
      patchCells(client, batchId, (cell) => (cell.candidates.some((c) => ids.has(c.imageId)) ? { ...cell, candidates: cell.candidates.map(mark) } : cell));
      // The library's change event then refreshes the rows holding them (useBoardEvents).
      mutate({ imageIds, ...marks, ...(label ? { label } : {}) }, { onError: () => void client.invalidateQueries({ queryKey: boardKey(batchId) }) });
    },
    [client, batchId, mutate],
  );
}
