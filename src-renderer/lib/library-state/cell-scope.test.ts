// The viewer's scope for Catalog images on a real QueryClient: a cell's and a product's images with each image's
// cell, a job's cell as the cached board holds it (a re-shoot's candidates too) or the job's own images without
// one, the pick read from the cached boards as they change, and compare keeping each compared image's cell.
import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PurposeId } from '../../../src-shared/catalog.ts';
import type { BoardCell, CatalogBoard } from '../../../src-shared/ipc/batch-board.ts';
import { cellImages, jobCellImages, productImages, productResultImages } from './cell-scope.ts';
import { boardKey, shownPick } from './picks.ts';
import { useGalleryStore } from './store.ts';

const BATCH = 'bat_1';

const cell = (shotName: string, imageIds: string[], pick: string | null = null): BoardCell => ({
  productId: 'prd_1',
  sku: 'SKU-1',
  shotName,
  status: 'done',
  startedAt: null,
  code: null,
  requestId: null,
  candidates: imageIds.map((imageId) => ({ imageId, jobId: 'job_1', download: 'done' as const, rating: 0, rejected: false, starred: false })),
  pick,
  charged: 0,
  estimated: 0,
  jobIds: ['job_1'],
});

const board = (cells: BoardCell[]): CatalogBoard => ({
  batchId: BATCH,
  state: 'done',
  products: [{ productId: 'prd_1', sku: 'SKU-1', name: 'mug', masterImageId: null, masterChosen: false }],
  shots: [...new Set(cells.map((c) => c.shotName))].map((name) => ({ name, kind: 'free' as PurposeId })),
  cells,
});

describe('the viewer scope of Catalog images', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient();
  });

  it('names a cell and gives each image its cell, with the pick it had', () => {
    const { ids, scope } = cellImages(BATCH, cell('main', ['a', 'b'], 'b'));
    expect(ids).toEqual(['a', 'b']);
    expect(scope.label).toBe('SKU-1 · main');
    expect(scope.cells).toEqual([
      { batchId: BATCH, productId: 'prd_1', sku: 'SKU-1', shot: 'main', pick: 'b' },
      { batchId: BATCH, productId: 'prd_1', sku: 'SKU-1', shot: 'main', pick: 'b' },
    ]);
  });

  it('walks a product shot by shot, each image named and celled by its own shot', () => {
    const { ids, scope } = productImages(BATCH, 'SKU-1', [cell('main', ['a']), cell('detail', ['b', 'c'], 'c')]);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(scope.label).toBe('SKU-1');
    expect(scope.names).toEqual(['SKU-1 · main 1/1', 'SKU-1 · detail 1/2', 'SKU-1 · detail 2/2']);
    expect(scope.cells?.map((c) => [c.shot, c.pick])).toEqual([
      ['main', null],
      ['detail', 'c'],
      ['detail', 'c'],
    ]);
  });

  it('opens a job in its whole cell as the board holds it, else in the job’s own images', () => {
    const job = { batchId: BATCH, productId: 'prd_1', sku: 'SKU-1', shot: 'main', imageIds: ['c', 'd'] };
    // No board cached: the job's own images, named by the cell.
    expect(jobCellImages(client, job, 'd')).toMatchObject({ ids: ['c', 'd'], index: 1, scope: { label: 'SKU-1 · main' } });
    // The board holds the cell with an earlier job's candidates too (a re-shoot): all of them, as Enter opens it.
    client.setQueryData([...boardKey(BATCH), 'whole'], board([cell('main', ['a', 'b', 'c', 'd'], 'a')]));
    const opened = jobCellImages(client, job, 'd');
    expect(opened.ids).toEqual(['a', 'b', 'c', 'd']);
    expect(opened.index).toBe(3);
    expect(opened.scope.cells?.[3]?.pick).toBe('a');
    // An image the cached board does not hold yet (just downloaded): the job's own images.
    expect(jobCellImages(client, { ...job, imageIds: ['e'] }, 'e')).toMatchObject({ ids: ['e'], index: 0 });
  });

  it('opens a report thumbnail on its product, shot by shot as the board holds it, or on the results given without a board', () => {
    const product = { productId: 'prd_1', sku: 'SKU-1' };
    expect(productResultImages(client, BATCH, product, ['b', 'c'], 'c')).toMatchObject({ ids: ['b', 'c'], index: 1, scope: { label: 'SKU-1' } });
    client.setQueryData([...boardKey(BATCH), 'whole'], board([cell('main', ['a']), cell('detail', ['b', 'c'], 'c')]));
    const opened = productResultImages(client, BATCH, product, ['b', 'c'], 'c');
    expect(opened.ids).toEqual(['a', 'b', 'c']);
    expect(opened.index).toBe(2);
    expect(opened.scope.names).toEqual(['SKU-1 · main 1/1', 'SKU-1 · detail 1/2', 'SKU-1 · detail 2/2']);
    expect(opened.scope.cells?.[2]?.pick).toBe('c');
  });

  it('reads the pick from the cached boards as they change', () => {
    const at = { productId: 'prd_1', shot: 'main' };
    expect(shownPick(client, BATCH, at)).toBeUndefined();
    client.setQueryData([...boardKey(BATCH), 'whole'], board([cell('main', ['a', 'b'], 'a')]));
    expect(shownPick(client, BATCH, at)).toBe('a');
    client.setQueryData([...boardKey(BATCH), 'whole'], board([cell('main', ['a', 'b'], null)]));
    expect(shownPick(client, BATCH, at)).toBeNull();
    expect(shownPick(client, BATCH, { productId: 'prd_1', shot: 'detail' })).toBeUndefined();
    expect(shownPick(client, BATCH, { sku: 'SKU-1', shot: 'main' })).toBeNull();
  });

  it('compare keeps each compared image’s cell, for the first four of the scope', () => {
    const { ids, scope } = productImages(BATCH, 'SKU-1', [cell('main', ['a', 'b', 'c']), cell('detail', ['d', 'e'], 'e')]);
    useGalleryStore.getState().openScopedCompare(ids, scope);
    const { compare, compareScope } = useGalleryStore.getState();
    expect(compare).toEqual(['a', 'b', 'c', 'd']);
    expect(compareScope?.cells?.map((c) => c.shot)).toEqual(['main', 'main', 'main', 'detail']);
    expect(compareScope?.names?.[3]).toBe('SKU-1 · detail 1/2');
  });
});
