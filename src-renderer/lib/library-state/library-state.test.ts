// The library-state module on a real QueryClient: the culling keys, the selection and filters, the one mark
// mutation (what the designer sees before and after main answers), and the one mapping from main's events to
// cache refreshes (targeted, and gathered into one flush).
import { MutationObserver, QueryClient, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage, ImageDetail } from '../../../src-shared/ipc/library.ts';
import { queryKeys } from '../query-keys.ts';
import { libraryRefresher } from './library-events.ts';
import { markMutation, marksForKey, MARK_BATCH, type MarkInput } from './marks.ts';
import { UNDO_DEPTH, undoLast, useUndoHistory } from './undo.ts';
import { nameInScope, stepInScope, useGalleryStore } from './store.ts';

const image = (id: string, turnId = 'turn_1', marks: Partial<ImageRecord> = {}): ImageRecord =>
  ({ id, turnId, starred: false, rating: 0, rejected: false, download: 'done', ...marks }) as ImageRecord;

/** One gallery page: a session's images, or no session at all. */
const page = (sessionId: string | null, ...images: ImageRecord[]) => ({
  pages: [{ groups: sessionId ? [{ session: { id: sessionId }, images }] : [], nextCursor: null, totals: { sessions: 1, images: images.length } } as unknown as GalleryPage],
  pageParams: [null],
});

const detail = (im: ImageRecord) => ({ image: im, turn: { id: im.turnId, images: [im] }, references: [], usedIn: [], boards: [] }) as unknown as ImageDetail;

const stale = (client: QueryClient, key: QueryKey) => client.getQueryState(key)?.isInvalidated ?? false;

describe('culling keys', () => {
  it('rates with 1–5, clears with 0, toggles reject and star over the whole target', () => {
    const plain = { rejected: false, starred: false };
    const rejected = { rejected: true, starred: true };
    expect(marksForKey('4', [plain])).toEqual({ rating: 4 });
    expect(marksForKey('0', [plain])).toEqual({ rating: 0 });
    expect(marksForKey('x', [plain])).toEqual({ rejected: true });
    expect(marksForKey('X', [rejected])).toEqual({ rejected: false });
    expect(marksForKey('x', [rejected, plain])).toEqual({ rejected: true });
    expect(marksForKey('s', [plain])).toEqual({ starred: true });
    expect(marksForKey('f', [rejected])).toEqual({ starred: false });
    expect(marksForKey('6', [plain])).toBeNull();
    expect(marksForKey('q', [plain])).toBeNull();
  });
});

describe('gallery selection and filters', () => {
  it('selects one, toggles with Ctrl, spans a range with Shift', () => {
    const order = ['a', 'b', 'c', 'd', 'e'];
    const { select } = useGalleryStore.getState();
    select('b', 'single', order);
    select('d', 'range', order);
    expect(useGalleryStore.getState().selected).toEqual(['b', 'c', 'd']);
    select('c', 'toggle', order);
    expect(useGalleryStore.getState().selected).toEqual(['b', 'd']);
    select('e', 'single', order);
    expect(useGalleryStore.getState().selected).toEqual(['e']);
  });

  it('merges filter changes and drops a filter set to nothing, so equal views share one cache key', () => {
    const { setFilters, clearFilters } = useGalleryStore.getState();
    clearFilters();
    setFilters({ minRating: 3, query: 'red' });
    setFilters({ query: '', rejected: 'hide' });
    expect(useGalleryStore.getState().filters).toEqual({ minRating: 3, rejected: 'hide' });
    setFilters({ minRating: undefined });
    expect(queryKeys.gallery(useGalleryStore.getState().filters)).toEqual(queryKeys.gallery({ rejected: 'hide' }));
    clearFilters();
    expect(useGalleryStore.getState().filters).toEqual({});
  });
});

describe('a viewer scoped to a cell or a product', () => {
  const cell = ['img_a', 'img_b', 'img_c', 'img_d'];

  it('walks only the scope: no step past either end, nothing for an image outside it', () => {
    expect(stepInScope(cell, 'img_b', 1)).toBe('img_c');
    expect(stepInScope(cell, 'img_b', -1)).toBe('img_a');
    expect(stepInScope(cell, 'img_d', 1)).toBeNull();
    expect(stepInScope(cell, 'img_a', -1)).toBeNull();
    expect(stepInScope(cell, 'img_other', 1)).toBeNull();
  });

  it('names each image by its scope: a cell by place, a product by its own names', () => {
    expect(nameInScope({ label: 'SKU-001 · main' }, cell, 'img_b')).toBe('SKU-001 · main 2/4');
    const product = { label: 'SKU-001', names: ['SKU-001 · main 1/1', 'SKU-001 · detail 1/2', 'SKU-001 · detail 2/2'] };
    expect(nameInScope(product, ['m1', 'd1', 'd2'], 'd2')).toBe('SKU-001 · detail 2/2');
    expect(nameInScope(product, ['m1', 'd1', 'd2'], 'elsewhere')).toBeUndefined();
  });

  it('keeps the scope with the opened viewer, and a library viewer has none', () => {
    const { openViewer } = useGalleryStore.getState();
    openViewer(cell, 1, { label: 'SKU-001 · main' });
    expect(useGalleryStore.getState().viewer).toEqual({ ids: cell, index: 1, scope: { label: 'SKU-001 · main' } });
    openViewer(cell, 0);
    expect(useGalleryStore.getState().viewer).toEqual({ ids: cell, index: 0 });
  });

  it('compares a scope\'s first four, named against the whole scope, and a plain compare drops the scope', () => {
    const six = [...cell, 'img_e', 'img_f'];
    const { openScopedCompare, openCompare, closeCompare } = useGalleryStore.getState();
    openScopedCompare(six, { label: 'SKU-002 · detail' });
    expect(useGalleryStore.getState().compare).toEqual(cell);
    expect(useGalleryStore.getState().compareScope).toEqual({ label: 'SKU-002 · detail', names: ['SKU-002 · detail 1/6', 'SKU-002 · detail 2/6', 'SKU-002 · detail 3/6', 'SKU-002 · detail 4/6'] });
    openCompare('img_a', 'img_b');
    expect(useGalleryStore.getState().compareScope).toBeNull();
    closeCompare();
    expect(useGalleryStore.getState()).toMatchObject({ compare: null, compareScope: null });
  });
});

describe('the one mark mutation', () => {
  let client: QueryClient;
  let answer: (input: MarkInput) => { ok: true; value: ImageRecord[] } | { ok: false; error: { code: string; message: string } };
  const calls: MarkInput[] = [];

  beforeEach(() => {
    client = new QueryClient();
    calls.length = 0;
    answer = (input) => ({ ok: true, value: input.imageIds.map((id) => image(id, 'turn_1', { ...input, rating: input.rating ?? 0 })) });
    // The bridge main's preload puts on window (lib/desktop.ts): library:mark answers like main.
    vi.stubGlobal('window', { api: { libraryMark: (input: MarkInput) => (calls.push(input), Promise.resolve(answer(input))) } });
  });
  afterEach(() => vi.unstubAllGlobals());

  const mark = (input: MarkInput) => new MutationObserver(client, markMutation(client)).mutate(input).catch(() => undefined);

  it('shows the marks in the gallery pages and the image details before main answers', async () => {
    client.setQueryData(queryKeys.gallery({}), page('ses_1', image('img_1'), image('img_2')));
    client.setQueryData(queryKeys.image('img_1'), detail(image('img_1')));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('window', { api: { libraryMark: async (input: MarkInput) => (await held, answer(input)) } });
    const done = mark({ imageIds: ['img_1'], rejected: true });
    await Promise.resolve();
    const shown = client.getQueryData<ReturnType<typeof page>>(queryKeys.gallery({}))!.pages[0]!.groups[0]!.images;
    expect(shown.map((im) => im.rejected)).toEqual([true, false]);
    expect(client.getQueryData<ImageDetail>(queryKeys.image('img_1'))!.image.rejected).toBe(true);
    release();
    await done;
  });

  it("puts main's records in place of the guesses and refreshes their turns", async () => {
    client.setQueryData(queryKeys.gallery({}), page('ses_1', image('img_1')));
    client.setQueryData(queryKeys.turn('turn_1'), { id: 'turn_1' });
    answer = (input) => ({ ok: true, value: input.imageIds.map((id) => image(id, 'turn_1', { rating: 4, starred: true })) });
    await mark({ imageIds: ['img_1'], rating: 4 });
    const [shown] = client.getQueryData<ReturnType<typeof page>>(queryKeys.gallery({}))!.pages[0]!.groups[0]!.images;
    expect(shown).toMatchObject({ rating: 4, starred: true });
    expect(stale(client, queryKeys.turn('turn_1'))).toBe(true);
  });

  it("keeps a Catalog image's place (SKU · shot) on its tile and in its details after a mark (main's answer lacks it)", async () => {
    const catalog = { sku: 'SKU-1', shot: 'main', productName: 'mug' };
    client.setQueryData(queryKeys.gallery({}), page('ses_1', image('img_1', 'turn_1', { catalog })));
    client.setQueryData(queryKeys.image('img_1'), detail(image('img_1', 'turn_1', { catalog })));
    await mark({ imageIds: ['img_1'], rating: 2 });
    const [shown] = client.getQueryData<ReturnType<typeof page>>(queryKeys.gallery({}))!.pages[0]!.groups[0]!.images;
    expect(shown).toMatchObject({ rating: 2, catalog });
    expect(client.getQueryData<ImageDetail>(queryKeys.image('img_1'))!.image).toMatchObject({ rating: 2, catalog });
  });

  it('sends a large selection in calls of at most 1000 images, every image once', async () => {
    const ids = Array.from({ length: 2 * MARK_BATCH + 500 }, (_, i) => `img_${i}`);
    await mark({ imageIds: ids, starred: true });
    expect(calls.map((c) => c.imageIds.length)).toEqual([MARK_BATCH, MARK_BATCH, 500]);
    expect(calls.flatMap((c) => c.imageIds)).toEqual(ids);
  });

  it('a refused mark asks the galleries and the image again (the guesses go)', async () => {
    client.setQueryData(queryKeys.gallery({}), page('ses_1', image('img_1')));
    client.setQueryData(queryKeys.image('img_1'), detail(image('img_1')));
    answer = () => ({ ok: false, error: { code: 'images_not_found', message: 'no such image' } });
    await mark({ imageIds: ['img_1'], rejected: true });
    expect(stale(client, queryKeys.gallery({}))).toBe(true);
    expect(stale(client, queryKeys.image('img_1'))).toBe(true);
  });
});

describe('undo of marks (Ctrl+Z)', () => {
  let client: QueryClient;
  /** main's marks by image id, as library:get-images and library:mark read and write them. */
  let stored: Map<string, ImageRecord>;
  const calls: MarkInput[] = [];

  beforeEach(() => {
    client = new QueryClient();
    calls.length = 0;
    useUndoHistory.setState({ stack: [], note: null });
    stored = new Map([['img_1', image('img_1', 'turn_1', { rating: 3, prompt: 'a blue mug on oak' } as Partial<ImageRecord>)]]);
    const ok = <T>(value: T) => Promise.resolve({ ok: true, value });
    vi.stubGlobal('window', {
      api: {
        libraryGetImages: ({ imageIds }: { imageIds: string[] }) => ok({ images: imageIds.map((id) => stored.get(id)!), missing: [] }),
        libraryMark: ({ imageIds, ...marks }: MarkInput) => {
          calls.push({ imageIds, ...marks });
          for (const id of imageIds) stored.set(id, { ...stored.get(id)!, ...marks });
          return ok(imageIds.map((id) => stored.get(id)!));
        },
      },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const mark = (input: MarkInput & { label?: string }) => new MutationObserver(client, markMutation(client)).mutate(input);

  it('puts back exactly what a reject replaced (a 3-star image is 3 stars and not rejected again), and names the image', async () => {
    await mark({ imageIds: ['img_1'], rejected: true, label: 'SKU-1 · main 2/2' });
    expect(useUndoHistory.getState().note).toMatchObject({ kind: 'marked', marks: { rejected: true }, name: 'SKU-1 · main 2/2' });
    await undoLast(client);
    expect(calls.at(-1)).toEqual({ imageIds: ['img_1'], rating: 3, rejected: false, starred: false });
    expect(stored.get('img_1')).toMatchObject({ rating: 3, rejected: false, starred: false });
    // The undo's note names the image as the mark's did.
    expect(useUndoHistory.getState().note).toMatchObject({ kind: 'undone', name: 'SKU-1 · main 2/2' });
    // Nothing left: says so, sends nothing.
    const sent = calls.length;
    await undoLast(client);
    expect(calls).toHaveLength(sent);
    expect(useUndoHistory.getState().note?.kind).toBe('nothing');
  });

  it('names an image marked without a label by its prompt', async () => {
    await mark({ imageIds: ['img_1'], starred: true });
    expect(useUndoHistory.getState().note).toMatchObject({ kind: 'marked', name: 'a blue mug on oak' });
    await undoLast(client);
    expect(useUndoHistory.getState().note).toMatchObject({ kind: 'undone', name: 'a blue mug on oak' });
  });

  it('undoes exactly when marks follow each other faster than main answers (0, then X, then Ctrl+Z at once)', async () => {
    // main takes 20 ms to write a mark; both keys and Ctrl+Z come before it has answered the first.
    const api = (window as unknown as { api: Record<string, (input: MarkInput) => Promise<unknown>> }).api;
    const write = api.libraryMark!;
    api.libraryMark = (input) => new Promise((resolve) => setTimeout(() => resolve(write(input)), 20));
    const clear = mark({ imageIds: ['img_1'], rating: 0 });
    const reject = mark({ imageIds: ['img_1'], rejected: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const undo = undoLast(client);
    await Promise.all([clear, reject, undo]);
    api.libraryMark = write;
    // Only the last mark (the reject) is taken back; the rating cleared before it stays cleared.
    expect(stored.get('img_1')).toMatchObject({ rating: 0, rejected: false });
    await undoLast(client);
    expect(stored.get('img_1')).toMatchObject({ rating: 3, rejected: false });
  });

  it('keeps a refused undo on the stack', async () => {
    await mark({ imageIds: ['img_1'], rejected: true });
    const api = (window as unknown as { api: Record<string, unknown> }).api;
    const libraryMark = api.libraryMark;
    api.libraryMark = () => Promise.resolve({ ok: false, error: { code: 'E_TEST', message: 'refused' } });
    await expect(undoLast(client)).rejects.toBeTruthy();
    expect(useUndoHistory.getState().stack).toHaveLength(1);
    api.libraryMark = libraryMark;
    await undoLast(client);
    expect(stored.get('img_1')).toMatchObject({ rating: 3, rejected: false });
  });

  it(`keeps the last ${UNDO_DEPTH} marks, newest undone first`, async () => {
    for (let r = 0; r < UNDO_DEPTH + 5; r++) await mark({ imageIds: ['img_1'], rating: (r % 5) + 1 });
    expect(useUndoHistory.getState().stack).toHaveLength(UNDO_DEPTH);
    await undoLast(client);
    // The last mark set rating 5 (r = 24); before it the image had 4.
    expect(stored.get('img_1')?.rating).toBe(4);
  });
});

describe("main's library events into the cache", () => {
  let client: QueryClient;
  let flushes: Array<() => void>;
  let refresher: ReturnType<typeof libraryRefresher>;
  const flush = () => flushes.splice(0).forEach((f) => f());

  beforeEach(() => {
    client = new QueryClient();
    flushes = [];
    refresher = libraryRefresher(client, (f) => flushes.push(f));
    client.setQueryData(queryKeys.gallery({}), page('ses_1', image('img_1')));
    client.setQueryData(queryKeys.gallery({ sessionId: 'ses_2' }), page('ses_2', image('img_9')));
    client.setQueryData(queryKeys.gallery({ rejected: 'hide' }), page('ses_2', image('img_9')));
    client.setQueryData(queryKeys.gallery({ boardId: 'brd_1' }), page(null));
    client.setQueryData(queryKeys.gallery({ boardId: 'brd_2' }), page(null));
    client.setQueryData(queryKeys.neighbors({}, 'img_8'), { index: 1, total: 3, prev: 'img_1', next: 'img_9', inFilter: true });
    client.setQueryData(queryKeys.image('img_1'), detail(image('img_1')));
    client.setQueryData(queryKeys.image('img_9'), detail(image('img_9', 'turn_9')));
    client.setQueryData(queryKeys.turn('turn_1'), { id: 'turn_1', images: [image('img_1')] });
    client.setQueryData(queryKeys.turn('turn_9'), { id: 'turn_9', images: [image('img_9', 'turn_9')] });
    client.setQueryData(queryKeys.boards(), []);
    client.setQueryData(queryKeys.smartBoards(), []);
    client.setQueryData(queryKeys.session('ses_1'), { id: 'ses_1' });
  });

  const staleKeys = () =>
    client
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.isInvalidated)
      .map((q) => JSON.stringify(q.queryKey))
      .sort();
  const keys = (...list: QueryKey[]) => list.map((k) => JSON.stringify(k)).sort();

  it("an image's change refreshes where it is shown and the views filtered by marks, not every gallery", () => {
    refresher.change({ kind: 'image', id: 'img_1' });
    flush();
    expect(staleKeys()).toEqual(
      keys(queryKeys.gallery({}), queryKeys.gallery({ rejected: 'hide' }), queryKeys.neighbors({}, 'img_8'), queryKeys.image('img_1'), queryKeys.turn('turn_1')),
    );
  });

  it("a download refreshes that image wherever it is shown and its turn, nothing else", () => {
    refresher.download({ imageId: 'img_9', turnId: 'turn_9' });
    flush();
    expect(staleKeys()).toEqual(
      keys(queryKeys.gallery({ sessionId: 'ses_2' }), queryKeys.gallery({ rejected: 'hide' }), queryKeys.neighbors({}, 'img_8'), queryKeys.image('img_9'), queryKeys.turn('turn_9')),
    );
  });

  it("a board's images refresh the board list, that board's view and those images' details", () => {
    refresher.change({ kind: 'board', id: 'brd_1', ids: ['img_9'] });
    flush();
    expect(staleKeys()).toEqual(keys(queryKeys.boards(), queryKeys.gallery({ boardId: 'brd_1' }), queryKeys.image('img_9')));
  });

  it('a smart board refreshes only the smart boards; a session its summary and the pages that show it', () => {
    refresher.change({ kind: 'smart_board', id: 'sb_1' });
    flush();
    expect(staleKeys()).toEqual(keys(queryKeys.smartBoards()));
    refresher.change({ kind: 'session', id: 'ses_1' });
    flush();
    expect(staleKeys()).toEqual(keys(queryKeys.smartBoards(), queryKeys.session('ses_1'), queryKeys.gallery({})));
  });

  it('a turn refreshes its record, the galleries, the sessions and the image details', () => {
    refresher.change({ kind: 'turn', id: 'turn_1' });
    flush();
    expect(staleKeys()).toEqual(
      keys(
        queryKeys.turn('turn_1'),
        queryKeys.session('ses_1'),
        queryKeys.gallery({}),
        queryKeys.gallery({ sessionId: 'ses_2' }),
        queryKeys.gallery({ rejected: 'hide' }),
        queryKeys.gallery({ boardId: 'brd_1' }),
        queryKeys.gallery({ boardId: 'brd_2' }),
        queryKeys.neighbors({}, 'img_8'),
        queryKeys.image('img_1'),
        queryKeys.image('img_9'),
      ),
    );
  });

  it('gathers the events of one frame into one refresh', () => {
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    refresher.change({ kind: 'image', id: 'img_1' });
    refresher.download({ imageId: 'img_9', turnId: 'turn_9' });
    refresher.change({ kind: 'smart_board', id: 'sb_1' });
    expect(flushes).toHaveLength(1);
    expect(invalidate).not.toHaveBeenCalled();
    flush();
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(staleKeys()).toContain(JSON.stringify(queryKeys.smartBoards()));
    expect(staleKeys()).toContain(JSON.stringify(queryKeys.turn('turn_9')));
  });
});
