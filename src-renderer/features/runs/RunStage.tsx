// The middle of the studio: the turns of the session being continued (newest first), or the runs started
// from this window when a new session is next. Results appear here in place.
import { useTranslation } from 'react-i18next';
import { useComposeStore } from '../compose/store.ts';
import { useAnySession, useGenerationEvents, useRunningTurns, useSessionTurns } from './queries.ts';
import { TurnCard } from './TurnCard.tsx';

export function RunStage() {
  const { t } = useTranslation();
  useGenerationEvents();
  const session = useComposeStore((s) => s.session);
  const turns = useSessionTurns(session?.id ?? null);
  const running = useRunningTurns();
  // With earlier work in the library, "nothing generated yet" would be wrong: point at Continue instead.
  const hasHistory = (useAnySession().data?.sessions.length ?? 0) > 0;
  const sessionIds = [...(turns.data ?? [])].sort((a, b) => b.startedAt - a.startedAt).map((x) => x.id);
  // A new session is next: only runs still going elsewhere are shown (e.g. after a reload).
  const ids = session ? sessionIds : (running.data ?? []).filter((x) => x.status === 'running').map((x) => x.id);
  return (
    <section className="run-stage" aria-label={t('stage.title')} data-testid="stage">
      {ids.length === 0 ? (
        <div className="stage-empty" data-testid="stage-empty" data-history={hasHistory}>
          <h2>{hasHistory ? t('stage.newSessionTitle') : t('stage.emptyTitle')}</h2>
          <p className="muted">{hasHistory ? t('stage.newSessionBody') : t('stage.emptyBody')}</p>
        </div>
      ) : (
        <div className="stage-list">
          {ids.map((id) => (
            <TurnCard key={id} turnId={id} />
          ))}
        </div>
      )}
    </section>
  );
}
