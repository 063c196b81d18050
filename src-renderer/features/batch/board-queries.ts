// The board's data from main (catalog:get-board, catalog:set-product-master; catalog:set-pick is the one pick action
// of lib/library-state/picks.ts) and its marks (the one mark hook, lib/library-state/marks.ts). The board opens with its first rows (a small window), then reads the
// whole board; events refresh only the rows they are about: a job's `batch:changed` its product's row, an image's
// change (library-events.ts watchLibraryImages) the rows holding it; an event naming nothing the board holds (a new
// re-run job, the batch's state, a pick from elsewhere) reads the whole board again; an image event naming images the
// board does not hold yet reads again the rows being read as it came. At most ~4 flushes a second.
// A pick or a mark shows on the board at once; main's answer then brings the truth. Picks and master choices go on
// the one undo stack with the marks (lib/library-state/undo.ts): Ctrl+Z puts the earlier one back; "pick the only
// candidate" of many cells is one entry, and one Ctrl+Z clears all its picks in one call.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { BoardCell, BoardProduct, CatalogBoard, CellCandidate, PickedCell, PickOnlyCandidatesAnswer, SetProductMasterInput } from '../../../src-shared/ipc/batch-board.ts';
import { call, onEvent } from '../../lib/desktop.ts';
import { watchLibraryImages } from '../../lib/library-state/library-events.ts';
import { useMark, type Marks } from '../../lib/library-state/marks.ts';
import { boardKey, boardsOf, patchCells, placeOf } from '../../lib/library-state/picks.ts';
import { oneAfterAnother, remember, say } from '../../lib/library-state/undo.ts';

// The pick itself is set in lib/library-state/picks.ts, so the viewer and compare pick the same way.
export { boardKey, pickMutation, useSetPick } from '../../lib/library-state/picks.ts';

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
export function useBoardOpened(batchId: string | null, batchesRead: boolean): boolean {
  const first = useQuery(firstRowsQuery(batchId));
  // No batch counts only once the batch list is read: while it is on its way there is no batch id yet, and taking
  // that for "no board" sent the batch's whole detail (6 MiB at 8,000 jobs) and the plan beside the board's first rows.
  const ready = (batchesRead && batchId === null) || first.data !== undefined || first.error !== null;
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

/** The rows (product ids) of the cached board that hold one of these jobs or images; null when one is not on it. */
function rowsHolding(client: QueryClient, batchId: string, test: (cell: BoardCell) => boolean): Set<string> {
  const rows = new Set<string>();
  for (const board of boardsOf(client, batchId)) for (const cell of board.cells) if (test(cell)) rows.add(cell.productId);
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

/** How the refresher reads the board again: some products' rows, or the whole board. */
export interface BoardReads {
  rows(productIds: string[]): Promise<void>;
  whole(): Promise<void>;
}

/**
 * Gathers what events make stale (some rows, or the whole board) and refreshes it at most every REFRESH_MS. An image
 * event naming images the board does not hold while rows are being read (a re-shoot's new candidates, downloaded
 * while the read that brings them was on its way: it answered "downloading") reads those rows again after it.
 */
export function boardRefresher(client: QueryClient, batchId: string, reads: BoardReads = mainReads(client, batchId)) {
  let rows = new Set<string>();
  let whole = false;
  let timer: number | null = null;
  let last = 0;
  /** Reads on their way: how many for each row, and for the whole board. */
  const reading = new Map<string, number>();
  let readingWhole = 0;
  const track = (ids: string[] | null, read: Promise<void>) => {
    if (ids === null) readingWhole++;
    else for (const id of ids) reading.set(id, (reading.get(id) ?? 0) + 1);
    void read.finally(() => {
      if (ids === null) readingWhole--;
      else for (const id of ids) if ((reading.get(id) ?? 0) <= 1) reading.delete(id);
      else reading.set(id, (reading.get(id) ?? 1) - 1);
    });
  };
  const flush = () => {
    timer = null;
    last = Date.now();
    const ids = [...rows];
    const all = whole;
    rows = new Set();
    whole = false;
    if (all) track(null, reads.whole().catch(() => undefined));
    else if (ids.length > 0) track(ids, reads.rows(ids).catch(() => reads.whole().catch(() => undefined)));
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
    /** Images changed (a download, marks): the rows holding them; when the board holds none of them, the rows (or the
     *  whole board) being read now, read again after; else nothing. */
    images(ids: ReadonlySet<string>) {
      const held = rowsHolding(client, batchId, (cell) => cell.candidates.some((c) => ids.has(c.imageId)));
      if (held.size === 0) {
        for (const id of reading.keys()) held.add(id);
        if (readingWhole > 0) whole = true;
        if (held.size === 0 && !whole) return;
      }
      for (const id of held) rows.add(id);
      schedule();
    },
    stop: () => {
      if (timer !== null) window.clearTimeout(timer);
    },
  };
}

/** The board read from main: rows by catalog:get-board, the whole board by its queries. */
function mainReads(client: QueryClient, batchId: string): BoardReads {
  return {
    rows: (productIds) => refreshRows(client, batchId, productIds),
    whole: () => client.invalidateQueries({ queryKey: boardKey(batchId) }),
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

/** Shows many cells' picks at once on every cached board: set to the images named, or cleared where still those. */
function showBulkPicks(client: QueryClient, batchId: string, cells: readonly PickedCell[], picked: boolean): void {
  const byCell = new Map(cells.map((c) => [`${c.productId}\n${c.shot}`, c.imageId]));
  patchCells(client, batchId, (cell) => {
    const imageId = byCell.get(`${cell.productId}\n${cell.shotName}`);
    if (imageId === undefined) return cell;
    if (picked) return { ...cell, pick: imageId };
    return cell.pick === imageId ? { ...cell, pick: null } : cell;
  });
}

/** Clears the picks a bulk pick set (main keeps any made since); main's event then reads the board again. */
async function clearBulkPicks(client: QueryClient, batchId: string, cells: PickedCell[]): Promise<void> {
  showBulkPicks(client, batchId, cells, false);
  try {
    await call('catalogClearPicks', { batchId, cells });
  } catch (error) {
    void client.invalidateQueries({ queryKey: boardKey(batchId) });
    throw error;
  }
}

/** Picks the only candidate of every cell that has one (main decides which), as one undo entry naming how many. */
function pickOnlyAndRemember(client: QueryClient, batchId: string): Promise<PickOnlyCandidatesAnswer> {
  return oneAfterAnother(async () => {
    const answer = await call('catalogPickOnlyCandidates', { batchId });
    showBulkPicks(client, batchId, answer.cells, true);
    const note = { done: 'picked_only' as const, marks: {}, name: '', count: answer.picked };
    if (answer.picked === 0) say({ kind: note.done, marks: {}, name: '', count: 0 });
    else remember({ ...note, imageIds: answer.cells.map((c) => c.imageId), steps: [{ what: 'pick', putBack: (c) => clearBulkPicks(c, batchId, answer.cells) }] });
    return answer;
  });
}

/** "Pick the only candidate in N cells": one call to main, one Ctrl+Z to take them all back. */
export function usePickOnlyCandidates(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => pickOnlyAndRemember(client, batchId),
    onError: () => void client.invalidateQueries({ queryKey: boardKey(batchId) }),
  });
}
