// Previous / next in the loupe: the library's order under the gallery's filters (it answers "index / total" across
// every page, not only the loaded ones); the opened list only when the library cannot answer.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { GalleryFilters, ImageNeighbors } from '../../../src-shared/ipc/library.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { imageQuery } from '../../lib/library-queries.ts';
import { stepInScope, useGalleryStore, type ViewerOpen } from '../../lib/library-state/store.ts';
import { neighborsQuery, useNeighbors } from './queries.ts';

/** What was opened: a list of ids, the one shown first, and for a catalog cell or product the scope it stays in. */
export type ViewerState = ViewerOpen;

export interface LoupeTravel {
  /** The image on screen. */
  id: string;
  prevId: string | null;
  nextId: string | null;
  go(target: string | null): void;
  /** The library's answer for the image on screen, or null while it is asked (or could not answer). */
  place: ImageNeighbors | null;
  /** The image's index in the opened list (-1 when moved beyond it). */
  listIndex: number;
  /** The library could not answer, or the viewer is scoped to a cell or product: previous / next walk the opened list. */
  onListOnly: boolean;
}

export function useLoupeTravel(viewer: ViewerState): LoupeTravel {
  const filters = useGalleryStore((s) => s.filters);
  // The image on screen: the one opened, until the designer moves (to ids the library gives, beyond the loaded pages).
  const [moved, setMoved] = useState<{ base: ViewerState; id: string } | null>(null);
  const openedId = viewer.ids[viewer.index] ?? viewer.ids[0] ?? '';
  const id = moved && moved.base === viewer ? moved.id : openedId;
  // A scoped viewer never asks the library: the cell's (or product's) candidates are the whole walk.
  const scoped = viewer.scope !== undefined;
  const neighbors = useNeighbors(filters, scoped ? null : id);
  const place = !scoped && neighbors.data && !neighbors.isPlaceholderData ? neighbors.data : null;
  const onListOnly = scoped || neighbors.isError;
  const listIndex = viewer.ids.indexOf(id);
  const prevId = place ? place.prev : onListOnly ? stepInScope(viewer.ids, id, -1) : null;
  const nextId = place ? place.next : onListOnly ? stepInScope(viewer.ids, id, 1) : null;
  const go = useCallback((target: string | null) => {
    if (target) setMoved({ base: viewer, id: target });
  }, [viewer]);
  usePrefetchNeighbors(scoped ? null : filters, prevId, nextId);
  return { id, prevId, nextId, go, place, listIndex, onListOnly };
}

/** Make the next move instant: the neighbours' details, places and full images ahead of time. */
function usePrefetchNeighbors(filters: GalleryFilters | null, prev: string | null | undefined, next: string | null | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    for (const other of [next, prev]) {
      if (!other) continue;
      void client.prefetchQuery(imageQuery(other));
      // A scoped viewer walks its list: no library places to ask for.
      if (filters) void client.prefetchQuery(neighborsQuery(filters, other));
      const img = new Image();
      img.src = imageUrl('full', other);
    }
  }, [client, filters, next, prev]);
}
