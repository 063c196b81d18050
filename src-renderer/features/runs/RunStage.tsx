// The middle of the studio: the turns of the session being continued (newest first), or the runs started
// from this window when a new session is next. Results appear here in place, large (StageResults), on a matte
// or a checkerboard (remembered on this computer).
import { useLayoutEffect, useRef, useState } from 'react';
import { appText, useText } from '../../i18n/text.ts';
import { useComposeStore } from '../compose/index.ts';
import { useSessionTurns } from '../../lib/library-queries.ts';
import { useAnySession, useGenerationEvents, useRunningTurns } from './queries.ts';
import { StageHeight } from './StageResults.tsx';
import { useRunsStore, useStageBackground, type StageBackground } from './store.ts';
import { TurnCard } from './TurnCard.tsx';

const BACKGROUNDS: StageBackground[] = ['matte', 'checker'];

/** Hides every failed card shown from the stage at once (they stay in the library). */
function DismissFailed({ turnIds }: { turnIds: string[] }) {
  const t = useText(appText);
  const dismiss = useRunsStore((s) => s.dismiss);
  if (turnIds.length === 0) return null;
  return (
    <button type="button" className="btn btn-ghost btn-xs stage-dismiss-failed" data-testid="dismiss-failed-all" title={t('errors.dismissHint')} onClick={() => dismiss(turnIds)}>
      {t('stage.dismissFailed', { count: turnIds.length })}
    </button>
  );
}

function BackgroundToggle({ failedIds }: { failedIds: string[] }) {
  const t = useText(appText);
  const [background, setBackground] = useStageBackground();
  return (
    <div className="stage-toolbar">
      <DismissFailed turnIds={failedIds} />
      <span className="muted small" id="stage-background-label" title={t('stage.backgroundHint')}>
        {t('stage.background')}
      </span>
      <div className="segmented segmented-sm" role="group" aria-labelledby="stage-background-label">
        {BACKGROUNDS.map((b) => (
          <button
            key={b}
            type="button"
            className={`segment ${background === b ? 'segment-on' : ''}`}
            aria-pressed={background === b}
            data-testid={`stage-background-${b}`}
            onClick={() => setBackground(b)}
          >
            {t(`stage.${b}`)}
          </button>
        ))}
      </div>
    </div>
  );
}

export function RunStage() {
  const t = useText(appText);
  useGenerationEvents();
  const session = useComposeStore((s) => s.session);
  const turns = useSessionTurns(session?.id ?? null);
  const running = useRunningTurns();
  // With earlier work in the library, "nothing generated yet" would be wrong: point at Continue instead. Until the
  // library has answered, the empty stage says neither (it said "nothing generated yet" at every start-up).
  const anySession = useAnySession();
  const hasHistory = (anySession.data?.sessions.length ?? 0) > 0;
  const dismissed = useRunsStore((s) => s.dismissed);
  // A new session is next: only runs still going elsewhere are shown (e.g. after a reload). Dismissed failed cards
  // are not shown.
  const shown = (session ? [...(turns.data ?? [])].sort((a, b) => b.startedAt - a.startedAt) : (running.data ?? []).filter((x) => x.status === 'running')).filter(
    (x) => !dismissed.has(x.id),
  );
  const ids = shown.map((x) => x.id);
  const failedIds = shown.filter((x) => x.status === 'failed').map((x) => x.id);
  const [background] = useStageBackground();
  const ref = useRef<HTMLElement>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const observer = new ResizeObserver(() => setHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <section className="run-stage" aria-label={t('stage.title')} data-testid="stage" data-background={background} ref={ref}>
      {ids.length === 0 ? (
        <div className="stage-empty" data-testid="stage-empty" data-history={anySession.isPending ? undefined : hasHistory}>
          {anySession.isPending ? null : (
            <>
              <h2>{hasHistory ? t('stage.newSessionTitle') : t('stage.emptyTitle')}</h2>
              <p className="muted">{hasHistory ? t('stage.newSessionBody') : t('stage.emptyBody')}</p>
            </>
          )}
        </div>
      ) : (
        <StageHeight.Provider value={height}>
          <BackgroundToggle failedIds={failedIds} />
          <div className="stage-list">
            {ids.map((id) => (
              <TurnCard key={id} turnId={id} />
            ))}
          </div>
        </StageHeight.Provider>
      )}
    </section>
  );
}
