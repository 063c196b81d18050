// Culling marks (rating 1–5, 0 clears; reject; star) on one image or a selection, through library:mark: the one mark
// hook of the renderer (grid, viewer, compare, catalog board); each mark goes on the one undo stack (undo.ts). What
// the designer sees changes at once: the cached gallery pages and image details are patched before main answers,
// then patched with main's records; the filtered truth (an image leaving a "hide rejects" view) comes with main's
// library:changed event (library-events.ts).
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { GalleryPage, ImageDetail } from '../../../src-shared/ipc/library.ts';
import { call } from '../desktop.ts';
import { queryKeys } from '../query-keys.ts';
import { oneAfterAnother, remember, say } from './undo.ts';

export interface Marks {
  starred?: boolean;
  rating?: number;
  rejected?: boolean;
}

export type MarkInput = { imageIds: string[] } & Marks;

/** A mark as the views ask for it: with the name the designer knows the image by (e.g. "SKU-001 · main 2/2"). */
export type MarkRequest = MarkInput & { label?: string };

/** What the images were before one mark: enough to put every mark back. */
type MarksBefore = Array<Pick<ImageRecord, 'id' | 'rating' | 'rejected' | 'starred'>>;

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

/**
 * Puts main's answer in place of the guesses. A mark's answer does not carry an image's catalog place (SKU · shot,
 * read with gallery pages and details only); it never changes, so the cached one stays.
 */
export function applyRecords(client: QueryClient, records: readonly ImageRecord[]): void {
  const byId = new Map(records.map((r) => [r.id, r]));
  const fresh = (im: ImageRecord): ImageRecord => {
    const record = byId.get(im.id);
    if (!record) return im;
    return im.catalog && !record.catalog ? { ...record, catalog: im.catalog } : record;
  };
  patchGalleryPages(client, new Set(byId.keys()), fresh);
  patchImageDetails(client, byId.keys(), fresh);
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
async function marksBefore(imageIds: readonly string[]): Promise<MarksBefore | null> {
  try {
    const out: MarksBefore = [];
    for (let i = 0; i < imageIds.length; i += MARK_BATCH) {
      const { images } = await call('libraryGetImages', { imageIds: imageIds.slice(i, i + MARK_BATCH) });
      out.push(...images.map(({ id, rating, rejected, starred }) => ({ id, rating, rejected, starred })));
    }
    return out;
  } catch {
    return null;
  }
}

/** Marks, remembering what they replace so Ctrl+Z can put it back (undo.ts), and naming the image in a short note. */
function markAndRemember(request: MarkRequest): Promise<ImageRecord[]> {
  return oneAfterAnother(() => markThenRemember(request));
}

async function markThenRemember({ label, ...input }: MarkRequest): Promise<ImageRecord[]> {
  const before = await marksBefore(input.imageIds);
  const records = await sendMarks(input);
  const { imageIds, ...marks } = input;
  const name = nameOf(records, label);
  if (before) remember({ done: 'marked', marks, name, imageIds, steps: [{ what: 'marks', putBack: (client) => putBackMarks(client, before) }] });
  else say({ kind: 'marked', marks, name });
  return records;
}

/** Puts back what a mark replaced (every image to its own earlier rating, reject and star). */
async function putBackMarks(client: QueryClient, before: MarksBefore): Promise<void> {
  // Images that had the same marks go back in one call.
  const groups = new Map<string, { imageIds: string[] } & Required<Marks>>();
  for (const b of before) {
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
    // Refused: the cache asks main again.
    void client.invalidateQueries({ queryKey: queryKeys.galleries() });
    throw error;
  }
  showAnswer(client, records);
}

/** Shows main's records, and has the turns holding them read again (a turn's record carries its images' marks). */
function showAnswer(client: QueryClient, records: readonly ImageRecord[]): void {
  applyRecords(client, records);
  for (const turnId of new Set(records.map((r) => r.turnId))) void client.invalidateQueries({ queryKey: queryKeys.turn(turnId) });
}

/** The mark mutation's steps on a cache (the hook's body, apart so a test can run it on a real QueryClient). */
export function markMutation(client: QueryClient) {
  return {
    mutationFn: markAndRemember,
    onMutate: (input: MarkRequest) => applyMarks(client, stripLabel(input)),
    onSuccess: (records: ImageRecord[]) => showAnswer(client, records),
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
