// How the designer looks at the gallery (kept apart from store.ts, which holds filters and the selection):
// the focused image of the grid, the gallery panel's width, the tile size of each view, "advance after
// marking", and whether the full-window library view is open. Width, tile sizes and "advance" survive a
// reload (localStorage: a view preference, not library data).
import { create } from 'zustand';

export type GridView = 'gallery' | 'library';

const STORAGE_KEY = 'studio.galleryView';

export const GALLERY_WIDTH = { min: 240, default: 440, step: 16 };
export const THUMB_SIZE = { min: 80, max: 360, step: 8, defaults: { gallery: 120, library: 180 } as Record<GridView, number> };

interface Persisted {
  galleryWidth: number;
  thumbSize: Record<GridView, number>;
  advance: boolean;
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(n)));
}

function load(): Persisted {
  const fallback: Persisted = { galleryWidth: GALLERY_WIDTH.default, thumbSize: { ...THUMB_SIZE.defaults }, advance: true };
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return fallback;
    const parsed = JSON.parse(raw) as Partial<Persisted>;
    return {
      galleryWidth: typeof parsed.galleryWidth === 'number' ? Math.max(GALLERY_WIDTH.min, Math.round(parsed.galleryWidth)) : fallback.galleryWidth,
      thumbSize: {
        gallery: typeof parsed.thumbSize?.gallery === 'number' ? clamp(parsed.thumbSize.gallery, THUMB_SIZE.min, THUMB_SIZE.max) : fallback.thumbSize.gallery,
        library: typeof parsed.thumbSize?.library === 'number' ? clamp(parsed.thumbSize.library, THUMB_SIZE.min, THUMB_SIZE.max) : fallback.thumbSize.library,
      },
      advance: typeof parsed.advance === 'boolean' ? parsed.advance : true,
    };
  } catch {
    return fallback;
  }
}

function save(state: Persisted): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ galleryWidth: state.galleryWidth, thumbSize: state.thumbSize, advance: state.advance }));
  } catch {
    // Storage unavailable: the preference lasts for this page only.
  }
}

/**
 * The widest the gallery may be in this window: the compose column (clamp(272px, 26%, 340px), app.css) and the
 * stage's 320 px keep their room. gallery.css applies the same bound, so a narrower window shrinks the panel.
 */
export function maxGalleryWidth(windowWidth: number): number {
  const compose = Math.min(340, Math.max(272, windowWidth * 0.26));
  return Math.max(GALLERY_WIDTH.min, Math.floor(windowWidth - compose - 320));
}

interface GalleryViewState extends Persisted {
  /** The grid's focused image (aria-activedescendant); marks and Enter apply to it. */
  active: string | null;
  libraryOpen: boolean;
  /** The board picker (B, or "Add to board"): the images it adds, null when closed. */
  boardPicker: string[] | null;
  /** Bumped when filters are replaced from outside the filter bar (a smart board), so its fields reset. */
  filtersApplied: number;
  setActive: (id: string | null) => void;
  setGalleryWidth: (width: number) => void;
  setThumbSize: (view: GridView, size: number) => void;
  setAdvance: (advance: boolean) => void;
  setLibraryOpen: (open: boolean) => void;
  openBoardPicker: (imageIds: string[]) => void;
  closeBoardPicker: () => void;
  bumpFiltersApplied: () => void;
}

export const useGalleryView = create<GalleryViewState>((set, get) => ({
  ...load(),
  active: null,
  libraryOpen: false,
  boardPicker: null,
  filtersApplied: 0,
  setActive: (active) => set({ active }),
  setGalleryWidth: (width) => {
    const galleryWidth = Math.max(GALLERY_WIDTH.min, Math.round(width));
    if (galleryWidth === get().galleryWidth) return;
    set({ galleryWidth });
    save(get());
  },
  setThumbSize: (view, size) => {
    set((s) => ({ thumbSize: { ...s.thumbSize, [view]: clamp(size, THUMB_SIZE.min, THUMB_SIZE.max) } }));
    save(get());
  },
  setAdvance: (advance) => {
    set({ advance });
    save(get());
  },
  setLibraryOpen: (libraryOpen) => set({ libraryOpen }),
  openBoardPicker: (imageIds) => set({ boardPicker: imageIds.length > 0 ? imageIds : null }),
  closeBoardPicker: () => set({ boardPicker: null }),
  bumpFiltersApplied: () => set((s) => ({ filtersApplied: s.filtersApplied + 1 })),
}));
