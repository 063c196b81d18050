// One generation as the designer follows it: settings, elapsed against the usual time, stop waiting (the run
// goes on in the background) or abort (confirmed, with what it may cost), results large in place (StageResults),
// warnings, charged vs estimated, request id, errors with what to do, and "outcome unknown" notes.
import { useEffect, useState } from 'react';
import type { TurnRecord } from '../../../src-shared/ipc/generation.ts';
import { useAppStore } from '../../lib/app-store.ts';
import { formatDuration, useFormats } from '../../i18n/format.ts';
import { appText, useText } from '../../i18n/text.ts';
import { Badge, type BadgeTone } from '../../ui/Badge.tsx';
import { ClampedText } from '../../ui/ClampedText.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useNow } from '../../ui/useNow.ts';
import { useComposeStore, usualSeconds } from '../compose/index.ts';
import { CopyAsCode } from './CopyAsCode.tsx';
import { ErrorBanner } from '../../ui/ErrorBanner.tsx';
import type { DesktopError } from '../../lib/desktop.ts';
import { useCancelGeneration, useRetryGeneration, useStopWaiting, useTurn } from './queries.ts';
import { StageResults } from './StageResults.tsx';
import { useRunsStore } from './store.ts';

const STATUS_TONE: Record<TurnRecord['status'], BadgeTone> = {
  running: 'accent',
  succeeded: 'ok',
  failed: 'danger',
  outcome_unknown: 'warn',
  cancelled: 'neutral',
};

/** Abort the connection: a separate, confirmed action that says what it may cost. */
function AbortControl({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const cancel = useCancelGeneration();
  const [confirming, setConfirming] = useState(false);
  if (!turn.actions.abort) return null;
  return confirming ? (
    <div className="cancel-confirm" role="alertdialog" aria-label={t('turn.cancelTitle')}>
      <strong>{t('turn.cancelTitle')}</strong>
      <p>{t('turn.cancelExplain', { credits: turn.estimate.total })}</p>
      <div className="row-gap">
        <button type="button" className="btn btn-danger btn-sm" data-testid="confirm-cancel" disabled={cancel.isPending} onClick={() => cancel.mutate(turn.id)}>
          {t('turn.cancelConfirm')}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => setConfirming(false)}>
          {t('turn.keepWaiting')}
        </button>
      </div>
    </div>
  ) : (
    <button type="button" className="btn btn-ghost btn-sm" data-testid="cancel" onClick={() => setConfirming(true)}>
      {t('turn.cancel')}
    </button>
  );
}

/** A run the user stopped waiting for: no progress in the foreground, only that it goes on and how to abort it. */
function BackgroundRun({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const now = useNow(true, 1000);
  return (
    <div className="run-background" data-testid="run-background" role="status">
      <p>
        <strong>{t('turn.background')}</strong> · <span className="muted">{formatDuration(now - turn.startedAt)}</span>
      </p>
      <p className="muted small">{t('turn.backgroundExplain')}</p>
      <AbortControl turn={turn} />
    </div>
  );
}

function RunningProgress({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const progress = useRunsStore((s) => s.progress[turn.id]);
  const now = useNow(true, 250);
  const stopWaiting = useStopWaiting();
  const elapsed = now - turn.startedAt;
  const usual = usualSeconds(turn.estimate.model, turn.estimate.resolution, turn.estimate.n) * 1000;
  const ratio = Math.min(1, elapsed / usual);
  // Before the first event the request is on its way; a 'retrying' event without a wait is the resend itself.
  const phase = progress?.phase ?? 'sending';
  const phaseKey = phase === 'retrying' && progress?.waitMs === undefined ? 'resending' : phase;
  return (
    <div className="run-progress" data-testid="run-progress">
      <div className="run-progress-line">
        <span className="run-phase" data-testid="run-phase" data-phase={phase}>
          {t(`turn.phase.${phaseKey}`, { wait: formatDuration(progress?.waitMs ?? 0), attempt: progress?.attempt ?? 1 })}
        </span>
        <span className="run-elapsed" data-testid="elapsed">
          {t('turn.elapsed', { elapsed: formatDuration(elapsed), usual: formatDuration(usual) })}
        </span>
      </div>
      <div className="progress-track" aria-hidden>
        <div className={`progress-fill ${elapsed > usual ? 'progress-over' : ''}`} style={{ width: `${Math.round(ratio * 100)}%` }} />
      </div>
      {elapsed > usual ? <p className="muted small">{t('turn.slowerThanUsual')}</p> : null}
      <div className="run-controls">
        {turn.actions.stopWaiting ? (
          <button
            type="button"
            className="btn btn-sm"
            data-testid="stop-waiting"
            title={t('turn.stopWaitingHint')}
            disabled={stopWaiting.isPending}
            onClick={() => stopWaiting.mutate(turn.id)}
          >
            {t('turn.stopWaiting')}
          </button>
        ) : null}
        <AbortControl turn={turn} />
      </div>
    </div>
  );
}

/** Retry as main offers it (spec §7, turn.actions); once used it stays, disabled, saying where the retry went. */
function RetryControl({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const retry = useRetryGeneration();
  const offer = turn.actions.retry;
  const now = useNow(offer.availableAt !== null, 1000);
  const used = offer.reason === 'already_retried' || retry.isSuccess;
  if (offer.offer === 'never' && !used) return null;
  const waitOver = offer.availableAt === null || offer.availableAt <= now;
  const refused = (retry.error as DesktopError | null)?.ipc?.message;
  const label = (offer.kind ?? (turn.error?.code === 'internal_error' ? 'retry_once' : null)) === 'retry_once' ? t('errors.retryOnce') : t('errors.retryNow');
  return (
    <>
      <button
        type="button"
        className="btn btn-sm"
        data-testid="retry"
        data-used={used}
        aria-describedby={used ? `retry-used-${turn.id}` : undefined}
        disabled={retry.isPending || used || !waitOver}
        onClick={() => retry.mutate(turn.id)}
      >
        {label}
      </button>
      {used ? (
        <span className="muted small" id={`retry-used-${turn.id}`} data-testid="retry-used">
          {t('errors.retryUsed')}
        </span>
      ) : null}
      {refused && !used ? (
        <span className="hint-danger small" role="alert" data-testid="retry-refused">
          {refused}
        </span>
      ) : null}
    </>
  );
}

function TurnError({ turn }: { turn: TurnRecord }) {
  const t = useText(appText);
  const setTab = useAppStore((s) => s.setTab);
  const setSession = useComposeStore((s) => s.setSession);
  const markMissing = useComposeStore((s) => s.markMissing);
  const removeReference = useComposeStore((s) => s.removeReference);
  const dismiss = useRunsStore((s) => s.dismiss);
  // spec §4.1 rule 4: main finds which references are gone (via the file endpoint); mark them in the tray.
  const missingIds = turn.error?.details?.missingImageIds;
  const missingKey = Array.isArray(missingIds) ? missingIds.join(',') : '';
  useEffect(() => {
    if (missingKey) markMissing(missingKey.split(','));
  }, [missingKey, markMissing]);
  const error = turn.error;
  if (!error) return null;
  const fix = turn.actions.fix;
  // Main decides what spec §7 allows (turn.actions); the card only shows it, disabled until its time comes.
  const offer = turn.actions.retry;
  return (
    <ErrorBanner
      error={{ code: error.code, message: error.message, requestId: error.requestId ?? turn.requestId }}
      retryAt={offer.offer === 'later' ? offer.availableAt : null}
      actions={
        <>
          <RetryControl turn={turn} />
          {turn.environment === 'local' && (error.requestId ?? turn.requestId) ? (
            <button type="button" className="btn btn-sm" data-testid="look-up-request" onClick={() => useAppStore.getState().lookUpRequest(error.requestId ?? turn.requestId ?? null)}>
              {t('errors.lookUpRequest')}
            </button>
          ) : null}
          {fix === 'top_up' && turn.environment === 'local' ? (
            <button type="button" className="btn btn-sm" onClick={() => setTab('local')}>
              {t('errors.openConsoleToTopUp')}
            </button>
          ) : null}
          {fix === 'keys' ? (
            <button type="button" className="btn btn-sm" onClick={() => setTab(turn.environment === 'local' ? 'local' : 'settings')}>
              {t('errors.openKeys')}
            </button>
          ) : null}
          {missingKey ? (
            <button
              type="button"
              className="btn btn-sm"
              data-testid="remove-missing"
              onClick={() => missingKey.split(',').forEach((id) => removeReference(id))}
            >
              {t('errors.removeMissing')}
            </button>
          ) : null}
          {fix === 'new_session' ? (
            <button type="button" className="btn btn-sm" onClick={() => setSession(null)}>
              {t('session.startNew')}
            </button>
          ) : null}
          {turn.status === 'failed' ? (
            <button type="button" className="btn btn-ghost btn-sm" data-testid="turn-dismiss" title={t('errors.dismissHint')} onClick={() => dismiss([turn.id])}>
              {t('errors.dismiss')}
            </button>
          ) : null}
        </>
      }
    />
  );
}

export function TurnCard({ turnId }: { turnId: string }) {
  const t = useText(appText);
  const format = useFormats();
  const query = useTurn(turnId);
  const recall = useComposeStore((s) => s.recall);
  const turn = query.data;
  if (!turn) {
    return <article className="turn-card turn-loading" aria-busy="true" />;
  }
  const r = turn.request;
  const e = turn.estimate;
  const background = turn.status === 'running' && turn.waitingInBackground;
  return (
    <article
      className={`turn-card ${background ? 'turn-card-background' : ''}`}
      data-testid="turn"
      data-turn-id={turn.id}
      data-status={turn.status}
      data-background={background}
    >
      <header className="turn-head">
        <Badge tone={STATUS_TONE[turn.status]} testId="turn-status">
          {t(`turn.status.${turn.status}`)}
        </Badge>
        <span className="turn-settings">
          {e.model}
          {r.model === 'auto' ? ` (${t('model.auto')})` : ''} · {r.ratio ?? '3:4'} · {e.resolution}
          {e.quality ? ` · ${t(`quality.${e.quality}`)}` : ''} · n={e.n}
          {e.referenceCount > 0 ? ` · ${t('turn.refs', { count: e.referenceCount })}` : ''}
        </span>
        <time className="turn-time muted" dateTime={new Date(turn.startedAt).toISOString()}>
          {format.time(turn.startedAt)}
        </time>
      </header>
      {r.prompt ? <ClampedText text={r.prompt} lines={background ? 1 : 4} className="turn-prompt" testId="turn-prompt" /> : null}
      {turn.status === 'running' ? background ? <BackgroundRun turn={turn} /> : <RunningProgress turn={turn} /> : null}
      {turn.warnings.length > 0 ? (
        <ul className="turn-warnings">
          {turn.warnings.map((w, i) => (
            <li key={`${w.feature}-${i}`} className="turn-warning" data-testid="turn-warning" data-feature={w.feature} role="status">
              <strong>{t(`warnings.${w.type}`, { feature: t(`warnings.feature.${knownFeature(w.feature)}`, { defaultValue: w.feature }) })}</strong>{' '}
              {w.details}
            </li>
          ))}
        </ul>
      ) : null}
      {turn.images.length > 0 ? <StageResults turn={turn} /> : null}
      {turn.status === 'outcome_unknown' ? (
        <div className="outcome-unknown" data-testid="outcome-unknown" role="status">
          <strong>{t('turn.unknownTitle')}</strong>
          <p>{turn.outcomeNote ?? t('turn.unknownExplain')}</p>
          <p className="muted">{t('turn.unknownHowToCheck', { session: turn.serviceSessionId ?? '—' })}</p>
        </div>
      ) : null}
      {turn.status === 'cancelled' ? <p className="muted small">{turn.outcomeNote ?? t('turn.cancelledNote')}</p> : null}
      <TurnError turn={turn} />
      <footer className="turn-foot">
        <span className="turn-credits" data-testid="turn-credits" data-charged={turn.creditsCharged ?? ''} data-estimate={e.total}>
          {turn.creditsCharged !== null
            ? t('turn.chargedVsEstimate', { charged: turn.creditsCharged, estimate: e.total })
            : t('turn.estimateOnly', { estimate: e.total })}
          {turn.creditsCharged !== null && turn.creditsCharged < e.total ? ` · ${t('turn.refunded', { count: e.total - turn.creditsCharged })}` : ''}
        </span>
        {turn.durationMs !== null ? <span className="muted">{t('turn.duration', { time: formatDuration(turn.durationMs) })}</span> : null}
        {turn.requestId && !turn.error ? (
          <span className="request-id-wrap">
            {t('turn.requestId')} <code data-testid="request-id">{turn.requestId}</code>
            <CopyButton text={turn.requestId} />
          </span>
        ) : null}
        <span className="turn-actions">
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            data-testid="recall"
            onClick={() => recall(turn.request, turn.referenceImageIds, { sessionId: turn.sessionId, serviceSessionId: turn.serviceSessionId })}
          >
            {t('turn.recall')}
          </button>
          <CopyAsCode turn={turn} />
        </span>
      </footer>
    </article>
  );
}

const FEATURES = ['n', 'resolution', 'quality', 'ratio'] as const;
function knownFeature(feature: string): (typeof FEATURES)[number] | 'other' {
  return (FEATURES as readonly string[]).includes(feature) ? (feature as (typeof FEATURES)[number]) : 'other';
}
