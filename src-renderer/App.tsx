import { useTranslation } from 'react-i18next';
import { useAppStore, type AppTab } from './app-store.ts';
import { BatchPage } from './features/batch/BatchPage.tsx';
import { useBatchT } from './features/batch/i18n.ts';
import { ComposePanel } from './features/compose/ComposePanel.tsx';
import { GalleryPanel } from './features/gallery/GalleryPanel.tsx';
import { ExportDialog } from './features/export/ExportDialog.tsx';
import { CompareView, ImageViewer } from './features/gallery/ImageViewer.tsx';
import { useGalleryView } from './features/gallery/view-store.ts';
import { InspectorPanel } from './features/inspector/InspectorPanel.tsx';
import { LibraryView } from './features/library/LibraryView.tsx';
import { LocalConsole } from './features/local-console/LocalConsole.tsx';
import { BalanceBadge } from './features/money/balance.tsx';
import { StartupNotices } from './features/notices/StartupNotices.tsx';
import { RunStage } from './features/runs/RunStage.tsx';
import { EnvironmentBadge } from './features/settings/EnvironmentBadge.tsx';
import { useSettings, useSettingsSync } from './features/settings/queries.ts';
import { SettingsPage } from './features/settings/SettingsPage.tsx';

const TABS: AppTab[] = ['studio', 'batch', 'webhooks', 'local', 'settings'];

function Studio() {
  // The full-window library takes the studio's place; compose and stage stay mounted (hidden) underneath.
  const libraryOpen = useGalleryView((s) => s.libraryOpen);
  return (
    <div className={`studio ${libraryOpen ? 'studio-library' : ''}`}>
      <ComposePanel />
      <RunStage />
      {libraryOpen ? <LibraryView /> : <GalleryPanel />}
      <ImageViewer />
      <CompareView />
      <ExportDialog />
    </div>
  );
}

export function App() {
  const { t } = useTranslation();
  const bt = useBatchT();
  const tab = useAppStore((s) => s.tab);
  const setTab = useAppStore((s) => s.setTab);
  useSettingsSync();
  const settings = useSettings();
  const tabs = TABS.filter((name) => name !== 'local' || settings.data?.environment !== 'remote');
  return (
    <div className="app">
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
        {tab === 'studio' ? <Studio /> : null}
        {tab === 'batch' ? <BatchPage /> : null}
        {tab === 'webhooks' ? <InspectorPanel /> : null}
        {tab === 'local' ? <LocalConsole /> : null}
        {tab === 'settings' ? <SettingsPage /> : null}
      </main>
    </div>
  );
}
