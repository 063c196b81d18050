// Which session the next generation goes into: a new one, or the one being continued.
import { useTranslation } from 'react-i18next';
import { useComposeStore } from './store.ts';

export function SessionBar() {
  const { t } = useTranslation();
  const session = useComposeStore((s) => s.session);
  const setSession = useComposeStore((s) => s.setSession);
  return (
    <div className="session-bar" data-testid="compose-session">
      {session ? (
        <>
          <span className="session-dot" aria-hidden />
          <span className="session-text">
            {t('session.continuing')} <strong>{session.title ?? t('session.thisSession')}</strong>
          </span>
          <button type="button" className="btn btn-ghost btn-xs" data-testid="new-session" onClick={() => setSession(null)}>
            {t('session.startNew')}
          </button>
        </>
      ) : (
        <span className="session-text">{t('session.newSessionNext')}</span>
      )}
    </div>
  );
}
