// Culling marks (rating 1–5, 0 clears; reject; star) on one image or a selection, through library:mark: the one mark
// hook of the renderer (grid, viewer, compare, catalog board). What the designer sees changes at once: the cached
// gallery pages and image details are patched before main answers, then patched with main's records; the filtered
// truth (an image leaving a "hide rejects" view) comes with main's library:changed event (library-events.ts).
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { create } from 'zustand';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage, ImageDetail } from '../../../src-shared/ipc/library.ts';
import { call } from '../desktop.ts';
import { queryKeys } from '../query-keys.ts';

export interface Marks {
  starred?: boolean;
  rating?: number;
  rejected?: boolean;
}

export type MarkInput = { imageIds: string[] } & Marks;

/** A mark as the views ask for it: with the name the designer knows the image by (e.g. "SKU-001 · main 2/2"). */
export type MarkRequest = MarkInput & { label?: string };

/** What the images were before one mark: enough to put every mark back. */
interface UndoEntry {
  before: Array<Pick<ImageRecord, 'id' | 'rating' | 'rejected' | 'starred'>>;
  /** The name the mark's note gave the image, so the undo's note says the same. */
  name: string;
}

/** The short note after a mark or an undo: what happened to which image. */
export interface MarkNote {
  kind: 'marked' | 'undone' | 'nothing';
  marks: Marks;
  name: string;
  /** Changes on every note, so the same text twice is announced twice. */
  seq: number;
}

/** How many marks Ctrl+Z can take back. */
export const UNDO_DEPTH = 20;

interface MarkHistory {
  stack: UndoEntry[];
  note: MarkNote | null;
  push(entry: UndoEntry, note: Omit<MarkNote, 'seq'>): void;
  pop(): UndoEntry | undefined;
  say(note: Omit<MarkNote, 'seq'>): void;
}

/** The undo stack of marks, one for the whole renderer (grid, viewer, compare, board, studio). */
export const useMarkHistory = create<MarkHistory>((set, get) => ({
  stack: [],
  note: null,
  push: (entry, note) => set((s) => ({ stack: [...s.stack, entry].slice(-UNDO_DEPTH), note: { ...note, seq: (s.note?.seq ?? 0) + 1 } })),
  pop: () => {
    const entry = get().stack.at(-1);
    if (entry) set((s) => ({ stack: s.stack.slice(0, -1) }));
    return entry;
  },
  say: (note) => set((s) => ({ note: { ...note, seq: (s.note?.seq ?? 0) + 1 } })),
}));

/** The name a note gives an image when the view has none: its prompt, shortened, or its file name. */
function nameOf(records: readonly ImageRecord[], label: string | undefined): string {
  if (label) return label;
  const first = records[0];
  if (!first) return '';
  // Records of older answers may lack a prompt: the note must never fail the mark.
  const prompt = typeof first.prompt === 'string' ? first.prompt.trim() : '';
  const base = prompt ? (prompt.length > 32 ? `${prompt.slice(0, 31)}…` : prompt) : (first.filename ?? first.id);
  return records.length > 1 ? `${base} +${records.length - 1}` : base;
}

/** library:mark takes up to 1000 images a call; a larger selection (select all) goes in batches. */
export const MARK_BATCH = 1000;

/** What a culling key does to its images; null when the key is not a culling key. */
export function marksForKey(key: string, images: ReadonlyArray<Pick<ImageRecord, 'rejected' | 'starred'>>): Marks | null {
  if (/^[0-5]$/.test(key)) return { rating: Number(key) };
  const k = key.toLowerCase();
  // Toggles: all marked already → unmark them all; otherwise mark them all. F as well as S.
  if (k === 'x') return { rejected: !images.every((im) => im.rejected) };
  if (k === 's' || k === 'f') return { starred: !images.every((im) => im.starred) };
  return null;
}

function isGalleryData(data: unknown): data is InfiniteData<GalleryPage> {
  return typeof data === 'object' && data !== null && Array.isArray((data as { pages?: unknown }).pages);
}

/** Patches the images in every cached gallery page (the viewer's neighbours, under the same prefix, are left alone). */
function patchGalleryPages(client: QueryClient, ids: ReadonlySet<string>, patch: (image: ImageRecord) => ImageRecord): void {
  client.setQueriesData<unknown>({ queryKey: queryKeys.galleries() }, (data: unknown) => {
    if (!isGalleryData(data)) return data;
    let changed = false;
    const pages = data.pages.map((page) => ({
      ...page,
      groups: page.groups.map((group) => {
        if (!group.images.some((im) => ids.has(im.id))) return group;
        changed = true;
        return { ...group, images: group.images.map((im) => (ids.has(im.id) ? patch(im) : im)) };
      }),
    }));
    return changed ? { ...data, pages } : data;
  });
}

function patchImageDetails(client: QueryClient, ids: Iterable<string>, patch: (image: ImageRecord) => ImageRecord): void {
  for (const id of ids) client.setQueryData<ImageDetail>(queryKeys.image(id), (d) => (d ? { ...d, image: patch(d.image) } : d));
}

/** Shows marks at once, before main answers. */
export function applyMarks(client: QueryClient, { imageIds, ...marks }: MarkInput): void {
  patchGalleryPages(client, new Set(imageIds), (im) => ({ ...im, ...marks }));
  patchImageDetails(client, imageIds, (im) => ({ ...im, ...marks }));
}

/** Puts main's answer in place of the guesses. */
export function applyRecords(client: QueryClient, records: readonly ImageRecord[]): void {
  const byId = new Map(records.map((r) => [r.id, r]));
  patchGalleryPages(client, new Set(byId.keys()), (im) => byId.get(im.id) ?? im);
  patchImageDetails(client, byId.keys(), (im) => byId.get(im.id) ?? im);
}

function stripLabel({ label: _label, ...input }: MarkRequest): MarkInput {
  return input;
}

async function sendMarks(input: MarkInput): Promise<ImageRecord[]> {
  const out: ImageRecord[] = [];
  for (let i = 0; i < input.imageIds.length; i += MARK_BATCH) {
    out.push(...(await call('libraryMark', { ...input, imageIds: input.imageIds.slice(i, i + MARK_BATCH) })));
  }
  return out;
}

/** The images' marks as main has them now (before a mark), or null when main cannot say: then no undo entry. */
async function marksBefore(imageIds: readonly string[]): Promise<UndoEntry['before'] | null> {
  try {
    const out: UndoEntry['before'] = [];
    for (let i = 0; i < imageIds.length; i += MARK_BATCH) {
      const { images } = await call('libraryGetImages', { imageIds: imageIds.slice(i, i + MARK_BATCH) });
      out.push(...images.map(({ id, rating, rejected, starred }) => ({ id, rating, rejected, starred })));
    }
    return out;
  } catch {
    return null;
  }
}

/**
 * Marks and undos reach main one after another, in the order they were made: a mark reads what it replaces only
 * after the mark before it is written, and Ctrl+Z waits for a mark still on its way, so an undo is always exact.
 */
let inOrder: Promise<unknown> = Promise.resolve();
function oneAfterAnother<T>(step: () => Promise<T>): Promise<T> {
  const next = inOrder.then(step, step);
  inOrder = next.catch(() => undefined);
  return next;
}

/** Marks, remembering what they replace so Ctrl+Z can put it back, and naming the image in a short note. */
function markAndRemember(request: MarkRequest): Promise<ImageRecord[]> {
  return oneAfterAnother(() => markThenRemember(request));
}

async function markThenRemember({ label, ...input }: MarkRequest): Promise<ImageRecord[]> {
  const before = await marksBefore(input.imageIds);
  const records = await sendMarks(input);
  const { imageIds: _ids, ...marks } = input;
  const note = { kind: 'marked' as const, marks, name: nameOf(records, label) };
  if (before) useMarkHistory.getState().push({ before, name: note.name }, note);
  else useMarkHistory.getState().say(note);
  return records;
}

/** Puts back what the last mark replaced (every image to its own earlier rating, reject and star). */
export function undoLastMark(client: QueryClient): Promise<void> {
  return oneAfterAnother(() => putBackLastMark(client));
}

async function putBackLastMark(client: QueryClient): Promise<void> {
  const history = useMarkHistory.getState();
  const entry = history.pop();
  if (!entry) {
    history.say({ kind: 'nothing', marks: {}, name: '' });
    return;
  }
  // Images that had the same marks go back in one call.
  const groups = new Map<string, { imageIds: string[] } & Required<Marks>>();
  for (const b of entry.before) {
    const key = `${b.rating}|${b.rejected}|${b.starred}`;
    const group = groups.get(key) ?? { imageIds: [], rating: b.rating, rejected: b.rejected, starred: b.starred };
    group.imageIds.push(b.id);
    groups.set(key, group);
  }
  const records: ImageRecord[] = [];
  try {
    for (const group of groups.values()) {
      applyMarks(client, group);
      records.push(...(await sendMarks(group)));
    }
  } catch (error) {
    // Refused: the mark stays undoable (Ctrl+Z again tries again).
    useMarkHistory.setState((s) => ({ stack: [...s.stack, entry].slice(-UNDO_DEPTH) }));
    throw error;
  }
  applyRecords(client, records);
  for (const turnId of new Set(records.map((r) => r.turnId))) void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
  history.say({ kind: 'undone', marks: {}, name: entry.name || nameOf(records, undefined) });
}

/** Ctrl+Z's action: undo the last mark, wherever it was made. */
export function useUndoMark(): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    void undoLastMark(client).catch(() => {
      // Refused: the cache asks main again.
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
    });
  }, [client]);
}

/** The mark mutation's steps on a cache (the hook's body, apart so a test can run it on a real QueryClient). */
export function markMutation(client: QueryClient) {
  return {
    mutationFn: markAndRemember,
    onMutate: (input: MarkRequest) => applyMarks(client, stripLabel(input)),
    onSuccess: (records: ImageRecord[]) => {
      applyRecords(client, records);
      // A turn's record carries its images' marks (the stage's results).
      for (const turnId of new Set(records.map((r) => r.turnId))) void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
    },
    // Refused (nothing changed): the guesses go, the cache asks again.
    onError: (_error: unknown, input: MarkRequest) => {
      void client.invalidateQueries({ queryKey: queryKeys.galleries() });
      for (const id of input.imageIds) void client.invalidateQueries({ queryKey: queryKeys.image(id) });
    },
  };
}

export function useMark() {
  return useMutation(markMutation(useQueryClient()));
}
