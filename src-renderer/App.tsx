import { useTranslation } from 'react-i18next';
import { InspectorPanel } from './features/inspector/InspectorPanel.tsx';
import { useAppStore, type AppTab } from './app-store.ts';

const TABS: AppTab[] = ['studio', 'webhooks', 'local', 'settings'];

export function App() {
  const { t } = useTranslation();
  const tab = useAppStore((s) => s.tab);
  const setTab = useAppStore((s) => s.setTab);
  return (
    <div className="app">
      <header className="app-header">
        <span className="app-title">{t('app.name')}</span>
        <nav className="app-nav" aria-label={t('nav.label')}>
          {TABS.map((name) => (
            <button key={name} type="button" className="nav-tab" aria-current={tab === name ? 'page' : undefined} onClick={() => setTab(name)}>
              {t(`nav.${name}`)}
            </button>
          ))}
        </nav>
      </header>
      <main className="app-main">{tab === 'webhooks' ? <InspectorPanel /> : null}</main>
    </div>
  );
}
