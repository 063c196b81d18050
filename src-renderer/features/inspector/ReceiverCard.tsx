// The receiver: its URL (with copy), the stored secret (masked; revealed and copied on a click, or replaced by
// the integrator's own), one-click connect of the local service, Regenerate, forward-to, and the forced answer
// / delay used to watch the service's retries.
import { useEffect, useState } from 'react';
import type { InspectorStatus } from '../../../src-shared/ipc/inspector.ts';
import { useText } from '../../i18n/text.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { Badge } from '../../ui/Badge.tsx';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { useSettings } from '../settings/index.ts';
import { inspectorText } from './i18n.ts';
import { useInspectorAction, useInspectorStatus } from './queries.ts';

const FORCEABLE = [200, 204, 301, 400, 401, 404, 410, 429, 500, 502, 503];

/** What the receiver answers, to watch the service's retries: its port, a forced status and a delay. */
function BehaviourForm({ status }: { status: InspectorStatus | undefined }) {
  const t = useText(inspectorText);
  const configure = useInspectorAction('inspectorConfigure');
  const [port, setPort] = useState<string | null>(null);
  const [forced, setForced] = useState<string | null>(null);
  const [delay, setDelay] = useState<string | null>(null);
  const shownForced = forced ?? (status?.forcedStatus === null || status?.forcedStatus === undefined ? '' : String(status.forcedStatus));
  // Only what was changed is sent; the rest stays as the receiver has it.
  const apply = submitWith(() =>
    configure.mutate({
      ...(port !== null && port.trim() !== '' ? { port: Number(port) } : {}),
      ...(forced !== null ? { forcedStatus: forced === '' ? null : Number(forced) } : {}),
      ...(delay !== null && delay.trim() !== '' ? { delayMs: Number(delay) } : {}),
    }),
  );
  return (
    <>
      <form className="row-gap wrap inspector-behaviour" onSubmit={apply}>
        <label className="field-label" htmlFor="inspector-port">
          {t('port')}
        </label>
        <input id="inspector-port" className="input-narrow" inputMode="numeric" title={t('portHint')} value={port ?? String(status?.port ?? '')} onChange={(e) => setPort(e.target.value)} />
        <label className="field-label" htmlFor="inspector-forced">
          {t('forcedStatus')}
        </label>
        <select id="inspector-forced" data-testid="inspector-forced-status" value={shownForced} onChange={(e) => setForced(e.target.value)}>
          <option value="">{t('forcedStatusNone')}</option>
          {FORCEABLE.map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
        <label className="field-label" htmlFor="inspector-delay">
          {t('delay')}
        </label>
        <input id="inspector-delay" className="input-narrow" inputMode="numeric" value={delay ?? String(status?.delayMs ?? 0)} onChange={(e) => setDelay(e.target.value)} />
        <button type="submit" className="btn btn-sm" disabled={configure.isPending} data-testid="inspector-apply">
          {t('apply')}
        </button>
      </form>
      <p className="muted small">{t('behaviourHint')}</p>
      <ErrorLine error={configure.error} testId="inspector-error" />
    </>
  );
}

/** The whole secret on a click, to paste into the integrator's receiver; hidden again by a click or after a minute. */
function RevealSecret() {
  const t = useText(inspectorText);
  const reveal = useInspectorAction('inspectorRevealSecret');
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (shown === null) return;
    const timer = setTimeout(() => setShown(null), 60_000);
    return () => clearTimeout(timer);
  }, [shown]);
  if (shown !== null) {
    return (
      <>
        <code className="inspector-secret-full" data-testid="inspector-secret-revealed">
          {shown}
        </code>
        <CopyButton text={shown} testId="inspector-secret-copy" />
        <button type="button" className="btn btn-sm" onClick={() => setShown(null)}>
          {t('hideSecret')}
        </button>
      </>
    );
  }
  return (
    <>
      <button
        type="button"
        className="btn btn-sm"
        data-testid="inspector-secret-reveal"
        disabled={reveal.isPending}
        onClick={() => reveal.mutate({}, { onSuccess: (answer) => setShown(answer.secret) })}
      >
        {t('revealSecret')}
      </button>
      <ErrorLine error={reveal.error} testId="inspector-error" />
    </>
  );
}

/** One labelled field with its button, hint and error on a row: the own-secret and forward-to settings. */
function OneFieldForm(props: {
  id: string;
  label: string;
  input: { type?: string; placeholder: string; value: string; onChange(value: string): void };
  button: { label: string; testId: string; disabled: boolean };
  hint: string;
  error: Error | null;
  onSubmit(): void;
}) {
  const { id, input, button } = props;
  return (
    <form className="row-gap wrap" onSubmit={submitWith(props.onSubmit)}>
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        data-testid={id}
        className="grow"
        type={input.type ?? 'text'}
        autoComplete="off"
        placeholder={input.placeholder}
        value={input.value}
        onChange={(e) => input.onChange(e.target.value)}
      />
      <button type="submit" className="btn btn-sm" data-testid={button.testId} disabled={button.disabled}>
        {button.label}
      </button>
      <span className="muted small">{props.hint}</span>
      <ErrorLine error={props.error} testId="inspector-error" />
    </form>
  );
}

/** Verify with the integrator's own whsec_ (deliveries from any sender), instead of the local service's. */
function OwnSecretForm() {
  const t = useText(inspectorText);
  const setSecret = useInspectorAction('inspectorSetSecret');
  const [value, setValue] = useState('');
  return (
    <OneFieldForm
      id="inspector-own-secret"
      label={t('ownSecret')}
      input={{ type: 'password', placeholder: 'whsec_…', value, onChange: setValue }}
      button={{ label: t('ownSecretSave'), testId: 'inspector-own-secret-save', disabled: setSecret.isPending || value.trim() === '' }}
      hint={t('ownSecretHint')}
      error={setSecret.error}
      onSubmit={() => setSecret.mutate({ secret: value }, { onSuccess: () => setValue('') })}
    />
  );
}

/** Forward-to: every capture relayed unchanged to the integrator's own endpoint, each answer recorded. */
function ForwardForm({ status }: { status: InspectorStatus | undefined }) {
  const t = useText(inspectorText);
  const configure = useInspectorAction('inspectorConfigure');
  const [url, setUrl] = useState<string | null>(null);
  const shown = url ?? status?.forwardTo ?? '';
  return (
    <OneFieldForm
      id="inspector-forward-to"
      label={t('forwardTo')}
      input={{ placeholder: 'http://127.0.0.1:3000/webhooks', value: shown, onChange: setUrl }}
      button={{ label: shown.trim() === '' ? t('forwardOff') : t('apply'), testId: 'inspector-forward-apply', disabled: configure.isPending }}
      hint={t('forwardHint')}
      error={configure.error}
      onSubmit={() => configure.mutate({ forwardTo: shown.trim() === '' ? null : shown.trim() }, { onSuccess: () => setUrl(null) })}
    />
  );
}

export function ReceiverCard() {
  const t = useText(inspectorText);
  const status = useInspectorStatus();
  const settings = useSettings();
  const connect = useInspectorAction('inspectorConnectLocal');
  const regenerate = useInspectorAction('inspectorRegenerateLocal');
  const s = status.data;
  const isLocal = settings.data?.environment !== 'remote';

  return (
    <section className="card" data-testid="inspector-receiver">
      <h3 className="card-title">{t('receiver')}</h3>
      {s?.url ? (
        <div className="row-gap inspector-url-row">
          <span className="field-label">{t('receiverUrl')}</span>
          <code className="inspector-url" data-testid="inspector-url">
            {s.url}
          </code>
          <CopyButton text={s.url} testId="inspector-url-copy" />
        </div>
      ) : (
        <p className="hint-danger">{s?.error ?? t('receiverStopped')}</p>
      )}
      <div className="row-gap wrap">
        <span className="field-label">{t('secret')}</span>
        {s?.secretStored ? (
          <>
            <code data-testid="inspector-secret-masked">{s.secretMasked}</code>
            {/* D9: without a system keychain the secret is held for this run only; say so, not "keychain". */}
            {s.secretKept === 'memory' ? (
              <Badge tone="warn" testId="inspector-secret-memory">
                {t('secretInMemory')}
              </Badge>
            ) : (
              <Badge tone="ok">{t('secretStored')}</Badge>
            )}
            <RevealSecret />
          </>
        ) : (
          <Badge tone="warn" testId="inspector-no-secret">
            {t('secretNone')}
          </Badge>
        )}
        {s && s.previousSecrets > 0 ? <span className="muted small">{t('previousSecrets', { count: s.previousSecrets })}</span> : null}
      </div>
      {isLocal ? (
        <div className="row-gap wrap">
          <button type="button" className="btn btn-primary" data-testid="inspector-connect-local" disabled={connect.isPending} onClick={() => connect.mutate({})}>
            {t('connectLocal')}
          </button>
          <button
            type="button"
            className="btn"
            data-testid="inspector-regenerate"
            disabled={regenerate.isPending || !s?.secretStored}
            onClick={() => regenerate.mutate({})}
          >
            {t('regenerate')}
          </button>
          <span className="muted small">{t('connectLocalHint')}</span>
        </div>
      ) : null}
      <ErrorLine error={connect.error ?? regenerate.error} testId="inspector-error" />
      <OwnSecretForm />
      <ForwardForm status={s} />
      <BehaviourForm status={s} />
    </section>
  );
}
