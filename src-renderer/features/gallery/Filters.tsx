// The gallery's filters, shared by the gallery panel and the library view (one set of filters in the store, so
// opening the library keeps them): search, model, purpose, starred, minimum rating, rejects, dates, the board
// or session being viewed, and "save as smart board".
import { useEffect, useState } from 'react';
import { MODEL_IDS, PURPOSE_IDS, PURPOSES, type ModelId, type PurposeId } from '../../../src-shared/catalog.ts';
import type { GalleryFilters } from '../../../src-shared/ipc/library.ts';
import { appText, useText } from '../../i18n/text.ts';
import { DesktopError } from '../../lib/desktop.ts';
import { DateField } from '../../ui/DateField.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useBoards, useSaveSmartBoard, useSmartBoards } from '../boards/index.ts';
import { libraryText } from '../../i18n/library.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';

/** A day's local midnight → its last millisecond, so "to" includes the whole day. */
function dayEnd(day: number | undefined): number | undefined {
  if (day === undefined) return undefined;
  const end = new Date(day);
  end.setHours(23, 59, 59, 999);
  return end.getTime();
}
/** The "to" filter's last millisecond → that day's local midnight, which the field shows. */
function dayStartOf(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : new Date(new Date(ms).toDateString()).getTime();
}

function SearchField() {
  const t = useText(appText);
  const setFilters = useGalleryStore((s) => s.setFilters);
  const [query, setQuery] = useState(() => useGalleryStore.getState().filters.query ?? '');
  useEffect(() => {
    const id = window.setTimeout(() => setFilters({ query: query.trim() || undefined }), 250);
    return () => window.clearTimeout(id);
  }, [query, setFilters]);
  return (
    <input
      type="search"
      className="gallery-search"
      data-testid="gallery-search"
      placeholder={t('gallery.searchPlaceholder')}
      aria-label={t('gallery.search')}
      value={query}
      maxLength={200}
      onChange={(e) => setQuery(e.target.value)}
    />
  );
}

/** What is being viewed besides the plain filters: a board, a session. */
function ViewChips({ filters }: { filters: GalleryFilters }) {
  const lt = useText(libraryText);
  const boards = useBoards().data;
  const setFilters = useGalleryStore((s) => s.setFilters);
  if (!filters.boardId && !filters.sessionId) return null;
  const board = filters.boardId ? boards?.find((b) => b.id === filters.boardId) : undefined;
  return (
    <div className="filter-row">
      {filters.boardId ? (
        <span className="view-chip" data-testid="board-filter">
          {lt('viewingBoard', { name: board?.name ?? '…' })}
          <button type="button" className="icon-btn" aria-label={lt('showAll')} title={lt('showAll')} onClick={() => setFilters({ boardId: undefined })}>
            ✕
          </button>
        </span>
      ) : null}
      {filters.sessionId ? (
        <span className="view-chip" data-testid="session-filter">
          {lt('onlySession')}
          <button type="button" className="icon-btn" aria-label={lt('showAll')} title={lt('showAll')} onClick={() => setFilters({ sessionId: undefined })}>
            ✕
          </button>
        </span>
      ) : null}
    </div>
  );
}

function SaveSmartBoard({ filters }: { filters: GalleryFilters }) {
  const lt = useText(libraryText);
  const save = useSaveSmartBoard();
  const smart = useSmartBoards().data ?? [];
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const saved = smart.some((b) => JSON.stringify(b.filters) === JSON.stringify(filters));
  if (!open) {
    return (
      <button type="button" className="btn btn-ghost btn-xs" data-testid="smart-board-save" disabled={Object.keys(filters).length === 0 || saved} onClick={() => setOpen(true)}>
        {lt('smartSave')}
      </button>
    );
  }
  const error = save.error instanceof DesktopError && save.error.ipc.code === 'board_name_taken' ? lt('nameTaken') : save.error?.message;
  return (
    <form
      className="board-form"
      onSubmit={(e) => {
        e.preventDefault();
        const trimmed = name.trim();
        if (!trimmed) return;
        save.mutate(
          { name: trimmed, filters },
          {
            onSuccess: () => {
              setOpen(false);
              setName('');
            },
          },
        );
      }}
    >
      <input
        autoFocus
        value={name}
        maxLength={80}
        aria-label={lt('smartName')}
        placeholder={lt('smartNamePlaceholder')}
        data-testid="smart-board-name"
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            setOpen(false);
          }
        }}
      />
      <button type="submit" className="btn btn-xs" disabled={!name.trim() || save.isPending}>
        {lt('save')}
      </button>
      <button type="button" className="btn btn-ghost btn-xs" onClick={() => setOpen(false)}>
        {lt('cancel')}
      </button>
      {error ? <p className="hint-danger board-form-error">{error}</p> : null}
    </form>
  );
}

export function FilterBar({ layout = 'panel' }: { layout?: 'panel' | 'side' }) {
  const t = useText(appText);
  const lt = useText(libraryText);
  const language = useLanguage();
  const filters = useGalleryStore((s) => s.filters);
  const setFilters = useGalleryStore((s) => s.setFilters);
  const clearFilters = useGalleryStore((s) => s.clearFilters);
  const applied = useGalleryView((s) => s.filtersApplied);
  const bump = useGalleryView((s) => s.bumpFiltersApplied);
  const [moreOpen, setMoreOpen] = useState(() => filters.from !== undefined || filters.to !== undefined);
  const dates = (
    <div className="filter-row">
      <label className="date-filter">
        {t('gallery.from')}
        <DateField testId="filter-from" value={dayStartOf(filters.from)} onChange={(day) => setFilters({ from: day })} />
      </label>
      <label className="date-filter">
        {t('gallery.to')}
        <DateField testId="filter-to" value={dayStartOf(filters.to)} onChange={(day) => setFilters({ to: dayEnd(day) })} />
      </label>
    </div>
  );
  const clear =
    Object.keys(filters).length > 0 ? (
      <button
        type="button"
        className="btn btn-ghost btn-xs"
        data-testid="filters-clear"
        onClick={() => {
          clearFilters();
          bump();
        }}
      >
        {lt('clearFilters')}
      </button>
    ) : null;
  return (
    <div className={`gallery-filters gallery-filters-${layout}`} role="search">
      <SearchField key={applied} />
      <div className="filter-row">
        <select aria-label={t('gallery.filterModel')} data-testid="filter-model" value={filters.model ?? ''} onChange={(e) => setFilters({ model: (e.target.value || undefined) as ModelId | undefined })}>
          <option value="">{t('gallery.allModels')}</option>
          {MODEL_IDS.filter((m) => m !== 'auto').map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <select aria-label={t('gallery.filterPurpose')} data-testid="filter-purpose" value={filters.purpose ?? ''} onChange={(e) => setFilters({ purpose: (e.target.value || undefined) as PurposeId | undefined })}>
          <option value="">{t('gallery.allPurposes')}</option>
          {PURPOSE_IDS.map((p) => (
            <option key={p} value={p}>
              {PURPOSES[p].label[language]}
            </option>
          ))}
        </select>
        <label className="toggle">
          <input type="checkbox" data-testid="filter-starred" checked={filters.starred === true} onChange={(e) => setFilters({ starred: e.target.checked || undefined })} />
          {t('gallery.starredOnly')}
        </label>
      </div>
      <div className="filter-row">
        <select aria-label={lt('filterRating')} data-testid="filter-rating" value={filters.minRating ?? ''} onChange={(e) => setFilters({ minRating: e.target.value ? Number(e.target.value) : undefined })}>
          <option value="">{lt('anyRating')}</option>
          {[1, 2, 3, 4, 5].map((n) => (
            <option key={n} value={n}>
              {lt('ratingAtLeast', { n })}
            </option>
          ))}
        </select>
        <select
          aria-label={lt('filterRejected')}
          data-testid="filter-rejected"
          value={filters.rejected ?? ''}
          onChange={(e) => setFilters({ rejected: (e.target.value || undefined) as GalleryFilters['rejected'] })}
        >
          <option value="">{lt('rejectsShown')}</option>
          <option value="hide">{lt('rejectsHidden')}</option>
          <option value="only">{lt('rejectsOnly')}</option>
        </select>
      </div>
      {layout === 'side' ? (
        <>
          {dates}
          <ViewChips filters={filters} />
          <div className="filter-row filter-actions">
            <SaveSmartBoard filters={filters} />
            {clear}
          </div>
        </>
      ) : (
        <>
          <ViewChips filters={filters} />
          {/* The panel is narrow: dates and "save as smart board" fold away (open while a date is set). */}
          <div className="filter-row more-filters-row">
            <details className="more-filters" open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
              <summary data-testid="more-filters">
                {lt('moreFilters')}
                {filters.from !== undefined || filters.to !== undefined ? <span className="more-dot" aria-label={lt('datesSet')} /> : null}
              </summary>
              {dates}
              <div className="filter-row filter-actions">
                <SaveSmartBoard filters={filters} />
              </div>
            </details>
            {clear}
          </div>
        </>
      )}
    </div>
  );
}
