// The gallery panel: search and filters, the selection's actions, and the virtualised list of sessions.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MODEL_IDS, PURPOSE_IDS, PURPOSES, type ModelId, type PurposeId } from '../../../src-shared/catalog.ts';
import { useAppStore } from '../../app-store.ts';
import { useLanguage } from '../../ui/useLanguage.ts';
import { useComposeStore } from '../compose/store.ts';
import { useExportStore } from '../export/store.ts';
import { useLocalConsoleStore } from '../local-console/store.ts';
import { useSettings } from '../settings/queries.ts';
import { installDragOut } from './drag-out.ts';
import { GalleryList } from './GalleryList.tsx';
import { useGallery } from './queries.ts';
import { useGalleryStore } from './store.ts';

function dayStart(value: string): number | undefined {
  return value ? new Date(`${value}T00:00:00`).getTime() : undefined;
}
function dayEnd(value: string): number | undefined {
  return value ? new Date(`${value}T23:59:59.999`).getTime() : undefined;
}

function FilterBar() {
  const { t } = useTranslation();
  const language = useLanguage();
  const filters = useGalleryStore((s) => s.filters);
  const setFilters = useGalleryStore((s) => s.setFilters);
  const [query, setQuery] = useState(filters.query ?? '');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  useEffect(() => {
    const id = window.setTimeout(() => setFilters({ query: query.trim() || undefined }), 250);
    return () => window.clearTimeout(id);
  }, [query, setFilters]);
  return (
    <div className="gallery-filters" role="search">
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
        <label className="date-filter">
          {t('gallery.from')}
          <input
            type="date"
            data-testid="filter-from"
            value={from}
            onChange={(e) => {
              setFrom(e.target.value);
              setFilters({ from: dayStart(e.target.value) });
            }}
          />
        </label>
        <label className="date-filter">
          {t('gallery.to')}
          <input
            type="date"
            data-testid="filter-to"
            value={to}
            onChange={(e) => {
              setTo(e.target.value);
              setFilters({ to: dayEnd(e.target.value) });
            }}
          />
        </label>
      </div>
    </div>
  );
}

function SelectionBar() {
  const { t } = useTranslation();
  const selected = useGalleryStore((s) => s.selected);
  const clear = useGalleryStore((s) => s.clearSelection);
  const openCompare = useGalleryStore((s) => s.openCompare);
  const addReferences = useComposeStore((s) => s.addReferences);
  const setPackDraft = useLocalConsoleStore((s) => s.setPackImageIds);
  const openExport = useExportStore((s) => s.open);
  const setTab = useAppStore((s) => s.setTab);
  const environment = useSettings().data?.environment;
  if (selected.length === 0) return <p className="gallery-tip muted">{t('gallery.tip')}</p>;
  return (
    <div className="selection-bar" data-testid="selection-bar">
      <span>{t('gallery.selected', { count: selected.length })}</span>
      <button type="button" className="btn btn-xs" data-testid="use-as-references" onClick={() => addReferences(selected)}>
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
          onClick={() => {
            setPackDraft(selected);
            setTab('local');
          }}
        >
          {t('gallery.makePack')}
        </button>
      ) : null}
      <button type="button" className="btn btn-xs" data-testid="export-selection" onClick={() => openExport({ kind: 'selection', imageIds: selected })}>
        {t('export.open')}
      </button>
      <button type="button" className="btn btn-ghost btn-xs" onClick={clear}>
        {t('gallery.clearSelection')}
      </button>
    </div>
  );
}

export function GalleryPanel() {
  const { t } = useTranslation();
  const filters = useGalleryStore((s) => s.filters);
  const gallery = useGallery(filters);
  useEffect(() => installDragOut(), []);
  const pages = gallery.data?.pages ?? [];
  const totals = pages[0]?.totals;
  return (
    <aside className="gallery-panel" aria-label={t('gallery.title')}>
      <div className="gallery-head">
        <h2 className="panel-title">{t('gallery.title')}</h2>
        {totals ? (
          <span className="muted small" data-testid="gallery-totals">
            {t('gallery.totals', { images: t('gallery.imageCount', { count: totals.images }), sessions: t('gallery.sessionCount', { count: totals.sessions }) })}
          </span>
        ) : null}
      </div>
      <FilterBar />
      <SelectionBar />
      {gallery.isError ? <p className="hint-danger">{(gallery.error as Error).message}</p> : null}
      {!gallery.isPending && totals?.images === 0 ? (
        <p className="gallery-empty muted" data-testid="gallery-empty">
          {Object.keys(filters).length > 0 ? t('gallery.noMatches') : t('gallery.empty')}
        </p>
      ) : null}
      <GalleryList
        pages={pages}
        hasMore={gallery.hasNextPage}
        loadingMore={gallery.isFetchingNextPage}
        loadMore={() => void gallery.fetchNextPage()}
      />
    </aside>
  );
}
