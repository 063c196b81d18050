// Picks and master choices on the one undo stack with the marks (lib/library-state/undo.ts), on a real QueryClient
// with the board's real mutations: Ctrl+Z takes them back newest first, in order with marks, to exactly what main
// had before (no pick, another candidate, no master); the reject that clears a pick (X on the picked candidate) is
// one step; the notes name the image by its cell. main is a small in-memory stand-in behind window.api that
// answers as catalog:get-board, catalog:set-pick, catalog:set-product-master and library:mark do, refusals included.
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PurposeId } from '../../../src-shared/catalog.ts';
import type { BoardCell, BoardProduct, CatalogBoard, SetPickInput, SetProductMasterInput } from '../../../src-shared/ipc/batch-board.ts';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { markMutation, type MarkRequest } from '../../lib/library-state/marks.ts';
import { undoLast, useUndoHistory } from '../../lib/library-state/undo.ts';
import { boardKey, masterMutation, pickMutation } from './board-queries.ts';

const BATCH = 'bat_1';
const PRODUCT = 'prd_1';
const [A, B] = ['img_a', 'img_b'];

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
const ok = (value: unknown): Promise<Answer> => Promise.resolve({ ok: true, value });
const refuse = (code: string): Promise<Answer> => Promise.resolve({ ok: false, error: { code, message: code } });

/** main's one product × one shot with two candidates: its pick, its master and the candidates' marks. */
function fakeMain() {
  const state = {
    pick: null as string | null,
    master: null as string | null,
    marks: new Map<string, Pick<ImageRecord, 'rating' | 'rejected' | 'starred'>>([A, B].map((id) => [id, { rating: 0, rejected: false, starred: false }])),
  };
  const image = (id: string) => ({ id, turnId: 'turn_1', prompt: 'a mug', ...state.marks.get(id) }) as ImageRecord;
  const cell = (): BoardCell => ({
    productId: PRODUCT,
    sku: 'SKU-1',
    shotName: 'main',
    status: 'done',
    startedAt: null,
    code: null,
    requestId: null,
    candidates: [A, B].map((imageId) => ({ imageId, jobId: 'job_1', download: 'done' as const, ...state.marks.get(imageId)! })),
    pick: state.pick,
    charged: 0,
    estimated: 0,
    jobIds: ['job_1'],
  });
  const product = (): BoardProduct => ({ productId: PRODUCT, sku: 'SKU-1', name: 'mug', masterImageId: state.master ?? 'img_own_reference', masterChosen: state.master !== null });
  const board = (): CatalogBoard => ({ batchId: BATCH, state: 'done', products: [product()], shots: [{ name: 'main', kind: 'free' as PurposeId }], cells: [cell()] });
  const rejected = (id: string | null) => id !== null && state.marks.get(id)?.rejected === true;
  const api = {
    catalogGetBoard: () => ok(board()),
    catalogSetPick: ({ imageId }: SetPickInput) => {
      if (rejected(imageId)) return refuse('batch_pick_rejected');
      state.pick = imageId;
      return ok(cell());
    },
    catalogSetProductMaster: ({ imageId }: SetProductMasterInput) => {
      if (rejected(imageId)) return refuse('batch_master_rejected');
      state.master = imageId;
      return ok(product());
    },
    libraryGetImages: ({ imageIds }: { imageIds: string[] }) => ok({ images: imageIds.map(image), missing: [] }),
    libraryMark: ({ imageIds, ...marks }: { imageIds: string[] } & Partial<ImageRecord>) => {
      for (const id of imageIds) state.marks.set(id, { ...state.marks.get(id)!, ...marks });
      return ok(imageIds.map(image));
    },
  };
  return { state, api, board };
}

describe('picks and master choices on the undo stack', () => {
  let client: QueryClient;
  let main: ReturnType<typeof fakeMain>;
  const pick = (imageId: string | null) => new MutationObserver(client, pickMutation(client, BATCH)).mutate({ batchId: BATCH, productId: PRODUCT, shot: 'main', imageId });
  const master = (imageId: string | null) => new MutationObserver(client, masterMutation(client, BATCH)).mutate({ batchId: BATCH, productId: PRODUCT, imageId });
  const mark = (request: MarkRequest) => new MutationObserver(client, markMutation(client)).mutate(request);
  const note = () => useUndoHistory.getState().note;
  const shownPick = () => client.getQueryData<CatalogBoard>([...boardKey(BATCH), 'whole'])?.cells[0]?.pick;

  beforeEach(() => {
    client = new QueryClient();
    useUndoHistory.setState({ stack: [], note: null });
    main = fakeMain();
    vi.stubGlobal('window', { api: main.api });
    client.setQueryData([...boardKey(BATCH), 'whole'], main.board());
  });
  afterEach(() => vi.unstubAllGlobals());

  it('takes back a pick of one candidate, then of the other, to no pick at all, naming each by its cell', async () => {
    await pick(A);
    expect(note()).toMatchObject({ kind: 'picked', name: 'SKU-1 · main 1/2' });
    await pick(B);
    expect(note()).toMatchObject({ kind: 'picked', name: 'SKU-1 · main 2/2' });
    expect(main.state.pick).toBe(B);

    await undoLast(client);
    expect(main.state.pick).toBe(A);
    expect(shownPick()).toBe(A);
    expect(note()).toMatchObject({ kind: 'undone', undid: 'picked', name: 'SKU-1 · main 2/2' });
    await undoLast(client);
    expect(main.state.pick).toBeNull();
    expect(shownPick()).toBeNull();
    await undoLast(client);
    expect(note()?.kind).toBe('nothing');
  });

  it('undoes exactly when picks follow each other faster than main answers, even if the board shows an older answer meanwhile', async () => {
    const api = main.api as Record<string, (input: never) => Promise<Answer>>;
    const write = api.catalogSetPick!;
    api.catalogSetPick = (input) => new Promise((resolve) => setTimeout(() => resolve(write(input)), 20));
    const first = pick(A);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(shownPick()).toBe(A);
    // A board read answered before the first pick was written: the cell shows no pick again.
    client.setQueryData([...boardKey(BATCH), 'whole'], main.board());
    const second = pick(B);
    await Promise.all([first, second]);
    api.catalogSetPick = write;
    expect(main.state.pick).toBe(B);
    await undoLast(client);
    expect(main.state.pick).toBe(A);
    await undoLast(client);
    expect(main.state.pick).toBeNull();
  });

  it('puts back a removed pick, and a pick that changed nothing leaves nothing to undo', async () => {
    await pick(A);
    await pick(null);
    expect(note()).toMatchObject({ kind: 'unpicked', name: 'SKU-1 · main 1/2' });
    await pick(null);
    expect(useUndoHistory.getState().stack).toHaveLength(2);
    await undoLast(client);
    expect(main.state.pick).toBe(A);
    expect(note()).toMatchObject({ kind: 'undone', undid: 'unpicked' });
  });

  it('keeps picks and marks in one order, newest undone first', async () => {
    await mark({ imageIds: [A], rating: 3, label: 'SKU-1 · main 1/2' });
    await pick(A);
    await mark({ imageIds: [B], starred: true, label: 'SKU-1 · main 2/2' });
    await undoLast(client);
    expect(main.state.marks.get(B)?.starred).toBe(false);
    expect(main.state.pick).toBe(A);
    await undoLast(client);
    expect(main.state.pick).toBeNull();
    expect(main.state.marks.get(A)?.rating).toBe(3);
    await undoLast(client);
    expect(main.state.marks.get(A)?.rating).toBe(0);
  });

  it('undoes X on the picked candidate (reject, and the pick cleared with it) as one step: picked and not rejected again', async () => {
    await pick(A);
    // What the board's X does on its pick: the reject, then the pick cleared, in one key press.
    await Promise.all([mark({ imageIds: [A], rejected: true, label: 'SKU-1 · main 1/2' }), pick(null)]);
    expect(main.state).toMatchObject({ pick: null });
    expect(main.state.marks.get(A)?.rejected).toBe(true);
    expect(useUndoHistory.getState().stack).toHaveLength(2);
    expect(note()).toMatchObject({ kind: 'marked', marks: { rejected: true }, name: 'SKU-1 · main 1/2' });

    await undoLast(client);
    // main refuses to pick a rejected image: the reject goes first, then the pick comes back.
    expect(main.state.marks.get(A)?.rejected).toBe(false);
    expect(main.state.pick).toBe(A);
    expect(shownPick()).toBe(A);
    await undoLast(client);
    expect(main.state.pick).toBeNull();
  });

  it('keeps X on the pick one step however long main takes to clear the pick (the key press asked for both)', async () => {
    await pick(A);
    const api = main.api as Record<string, (input: never) => Promise<Answer>>;
    const write = api.catalogSetPick!;
    const now = Date.now;
    // main answers the cleared pick 3 s after the reject was remembered: past the 2 s that joins unrelated changes.
    api.catalogSetPick = (input) => {
      const later = now() + 3_000;
      vi.spyOn(Date, 'now').mockImplementation(() => later);
      return write(input);
    };
    try {
      // As the board's X: the reject first, then the pick cleared, in one key press.
      const reject = mark({ imageIds: [A], rejected: true, label: 'SKU-1 · main 1/2' });
      const clear = new MutationObserver(client, pickMutation(client, BATCH)).mutate({ batchId: BATCH, productId: PRODUCT, shot: 'main', imageId: null, withReject: true });
      await Promise.all([reject, clear]);
    } finally {
      vi.restoreAllMocks();
      api.catalogSetPick = write;
    }
    expect(useUndoHistory.getState().stack).toHaveLength(2);
    await undoLast(client);
    expect(main.state.marks.get(A)?.rejected).toBe(false);
    expect(main.state.pick).toBe(A);
  });

  it('takes back a master choice to the one before, then to none', async () => {
    await master(A);
    expect(note()).toMatchObject({ kind: 'master', name: 'SKU-1 · main 1/2' });
    await master(B);
    await undoLast(client);
    expect(main.state.master).toBe(A);
    expect(client.getQueryData<CatalogBoard>([...boardKey(BATCH), 'whole'])?.products[0]).toMatchObject({ masterImageId: A, masterChosen: true });
    expect(note()).toMatchObject({ kind: 'undone', undid: 'master', name: 'SKU-1 · main 2/2' });
    await undoLast(client);
    expect(main.state.master).toBeNull();
    expect(client.getQueryData<CatalogBoard>([...boardKey(BATCH), 'whole'])?.products[0]).toMatchObject({ masterChosen: false });
  });

  it('keeps a refused undo on the stack', async () => {
    await pick(A);
    await pick(B);
    // A was rejected elsewhere since (not through the stack): main refuses to pick it back.
    main.state.marks.set(A, { rating: 0, rejected: true, starred: false });
    await expect(undoLast(client)).rejects.toBeTruthy();
    expect(useUndoHistory.getState().stack).toHaveLength(2);
    expect(main.state.pick).toBe(B);
    main.state.marks.set(A, { rating: 0, rejected: false, starred: false });
    await undoLast(client);
    expect(main.state.pick).toBe(A);
  });
});
