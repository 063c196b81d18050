// The gallery panel (resizable, beside the stage): filters, boards, the selection's actions and the virtualised
// grid of sessions. The full-window library view (features/library) reuses its filter bar, selection bar and grid.
import { useAppStore } from '../../lib/app-store.ts';
import { appText, useText } from '../../i18n/text.ts';
import { BoardStrip, useBoardRemove } from '../boards/index.ts';
import { useComposeStore } from '../compose/index.ts';
import { useExportStore } from '../export/index.ts';
import { useLocalConsoleStore } from '../local-console/index.ts';
import { useSettings } from '../settings/index.ts';
import { libraryText } from '../../i18n/library.ts';
import { FilterBar } from './Filters.tsx';
import { CullLegend, GalleryBody, GalleryResizer, GalleryTotals, ThumbSizeSlider } from './GridChrome.tsx';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { useSelectionInView } from './selection.ts';

export function SelectionBar() {
  const t = useText(appText);
  const lt = useText(libraryText);
  const boardId = useGalleryStore((s) => s.filters.boardId);
  const openBoardPicker = useGalleryView((s) => s.openBoardPicker);
  const removeFromBoard = useBoardRemove();
  // Actions apply to what the designer can see: selected images the filters hide are counted, not acted on.
  const { visible: selected, hidden } = useSelectionInView();
  const all = useGalleryStore((s) => s.selected);
  const clear = useGalleryStore((s) => s.clearSelection);
  const openCompare = useGalleryStore((s) => s.openCompare);
  const addReferences = useComposeStore((s) => s.addReferences);
  const setPackDraft = useLocalConsoleStore((s) => s.setPackImageIds);
  const openExport = useExportStore((s) => s.open);
  const setTab = useAppStore((s) => s.setTab);
  const environment = useSettings().data?.environment;
  if (all.length === 0) return <p className="gallery-tip muted">{t('gallery.tip')}</p>;
  return (
    <div className="selection-bar" data-testid="selection-bar" data-visible={selected.length} data-hidden={hidden}>
      <span data-testid="selection-count">
        {hidden > 0 ? t('gallery.selectedHidden', { count: selected.length, hidden }) : t('gallery.selected', { count: selected.length })}
      </span>
      <button type="button" className="btn btn-xs" data-testid="use-as-references" disabled={selected.length === 0} onClick={() => addReferences(selected)}>
        {t('gallery.useAsReferences')}
      </button>
      {selected.length >= 2 && selected.length <= 4 ? (
        <button type="button" className="btn btn-xs" data-testid="compare" onClick={() => openCompare(...selected)}>
          {t('gallery.compare')}
        </button>
      ) : null}
      {environment === 'local' ? (
        <button
          type="button"
          className="btn btn-xs"
          data-testid="make-pack"
          disabled={selected.length === 0}
          onClick={() => {
            setPackDraft(selected);
            setTab('local');
          }}
        >
          {t('gallery.makePack')}
        </button>
      ) : null}
      <button type="button" className="btn btn-xs" data-testid="export-selection" disabled={selected.length === 0} onClick={() => openExport({ kind: 'selection', imageIds: selected })}>
        {t('export.open')}
      </button>
      <button type="button" className="btn btn-xs" data-testid="board-add" disabled={selected.length === 0} title={`${lt('boardAdd')} (B)`} onClick={() => openBoardPicker(selected)}>
        {lt('boardAdd')}
      </button>
      {boardId ? (
        <button
          type="button"
          className="btn btn-xs"
          data-testid="board-remove"
          disabled={removeFromBoard.isPending || selected.length === 0}
          onClick={() => removeFromBoard.mutate({ boardId, imageIds: selected }, { onSuccess: clear })}
        >
          {lt('boardRemove')}
        </button>
      ) : null}
      <button type="button" className="btn btn-ghost btn-xs" onClick={clear}>
        {t('gallery.clearSelection')}
      </button>
    </div>
  );
}

export function GalleryPanel() {
  const t = useText(appText);
  const lt = useText(libraryText);
  const filters = useGalleryStore((s) => s.filters);
  const width = useGalleryView((s) => s.galleryWidth);
  const openLibrary = useGalleryView((s) => s.setLibraryOpen);
  return (
    <aside className="gallery-panel" aria-label={t('gallery.title')} style={{ width }} data-testid="gallery-panel">
      <GalleryResizer />
      <div className="gallery-head">
        <h2 className="panel-title">{t('gallery.title')}</h2>
        <GalleryTotals filters={filters} />
        <span className="spacer" />
        <ThumbSizeSlider view="gallery" />
        <button type="button" className="btn btn-xs" data-testid="open-library" title={lt('openHint')} onClick={() => openLibrary(true)}>
          ⤢ {lt('open')}
        </button>
      </div>
      <FilterBar />
      <BoardStrip />
      <SelectionBar />
      <GalleryBody filters={filters} view="gallery" />
      <CullLegend />
    </aside>
  );
}
