// Around the lazily loaded tabs (App.tsx): while a tab's code loads, a busy line; if it cannot be loaded (a
// renderer rebuilt or upgraded under a running window asks for chunk names that are gone), a message and a
// reload instead of React unmounting the whole app. React.lazy remembers a failed load, so reloading the app is
// the way to try again.
import { Component, Suspense, type ReactNode } from 'react';
import { appText, useText } from '../i18n/text.ts';

function TabLoading() {
  const t = useText(appText);
  return (
    <p className="tab-state" aria-busy="true" data-testid="tab-loading">
      {t('app.tabLoading')}
    </p>
  );
}

function TabLoadFailed() {
  const t = useText(appText);
  return (
    <div className="tab-state" role="alert" data-testid="tab-load-error">
      <p>{t('app.tabLoadFailed')}</p>
      <button type="button" className="btn" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}

class LoadErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <TabLoadFailed /> : this.props.children;
  }
}

/** One lazily loaded tab; `tab` resets a failure when the designer goes to another tab. */
export function TabBoundary({ tab, children }: { tab: string; children: ReactNode }) {
  return (
    <LoadErrorBoundary key={tab}>
      <Suspense fallback={<TabLoading />}>{children}</Suspense>
    </LoadErrorBoundary>
  );
}
