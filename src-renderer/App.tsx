import { lazy, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { useAppStore, type AppTab } from './lib/app-store.ts';
import { TabBoundary } from './ui/TabBoundary.tsx';
import { batchText, loadBatchPage } from './features/batch/index.ts';
import { ComposePanel } from './features/compose/index.ts';
import { GalleryPanel } from './features/gallery/index.ts';
import { ExportDialog } from './features/export/index.ts';
import { CompareView, ImageViewer, MarkUndoBar } from './features/viewer/index.ts';
import { useLibraryEvents } from './lib/library-state/library-events.ts';
import { useGalleryView } from './lib/library-state/view-store.ts';
import { LibraryView } from './features/library/index.ts';
import { BalanceBadge } from './features/money/index.ts';
import { StartupNotices } from './features/notices/index.ts';
import { loadInspectorPanel } from './features/inspector/index.ts';
import { loadLocalConsole } from './features/local-console/index.ts';
// The lazy tabs' stylesheets stay in the start-up stylesheet, before styles/app.css as they always were: loaded
// with their chunks they would come after it and win its equal-specificity rules (.btn, .card, .counter).
import './features/batch/batch.css';
import './features/inspector/inspector.css';
import { RunStage } from './features/runs/index.ts';
import { EnvironmentBadge, loadSettingsPage, useSettings, useSettingsSync } from './features/settings/index.ts';
import { appText, useText } from './i18n/text.ts';

const TABS: AppTab[] = ['studio', 'batch', 'webhooks', 'local', 'settings'];

type LazyTab = Exclude<AppTab, 'studio'>;

interface LazyTabEntry {
  /** Fetches the page's chunk (the idle preload does, ahead of any click). */
  load: () => Promise<ComponentType>;
  /** The page once its chunk is in, else null. */
  loaded: () => ComponentType | null;
  /** The page through React.lazy, for a click before its chunk is in. */
  Page: ComponentType;
}

/**
 * A tab's page loaded with its chunk. Once the chunk is in, the page renders directly: through React.lazy it would
 * suspend on its first render even then, and React holds a suspended tab back ~300 ms before showing it.
 */
function lazyTab(fetchPage: () => Promise<ComponentType>): LazyTabEntry {
  let page: ComponentType | null = null;
  const load = () =>
    fetchPage().then((Page) => {
      page = Page;
      return Page;
    });
  return { load, loaded: () => page, Page: lazy(() => load().then((Page) => ({ default: Page }))) };
}

// The tabs other than the studio are loaded on their own (the app opens on the studio, and their code need not
// be compiled and run before its first thumbnails), then fetched while the app is idle, so a tab opens at once.
const LAZY_TABS: Record<LazyTab, LazyTabEntry> = {
  batch: lazyTab(loadBatchPage),
  webhooks: lazyTab(loadInspectorPanel),
  local: lazyTab(loadLocalConsole),
  settings: lazyTab(loadSettingsPage),
};

/** How long after start-up the other tabs' code is fetched when the app never goes idle before. */
const PRELOAD_TABS_TIMEOUT_MS = 3_000;

function usePreloadedTabs() {
  useEffect(() => {
    const handle = requestIdleCallback(
      () => {
        for (const { load } of Object.values(LAZY_TABS)) void load().catch(() => undefined);
      },
      { timeout: PRELOAD_TABS_TIMEOUT_MS },
    );
    return () => cancelIdleCallback(handle);
  }, []);
}

function Studio() {
  // The full-window library takes the studio's place; compose and stage stay mounted (hidden) underneath.
  const libraryOpen = useGalleryView((s) => s.libraryOpen);
  return (
    <div className={`studio ${libraryOpen ? 'studio-library' : ''}`}>
      <ComposePanel />
      <RunStage />
      {libraryOpen ? <LibraryView /> : <GalleryPanel />}
      <ImageViewer />
      <ExportDialog />
    </div>
  );
}

function LazyTabPage({ tab }: { tab: LazyTab }) {
  // Chosen once per visit of the tab (keyed by it), so the page is never swapped (and its state reset) under the
  // designer.
  const [Page] = useState(() => LAZY_TABS[tab].loaded() ?? LAZY_TABS[tab].Page);
  return (
    <TabBoundary tab={tab}>
      <Page />
    </TabBoundary>
  );
}

export function App() {
  const t = useText(appText);
  const bt = useText(batchText);
  const tab = useAppStore((s) => s.tab);
  const setTab = useAppStore((s) => s.setTab);
  useSettingsSync();
  useLibraryEvents();
  usePreloadedTabs();
  const settings = useSettings();
  const tabs = TABS.filter((name) => name !== 'local' || settings.data?.environment !== 'remote');
  // How many commits have rendered App (and so most of the tree), for the e2e that proves start-up renders it
  // once. In development StrictMode runs this effect twice on mount.
  const appRef = useRef<HTMLDivElement>(null);
  const commits = useRef(0);
  useLayoutEffect(() => {
    commits.current += 1;
    if (appRef.current) appRef.current.dataset.commits = String(commits.current);
  });
  return (
    <div className="app" ref={appRef}>
      <header className="app-header">
        <span className="app-title">{t('app.name')}</span>
        <nav className="app-nav" aria-label={t('nav.label')}>
          {tabs.map((name) => (
            <button
              key={name}
              type="button"
              className="nav-tab"
              data-testid={name === 'batch' ? 'open-batch' : `nav-${name}`}
              aria-current={tab === name ? 'page' : undefined}
              onClick={() => setTab(name)}
            >
              {name === 'batch' ? bt('tab') : t(`nav.${name}`)}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <BalanceBadge />
        <EnvironmentBadge />
      </header>
      <StartupNotices />
      <main className="app-main">
        {tab === 'studio' ? <Studio /> : <LazyTabPage key={tab} tab={tab} />}
      </main>
      {/* Compare opens from the studio and from a Catalog cell or product (the scoped viewer), so on every tab. */}
      <CompareView />
      {/* One note and one Ctrl+Z for marks made anywhere: studio, library, viewer, compare, Catalog board. */}
      <MarkUndoBar />
    </div>
  );
}
