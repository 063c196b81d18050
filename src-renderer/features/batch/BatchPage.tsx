// The catalog screen: what to make on the left (products, shot list), what it costs and how it goes on the right
// (plan and start, run and jobs, marketplace export, report), like a collection runner beside its collection. Two columns that scroll on their own on a wide window; on a narrow
// one (the 960 × 600 minimum) the two one above the other, scrolling as one below the page's head (batch.css).
import { useId, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useText } from '../../i18n/text.ts';
import { ImageViewer } from '../viewer/index.ts';
import { BatchExportDialog } from './BatchExportDialog.tsx';
import { boardText } from './board-i18n.ts';
import { useBoardOpened } from './board-queries.ts';
import { BoardSection } from './CatalogBoard.tsx';
import { COLUMN_SCROLL, scrollParentOf } from './column-scroll.ts';
import { batchText } from './i18n.ts';
import { PlanSection } from './PlanSection.tsx';
import { ProductEditor } from './ProductEditor.tsx';
import { ProductsSection } from './ProductsSection.tsx';
import { useBatchDetail, useBatchEvents, useBatchList, useProducts, useShotLists } from './queries.ts';
import { ReportSection } from './ReportSection.tsx';
import { RunSection } from './RunSection.tsx';
import { ShotListSection } from './ShotListSection.tsx';
import { useBatchStore } from './store.ts';
import { UnsavedEditsDialog } from './UnsavedEdits.tsx';

/**
 * What the page works on: the shot list chosen, else the one the batch on show ran (so a reload shows the batch's
 * own list), else the first; the products in the batch; the batch on show.
 */
function useCatalogChoice() {
  const products = useProducts();
  const shotLists = useShotLists();
  const batches = useBatchList();
  const chosen = useBatchStore(useShallow((s) => ({ excluded: s.excluded, listId: s.shotListId, batchId: s.batchId })));
  const lists = useMemo(() => shotLists.data ?? [], [shotLists.data]);
  // The batch on show: the one chosen, else the newest.
  const shownId = chosen.batchId ?? batches.data?.[0]?.id ?? null;
  const batchListId = batches.data?.find((b) => b.id === shownId)?.shotListId ?? null;
  const list = lists.find((l) => l.id === chosen.listId) ?? lists.find((l) => l.id === batchListId) ?? lists[0] ?? null;
  const productIds = useMemo(() => (products.data ?? []).filter((p) => !chosen.excluded.has(p.id)).map((p) => p.id), [products.data, chosen.excluded]);
  // The board opens first: the batch's detail (every job) and the plan are read once its first rows are in.
  const boardOpened = useBoardOpened(shownId, batches.data !== undefined || batches.error !== null);
  const detail = useBatchDetail(boardOpened ? shownId : null);
  return { lists, list, listsError: shotLists.error, productIds, batches: batches.data ?? [], shownId, boardOpened, batch: detail.data ?? null, batchError: detail.error ?? batches.error };
}

const JUMP_FRAMES = 6;

/**
 * Buttons in the page's head that bring a section to the top of its column: with hundreds of products the board and
 * the product table make each column long (one scroll area per column). The head never scrolls away: on a narrow
 * window what scrolls is the columns' box below it, so a section brought to its top lands just below the head.
 */
function SectionJumps({ label, sections }: { label: string; sections: Array<{ testId: string; name: string }> }) {
  // Again for a few frames: the long lists passed over measure their rows as they come into view, which moves what
  // is below them by the difference to their estimates.
  const jump = (testId: string) => {
    let frames = 0;
    const bring = () => {
      const section = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
      // Only what scrolls the section moves: scrollIntoView moved the app's boxes above it too (they hide their
      // overflow but still scroll), taking the head and the app's bar away when a section could not reach the top.
      const column = scrollParentOf(section);
      if (section && column) column.scrollTop += section.getBoundingClientRect().top - column.getBoundingClientRect().top;
      if (frames++ < JUMP_FRAMES) requestAnimationFrame(bring);
    };
    bring();
  };
  return (
    <nav className="batch-jumps" aria-label={label}>
      {sections.map((s) => (
        <button key={s.testId} type="button" className="btn btn-ghost btn-sm" data-testid="catalog-jump" data-target={s.testId} onClick={() => jump(s.testId)}>
          {s.name}
        </button>
      ))}
    </nav>
  );
}

export function BatchPage() {
  const t = useText(batchText);
  const boardT = useText(boardText);
  const id = useId();
  useBatchEvents();
  const { lists, list, listsError, productIds, batches, shownId, boardOpened, batch, batchError } = useCatalogChoice();
  const exportOpen = useBatchStore((s) => s.exportOpen);
  const setExportOpen = useBatchStore((s) => s.setExportOpen);

  return (
    <div className="batch-page" data-testid="batch-page">
      <header className="batch-page-head">
        <h1 className="page-title">{t('title')}</h1>
        <p className="muted small batch-page-subtitle">{t('subtitle')}</p>
        <SectionJumps
          label={t('jumpLabel')}
          sections={[
            ...(shownId ? [{ testId: 'catalog-board', name: boardT('title') }] : []),
            ...(boardOpened ? [{ testId: 'batch-products', name: t('products') }] : []),
            { testId: 'batch-shot-list', name: t('shotList') },
            ...(boardOpened ? [{ testId: 'batch-plan', name: t('plan') }] : []),
            { testId: 'batch-run', name: t('run') },
            ...(batch ? [{ testId: 'batch-report', name: t('report') }] : []),
          ]}
        />
      </header>
      {/* Scrolls both columns as one on a narrow window (batch.css); on a wide one each column scrolls. */}
      {/* With a board on show its images are the page: its column takes two thirds of a wide window. */}
      <div className={`batch-columns${shownId ? ' batch-columns-board' : ''}`} {...{ [COLUMN_SCROLL]: '' }}>
        <div className="batch-column batch-setup" role="region" aria-label={t('setupLabel')} id={`${id}-setup`} {...{ [COLUMN_SCROLL]: '' }}>
          {shownId ? <BoardSection key={shownId} batchId={shownId} /> : null}
          {/* A long product table waits for the board's first rows too: they are what the page opens to. */}
          {boardOpened ? <ProductsSection shotList={list} /> : null}
          <ShotListSection lists={lists} list={list} error={listsError} />
        </div>
        <div className="batch-column batch-results" role="region" aria-label={t('runLabel')} {...{ [COLUMN_SCROLL]: '' }}>
          {boardOpened ? <PlanSection productIds={productIds} shotListId={list?.id ?? null} /> : null}
          <RunSection
            batches={batches}
            batch={batch}
            error={batchError}
            exportButton={
              <button type="button" className="btn btn-sm" data-testid="batch-export" onClick={() => setExportOpen(true)}>
                {t('exportOpen')}
              </button>
            }
          />
          {batch ? <ReportSection key={batch.id} batchId={batch.id} /> : null}
        </div>
      </div>
      <ProductEditor shotList={list} />
      <BatchExportDialog batch={batch} open={exportOpen} close={() => setExportOpen(false)} />
      <UnsavedEditsDialog listName={list?.name ?? ''} />
      <ImageViewer />
    </div>
  );
}
