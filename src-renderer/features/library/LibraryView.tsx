// The full-window library: the gallery's images and filters (the same store, so nothing changes on the way in
// or out) with room to cull: filters, boards and smart boards in a side bar, the selection's actions, and the
// grid at its own tile size. Opened from the gallery panel (open-library), closed back to the studio.
import { useEffect, useRef } from 'react';
import { useText } from '../../i18n/text.ts';
import { BoardsSection } from '../boards/index.ts';
import { CullLegend, FilterBar, GalleryBody, GalleryTotals, SelectionBar, ThumbSizeSlider } from '../gallery/index.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { libraryText } from '../../i18n/library.ts';

export function LibraryView() {
  const lt = useText(libraryText);
  const filters = useGalleryStore((s) => s.filters);
  const close = useGalleryView((s) => s.setLibraryOpen);
  const rootRef = useRef<HTMLElement>(null);
  const leave = () => {
    close(false);
    // Back in the studio, the keyboard is where it left from.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="open-library"]')?.focus());
  };
  // Arriving in the library puts the keyboard in its grid, ready to cull.
  useEffect(() => {
    rootRef.current?.querySelector<HTMLElement>('[data-testid="gallery"]')?.focus({ preventScroll: true });
  }, []);
  return (
    <section className="library-view" data-testid="library-view" aria-labelledby="library-title" ref={rootRef}>
      <header className="library-head">
        <h2 id="library-title" className="panel-title">
          {lt('title')}
        </h2>
        <GalleryTotals filters={filters} />
        <span className="spacer" />
        <ThumbSizeSlider view="library" />
        <button type="button" className="btn btn-sm" data-testid="close-library" onClick={leave}>
          ← {lt('close')}
        </button>
      </header>
      <div className="library-body">
        <aside className="library-side" aria-label={lt('sideLabel')}>
          <FilterBar layout="side" />
          <BoardsSection />
        </aside>
        <div className="library-main">
          <SelectionBar />
          <GalleryBody filters={filters} view="library" />
          <CullLegend />
        </div>
      </div>
    </section>
  );
}
