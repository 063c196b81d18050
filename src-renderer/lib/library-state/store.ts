// The library's shared UI state, one owner for every feature that shows images: the filters, the multi-selection
// (Shift/Ctrl), the viewer and the side-by-side compare.
import { create } from 'zustand';
import type { GalleryFilters } from '../../../src-shared/ipc/library.ts';
import { call } from '../desktop.ts';

/**
 * A viewer opened on a part of the catalog (a board cell or a product): it walks only these images, never the
 * library, and says where it is ("2 / 4 in SKU-001 · main").
 */
export interface ViewerScope {
  /** The name of the scope the designer sees, e.g. "SKU-001 · main" (a cell) or "SKU-001" (a product). */
  label: string;
  /** Each image's own name, in the order of the opened ids (a product's: "SKU-001 · detail 1/2"); a cell's are its label and place. */
  names?: string[];
  /** Each image's Catalog cell, in the order of the opened ids: the viewer and compare can then pick (P). */
  cells?: ScopeCell[];
}

/** The Catalog cell (product × shot of a batch) an image of a scope is a candidate of. */
export interface ScopeCell {
  batchId: string;
  productId: string;
  sku: string;
  shot: string;
  /** The cell's pick when the scope was opened; a cached board holding the cell says what it is now (picks.ts). */
  pick: string | null;
}

export interface ViewerOpen {
  ids: string[];
  index: number;
  scope?: ViewerScope;
}

/** The image before (-1) or after (+1) `id` inside a scope; null at its ends: a scope is never left, nor wrapped. */
export function stepInScope(ids: readonly string[], id: string, delta: -1 | 1): string | null {
  const at = ids.indexOf(id);
  if (at < 0) return null;
  return ids[at + delta] ?? null;
}

/** The name a mark's note gives an image of a scope: "SKU-001 · main 2/4" (or the product's own name for it). */
export function nameInScope(scope: ViewerScope, ids: readonly string[], id: string): string | undefined {
  const at = ids.indexOf(id);
  if (at < 0) return undefined;
  return scope.names?.[at] ?? placeName(scope.label, at, ids.length);
}

/** A catalog cell as the designer names it: its product's SKU and its shot, "SKU-001 · main". */
export function cellName(sku: string, shot: string): string {
  return `${sku} · ${shot}`;
}

/** One image's name by its place in a group: "SKU-001 · main 2/4" (the one wording of the notes and the board). */
export function placeName(group: string, index: number, total: number): string {
  return `${group} ${index + 1}/${total}`;
}

interface GalleryState {
  filters: GalleryFilters;
  selected: string[];
  /** The anchor of a Shift-click range. */
  anchor: string | null;
  viewer: ViewerOpen | null;
  /** The images compared side by side (2–4, in selection order). */
  compare: string[] | null;
  /** The cell or product the compared images come from, when opened from one (its name in the title and the notes). */
  compareScope: ViewerScope | null;
  setFilters: (patch: Partial<GalleryFilters>) => void;
  clearFilters: () => void;
  /** Click semantics: plain selects one, toggle (Ctrl/Cmd) adds or removes, range (Shift) spans from the anchor. */
  select: (id: string, mode: 'single' | 'toggle' | 'range', order: readonly string[]) => void;
  clearSelection: () => void;
  /** With a scope, the viewer stays inside `ids` (a board cell or a product); without, it walks the library. */
  openViewer: (ids: string[], index: number, scope?: ViewerScope) => void;
  moveViewer: (delta: number) => void;
  closeViewer: () => void;
  openCompare: (...ids: string[]) => void;
  /** Compare a scope's images (its first 4), named by the scope. */
  openScopedCompare: (ids: string[], scope: ViewerScope) => void;
  closeCompare: () => void;
}

export const useGalleryStore = create<GalleryState>((set) => ({
  filters: {},
  selected: [],
  anchor: null,
  viewer: null,
  compare: null,
  compareScope: null,
  setFilters: (patch) =>
    set((s) => {
      const next: GalleryFilters = { ...s.filters, ...patch };
      for (const key of Object.keys(next) as Array<keyof GalleryFilters>) {
        if (next[key] === undefined || next[key] === '') delete next[key];
      }
      return { filters: next };
    }),
  clearFilters: () => set({ filters: {} }),
  select: (id, mode, order) =>
    set((s) => {
      if (mode === 'toggle') {
        const has = s.selected.includes(id);
        return { selected: has ? s.selected.filter((x) => x !== id) : [...s.selected, id], anchor: id };
      }
      if (mode === 'range' && s.anchor) {
        const a = order.indexOf(s.anchor);
        const b = order.indexOf(id);
        if (a >= 0 && b >= 0) {
          const [from, to] = a < b ? [a, b] : [b, a];
          return { selected: order.slice(from, to + 1) };
        }
      }
      return { selected: [id], anchor: id };
    }),
  clearSelection: () => set({ selected: [], anchor: null }),
  openViewer: (ids, index, scope) => set({ viewer: scope ? { ids, index, scope } : { ids, index } }),
  moveViewer: (delta) =>
    set((s) => {
      if (!s.viewer) return {};
      const index = Math.min(s.viewer.ids.length - 1, Math.max(0, s.viewer.index + delta));
      return { viewer: { ...s.viewer, index } };
    }),
  closeViewer: () => set({ viewer: null }),
  openCompare: (...ids) => set({ compare: [...new Set(ids)].slice(0, 4), compareScope: null }),
  openScopedCompare: (ids, scope) => {
    const shown = [...new Set(ids)].slice(0, 4);
    // Named against the whole scope ("2/6"), not the four compared.
    const names = shown.map((id) => nameInScope(scope, ids, id) ?? scope.label);
    const cells = scope.cells ? shown.map((id) => scope.cells?.[ids.indexOf(id)] as ScopeCell) : undefined;
    set({ compare: shown, compareScope: { label: scope.label, names, ...(cells ? { cells } : {}) } });
  },
  closeCompare: () => set({ compare: null, compareScope: null }),
}));

/** Selects everything that passes the filters, loaded or not (the first 5000): the loaded ones at once. */
export function selectAllMatching(loaded: readonly string[], more: boolean): void {
  useGalleryStore.setState({ selected: [...loaded], anchor: loaded[0] ?? null });
  if (!more) return;
  void call('libraryImageIds', { filters: useGalleryStore.getState().filters, limit: 5000 }).then(
    ({ ids }) => useGalleryStore.setState({ selected: ids, anchor: ids[0] ?? null }),
    () => undefined,
  );
}

/** What a mark or "add to board" applies to: the selection when the focused image is part of it, else that image. */
export function selectionAround(focused: string): string[] {
  const current = useGalleryStore.getState().selected;
  return current.length > 1 && current.includes(focused) ? current : [focused];
}
