// The board's data from main (catalog:get-board, catalog:set-pick) and its marks (the one mark hook, lib/library-state/marks.ts), kept
// live by `batch:changed` (jobs, picks) and `library:changed` (downloads, marks), refreshed at most ~4 times a second.
// A pick or a mark shows on the board at once; main's answer then brings the truth.
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import type { BoardCell, CatalogBoard, CellCandidate, SetPickInput } from '../../../src-shared/ipc/batch-board.ts';
import { call, onEvent } from '../../lib/desktop.ts';
import { useMark, type Marks } from '../../lib/library-state/marks.ts';
import { batchKeys } from './queries.ts';

export const boardKey = (batchId: string) => [...batchKeys.all(), 'board', batchId] as const;

/** How often events may refresh the board (a running batch and its downloads send many). */
const REFRESH_MS = 250;

export function useBoard(batchId: string | null) {
  return useQuery({
    queryKey: boardKey(batchId ?? ''),
    queryFn: () => call('catalogGetBoard', { batchId: batchId ?? '' }),
    enabled: batchId !== null,
    // Events carry the progress; this only covers one missed while jobs are in flight.
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 5_000 : false),
  });
}

/** Refreshes the board of `batchId` when its jobs or picks change, or an image (a download, a mark) does. */
export function useBoardEvents(batchId: string | null): void {
  const client = useQueryClient();
  useEffect(() => {
    if (batchId === null) return;
    let timer: number | null = null;
    let last = 0;
    const refresh = () => {
      if (timer !== null) return;
      timer = window.setTimeout(() => {
        timer = null;
        last = Date.now();
        void client.invalidateQueries({ queryKey: boardKey(batchId) });
      }, Math.max(0, last + REFRESH_MS - Date.now()));
    };
    const offBatch = onEvent('batch:changed', (e) => {
      if (e.batchId === batchId) refresh();
    });
    const offLibrary = onEvent('library:changed', (e) => {
      if (e.kind === 'image' || e.kind === 'turn') refresh();
    });
    return () => {
      offBatch();
      offLibrary();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, [client, batchId]);
}

function patchCells(client: QueryClient, batchId: string, patch: (cell: BoardCell) => BoardCell): void {
  client.setQueryData<CatalogBoard>(boardKey(batchId), (board) => (board ? { ...board, cells: board.cells.map(patch) } : board));
}

/** Sets or clears a cell's pick; the cell shows it at once. */
export function useSetPick(batchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SetPickInput) => call('catalogSetPick', input),
    onMutate: (input) => patchCells(client, batchId, (cell) => (cell.productId === input.productId && cell.shotName === input.shot ? { ...cell, pick: input.imageId } : cell)),
    onSettled: () => void client.invalidateQueries({ queryKey: boardKey(batchId) }),
  });
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
      mutate({ imageIds, ...marks, ...(label ? { label } : {}) }, { onSettled: () => void client.invalidateQueries({ queryKey: boardKey(batchId) }) });
    },
    [client, batchId, mutate],
  );
}
