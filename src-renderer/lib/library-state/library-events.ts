// The one mapping from main's library events to the react-query cache. Each event names what changed; only the
// cached reads that show it are asked again: an image's download or marks refresh that image's detail, the gallery
// pages, turns and neighbours that hold it, and the views filtered by marks, not every gallery. Events arriving
// together (a burst of downloads, a mark on 500 images) are gathered and flushed once a frame.
import { useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { IpcEvents } from '../ipc-types.ts';
import { onEvent } from '../desktop.ts';
import { queryKeys } from '../query-keys.ts';

export type LibraryChange = IpcEvents['library:changed'];

/** What one flush refreshes: whole key prefixes, library reads that mention an id, views filtered by marks or a board. */
export interface Refresh {
  prefixes: QueryKey[];
  mentioned: Set<string>;
  markFiltered: boolean;
  boards: Set<string>;
}

export function emptyRefresh(): Refresh {
  return { prefixes: [], mentioned: new Set(), markFiltered: false, boards: new Set() };
}

/** The reads an id can be mentioned in: gallery pages and neighbours, image details, turns, a session's turns. */
const LIBRARY_READS: QueryKey[] = [queryKeys.galleries(), queryKeys.images(), queryKeys.turns(), queryKeys.allSessionTurns(), queryKeys.boardFirstImages()];

/** Adds what one library change makes stale. */
export function addChange(refresh: Refresh, change: LibraryChange): void {
  const ids = change.ids ?? [change.id];
  switch (change.kind) {
    case 'image':
      // Its marks or its file: wherever it is shown, and the views that filter on marks.
      for (const id of ids) refresh.mentioned.add(id);
      refresh.markFiltered = true;
      return;
    case 'turn':
      // A new or finished turn adds images to the galleries, and changes the details of the images it used.
      refresh.prefixes.push(queryKeys.turn(change.id), queryKeys.allSessionTurns(), queryKeys.sessions(), queryKeys.galleries(), queryKeys.images());
      return;
    case 'session':
      // Its title and counts: the session lists, and the gallery headers and details that show it.
      refresh.prefixes.push(queryKeys.sessions(), queryKeys.sessionTurns(change.id));
      refresh.mentioned.add(change.id);
      return;
    case 'board':
      refresh.prefixes.push(queryKeys.boards(), queryKeys.boardFirstImage(change.id));
      refresh.boards.add(change.id);
      // The details list the boards an image is on: those of the images added or removed, or all on a rename.
      if (change.ids) for (const id of change.ids) refresh.prefixes.push(queryKeys.image(id));
      else refresh.prefixes.push(queryKeys.images());
      return;
    case 'smart_board':
      refresh.prefixes.push(queryKeys.smartBoards());
      return;
  }
}

/** A finished (or failed) download: that image wherever it is shown, and its turn. */
export function addDownload(refresh: Refresh, download: { imageId: string; turnId: string }): void {
  refresh.mentioned.add(download.imageId);
  refresh.prefixes.push(queryKeys.turn(download.turnId));
}

function startsWith(key: QueryKey, prefix: QueryKey): boolean {
  return prefix.length <= key.length && prefix.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i]));
}

/** Whether a value (a key or cached data) holds one of the ids anywhere. */
function mentions(value: unknown, ids: ReadonlySet<string>): boolean {
  if (typeof value === 'string') return ids.has(value);
  if (Array.isArray(value)) return value.some((v) => mentions(v, ids));
  if (typeof value === 'object' && value !== null) return Object.values(value).some((v) => mentions(v, ids));
  return false;
}

/** The gallery filters inside a gallery or neighbours key, if any. */
function filtersIn(key: QueryKey): Record<string, unknown>[] {
  return key.filter((part): part is Record<string, unknown> => typeof part === 'object' && part !== null && !Array.isArray(part));
}

function isFilteredBy(key: QueryKey, refresh: Refresh): boolean {
  if (!startsWith(key, queryKeys.galleries())) return false;
  return filtersIn(key).some(
    (f) => (refresh.markFiltered && (f.starred !== undefined || f.minRating !== undefined || f.rejected !== undefined)) || (typeof f.boardId === 'string' && refresh.boards.has(f.boardId)),
  );
}

/** Whether a cached query is stale after this refresh. */
export function isStale(query: Pick<Query, 'queryKey' | 'state'>, refresh: Refresh): boolean {
  const key = query.queryKey;
  if (refresh.prefixes.some((prefix) => startsWith(key, prefix))) return true;
  if (isFilteredBy(key, refresh)) return true;
  if (refresh.mentioned.size === 0 || !LIBRARY_READS.some((read) => startsWith(key, read))) return false;
  return mentions(key, refresh.mentioned) || mentions(query.state.data, refresh.mentioned);
}

function isEmpty(refresh: Refresh): boolean {
  return refresh.prefixes.length === 0 && refresh.mentioned.size === 0 && refresh.boards.size === 0 && !refresh.markFiltered;
}

/** Caches that refresh only the parts holding a changed image (the Catalog board: the rows with it), not a whole read. */
const imageWatchers = new Set<(ids: ReadonlySet<string>) => void>();

/** Tells `watcher` the ids of every flush that mentions images; returns the function that stops it. */
export function watchLibraryImages(watcher: (ids: ReadonlySet<string>) => void): () => void {
  imageWatchers.add(watcher);
  return () => void imageWatchers.delete(watcher);
}

/** One frame; a timer rather than requestAnimationFrame, which a hidden window never runs. */
const FRAME_MS = 16;

/**
 * Gathers changes and refreshes the cache once for all of them, `schedule` later (a frame by default; tests pass
 * their own). Returns the functions that take events.
 */
export function libraryRefresher(client: QueryClient, schedule: (flush: () => void) => void = (f) => void setTimeout(f, FRAME_MS)) {
  let pending: Refresh | null = null;
  const flush = () => {
    const refresh = pending;
    pending = null;
    if (!refresh || isEmpty(refresh)) return;
    void client.invalidateQueries({ predicate: (query) => isStale(query, refresh) });
    if (refresh.mentioned.size > 0) for (const watcher of imageWatchers) watcher(refresh.mentioned);
  };
  const gather = (add: (refresh: Refresh) => void) => {
    if (!pending) {
      pending = emptyRefresh();
      schedule(flush);
    }
    add(pending);
  };
  return {
    change: (change: LibraryChange) => gather((r) => addChange(r, change)),
    download: (download: { imageId: string; turnId: string }) => gather((r) => addDownload(r, download)),
  };
}

/** Main's library and download events into the cache: call once, where the app is mounted. */
export function useLibraryEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    const refresher = libraryRefresher(client);
    const offChanged = onEvent('library:changed', refresher.change);
    const offDownload = onEvent('download:progress', (d) => {
      if (d.state !== 'downloading') refresher.download(d);
    });
    return () => {
      offChanged();
      offDownload();
    };
  }, [client]);
}
