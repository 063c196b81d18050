// Send a signed test notification to any URL (like `stripe trigger`): event, editable publication fields,
// delivery id kept or new, the stored secret or a given one; shows the receiver's answer.
import { useState } from 'react';
import type { SendResult } from '../../../src-shared/ipc/inspector.ts';
import { WEBHOOK_BREAKAGES, type WebhookBreakage } from '../../../src-shared/webhook-breakage.ts';
import { useText } from '../../i18n/text.ts';
import { Badge } from '../../ui/Badge.tsx';
import { inspectorText } from './i18n.ts';
import { useInspectorAction, useInspectorStatus } from './queries.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { SecretChoiceFields, type SecretChoiceState, secretChoiceInput } from './SecretChoice.tsx';

/** Deliberate breakage for a send or a replay (src-shared/webhook-breakage.ts). */
export function BreakageField({ idPrefix, value, onChange }: { idPrefix: string; value: WebhookBreakage; onChange(next: WebhookBreakage): void }) {
  const t = useText(inspectorText);
  return (
    <div className="row-gap wrap">
      <label className="field-label" htmlFor={`${idPrefix}-breakage`}>
        {t('breakage')}
      </label>
      <select id={`${idPrefix}-breakage`} data-testid={`${idPrefix}-breakage`} value={value} onChange={(e) => onChange(e.target.value as WebhookBreakage)}>
        {WEBHOOK_BREAKAGES.map((b) => (
          <option key={b} value={b}>
            {t(`breakage_${b}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Under a form that sends: the call's error, or the receiver's answer once there is one. */
export function SendOutcome({ error, result }: { error: Error | null; result: SendResult | null }) {
  return (
    <>
      <ErrorLine error={error} testId="inspector-error" />
      {result ? <SendAnswer result={result} /> : null}
    </>
  );
}

export function SendAnswer({ result }: { result: SendResult }) {
  const t = useText(inspectorText);
  const ok = result.status !== null && result.status >= 200 && result.status < 300;
  return (
    <div className="stack inspector-answer" data-testid="send-answer" data-status={result.status ?? ''}>
      <div className="row-gap wrap">
        <strong>{t('answer')}</strong>
        {result.status !== null ? <Badge tone={ok ? 'ok' : 'danger'}>{result.status}</Badge> : <Badge tone="danger">{t('noAnswer')}</Badge>}
        <span className="muted small">{t('took', { ms: result.durationMs })}</span>
        <code className="small">{result.deliveryId}</code>
      </div>
      {result.breakage && result.breakage !== 'none' ? (
        <p className="small" data-testid="send-expected" data-fails-at={result.failsAt ?? ''}>
          {result.failsAt ? t('expectedFailure', { step: result.failsAt }) : t('expectedAccept')}
        </p>
      ) : null}
      {result.error ? <p className="hint-danger">{result.error}</p> : null}
      {result.responseHeaders.length > 0 ? (
        <pre className="inspector-pre">{result.responseHeaders.map((h) => `${h.name}: ${h.value}`).join('\n')}</pre>
      ) : null}
      {result.responseSnippet ? <pre className="inspector-pre">{result.responseSnippet}</pre> : null}
      <details>
        <summary>{t('requestSent')}</summary>
        <pre className="inspector-pre">{`${result.requestHeaders.map((h) => `${h.name}: ${h.value}`).join('\n')}\n\n${result.body}`}</pre>
      </details>
    </div>
  );
}

export function SendTestForm() {
  const t = useText(inspectorText);
  const status = useInspectorStatus();
  const send = useInspectorAction('inspectorSendTest');
  const [url, setUrl] = useState('');
  const [event, setEvent] = useState<'image_pack.published' | 'ping'>('image_pack.published');
  const [deliveryId, setDeliveryId] = useState('');
  const [pub, setPub] = useState(() => ({ id: '1', pack_id: 'pk_Test0001', version: '1', style_code: 'SS26', published_at: String(Math.floor(Date.now() / 1000)) }));
  const [secret, setSecret] = useState<SecretChoiceState>({ useStored: true, secret: '' });
  const [breakage, setBreakage] = useState<WebhookBreakage>('none');
  const [result, setResult] = useState<SendResult | null>(null);
  const target = url || status.data?.url || '';
  const num = (v: string) => Number.parseInt(v, 10) || 0;
  const publication = () => ({ id: num(pub.id), pack_id: pub.pack_id, version: num(pub.version), style_code: pub.style_code, published_at: num(pub.published_at) });
  const sendTest = submitWith(() =>
    send.mutate(
      {
        url: target,
        event,
        ...(event === 'image_pack.published' ? { publication: publication() } : {}),
        ...(deliveryId.trim() ? { deliveryId: deliveryId.trim() } : {}),
        ...(breakage !== 'none' ? { breakage } : {}),
        ...secretChoiceInput(secret),
      },
      { onSuccess: setResult },
    ),
  );
  return (
    <section className="card" data-testid="inspector-send-test">
      <h3 className="card-title">{t('sendTitle')}</h3>
      <p className="muted small">{t('sendHint')}</p>
      <form className="stack" onSubmit={sendTest}>
        <label className="field-label" htmlFor="send-url">
          {t('targetUrl')}
        </label>
        <input id="send-url" data-testid="send-url" value={url} placeholder={status.data?.url ?? 'https://'} onChange={(e) => setUrl(e.target.value)} />
        <div className="row-gap wrap">
          <label className="field-label" htmlFor="send-event">
            {t('event')}
          </label>
          <select id="send-event" data-testid="send-event" value={event} onChange={(e) => setEvent(e.target.value as typeof event)}>
            <option value="image_pack.published">image_pack.published</option>
            <option value="ping">ping</option>
          </select>
          <label className="field-label" htmlFor="send-delivery">
            {t('deliveryId')}
          </label>
          <input id="send-delivery" className="grow" value={deliveryId} onChange={(e) => setDeliveryId(e.target.value)} />
        </div>
        {event === 'image_pack.published' ? (
          <div className="inspector-pub-fields">
            {(['id', 'pack_id', 'version', 'style_code', 'published_at'] as const).map((f) => (
              <label key={f} className="stack small">
                <code>{f}</code>
                <input value={pub[f]} onChange={(e) => setPub({ ...pub, [f]: e.target.value })} />
              </label>
            ))}
          </div>
        ) : null}
        <SecretChoiceFields idPrefix="send" value={secret} onChange={setSecret} />
        <BreakageField idPrefix="send" value={breakage} onChange={setBreakage} />
        <button type="submit" className="btn btn-primary" disabled={!target || send.isPending} data-testid="send-submit">
          {t('send')}
        </button>
      </form>
      <SendOutcome error={send.error} result={result} />
    </section>
  );
}
