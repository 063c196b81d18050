// Which session the next generation goes into: a new one, the one being continued, or a service session
// typed in by its id (sessions are also listed on the service's website, spec §1).
import { useEffect, useState } from 'react';
import { appText, useText } from '../../i18n/text.ts';
import { useSettings } from '../settings/index.ts';
import { useSession } from '../../lib/library-queries.ts';
import { useComposeStore } from './store.ts';

/** After a recall from another session: continue the recalled image's session, or start a new one. */
function RecallOffer() {
  const t = useText(appText);
  const offer = useComposeStore((s) => s.recallOffer);
  const answer = useComposeStore((s) => s.answerRecallOffer);
  const summary = useSession(offer?.sessionId ?? null);
  if (!offer) return null;
  const title = (offer.sessionId ? summary.data?.title : null) ?? offer.serviceSessionId ?? t('session.thatSession');
  return (
    <div className="recall-offer" role="group" aria-labelledby="recall-offer-text" data-testid="recall-session-offer">
      <p id="recall-offer-text" className="small">
        {t('session.recallOffer', { title })}
      </p>
      <div className="row-gap wrap">
        <button type="button" className="btn btn-xs" data-testid="recall-continue-session" onClick={() => answer('continue')}>
          {t('session.recallContinue')}
        </button>
        <button type="button" className="btn btn-ghost btn-xs" data-testid="recall-new-session" onClick={() => answer('new')}>
          {t('session.startNew')}
        </button>
      </div>
    </div>
  );
}

export function SessionBar() {
  return (
    <>
      <CurrentSession />
      <RecallOffer />
    </>
  );
}

function CurrentSession() {
  const t = useText(appText);
  const session = useComposeStore((s) => s.session);
  const serviceSessionId = useComposeStore((s) => s.serviceSessionId);
  const setSession = useComposeStore((s) => s.setSession);
  const setServiceSessionId = useComposeStore((s) => s.setServiceSessionId);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');
  const summary = useSession(session?.id ?? null);
  const title = summary.data?.id === session?.id ? summary.data?.title : session?.title;
  // A session belongs to the environment it was made in (its ids and key live there): after a switch of
  // environment the next generation starts a new session instead of failing with environment_mismatch.
  const environment = useSettings().data?.environment;
  const sessionEnvironment = summary.data?.id === session?.id ? summary.data?.environment : undefined;
  useEffect(() => {
    if (environment && sessionEnvironment && sessionEnvironment !== environment) setSession(null);
  }, [environment, sessionEnvironment, setSession]);
  const apply = () => {
    if (typed.trim()) setServiceSessionId(typed.trim());
    setTyping(false);
  };
  if (typing) {
    return (
      // Not a <form>: this sits inside the compose form, and Enter here must not generate.
      <div className="session-bar">
        <label className="sr-only" htmlFor="service-session-id">
          {t('session.byIdLabel')}
        </label>
        <input
          id="service-session-id"
          data-testid="service-session-id"
          className="grow"
          placeholder="s_…"
          autoFocus
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setTyping(false);
            if (e.key === 'Enter') {
              e.preventDefault();
              e.stopPropagation();
              apply();
            }
          }}
        />
        <button type="button" className="btn btn-xs" data-testid="service-session-apply" onClick={apply}>
          {t('common.apply')}
        </button>
      </div>
    );
  }
  return (
    <div className="session-bar" data-testid="compose-session">
      {session || serviceSessionId ? (
        <>
          <span className="session-dot" aria-hidden />
          <span className="session-text">
            {t('session.continuing')}{' '}
            <strong data-testid="compose-session-title" title={session ? (title ?? undefined) : (serviceSessionId ?? undefined)}>
              {session ? (title ?? t('session.thisSession')) : serviceSessionId}
            </strong>
          </span>
          <button type="button" className="btn btn-ghost btn-xs" data-testid="new-session" onClick={() => setSession(null)}>
            {t('session.startNew')}
          </button>
        </>
      ) : (
        <>
          <span className="session-text">{t('session.newSessionNext')}</span>
          <button type="button" className="btn btn-ghost btn-xs" data-testid="session-by-id" onClick={() => setTyping(true)}>
            {t('session.byId')}
          </button>
        </>
      )}
    </div>
  );
}
