// One captured attempt: its verdict step by step, the raw headers and body, export (curl / JSON), re-send
// to any URL, and the publication it points to (spec §4.3) with its images.
import { useState } from 'react';
import type { PublicationRecord } from '../../../src-shared/api.ts';
import type { CapturedRequestDetail, ForwardAttempt, SendResult } from '../../../src-shared/ipc/inspector.ts';
import type { WebhookBreakage } from '../../../src-shared/webhook-breakage.ts';
import { useText } from '../../i18n/text.ts';
import { call, imageUrl } from '../../lib/desktop.ts';
import { CopyButton } from '../../ui/CopyButton.tsx';
import { inspectorText } from './i18n.ts';
import { useCapturedRequest, useInspectorAction } from './queries.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { Badge } from '../../ui/Badge.tsx';
import { BreakageField, SendOutcome } from './SendTestForm.tsx';
import { useInspectorStore } from './store.ts';
import { VerificationSteps } from './VerificationSteps.tsx';

function ExportButtons({ requestId }: { requestId: string }) {
  const t = useText(inspectorText);
  const [text, setText] = useState<{ format: string; text: string } | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const run = async (format: 'curl' | 'json') => {
    try {
      const out = await call('inspectorExport', { requestId, format });
      setText(out);
      setError(null);
      await navigator.clipboard.writeText(out.text).catch(() => undefined);
    } catch (e) {
      setError(e as Error);
    }
  };
  return (
    <div className="stack">
      <div className="row-gap">
        <button type="button" className="btn btn-sm" data-testid="inspector-export-curl" onClick={() => void run('curl')}>
          {t('exportCurl')}
        </button>
        <button type="button" className="btn btn-sm" data-testid="inspector-export-json" onClick={() => void run('json')}>
          {t('exportJson')}
        </button>
        {text ? <CopyButton text={text.text} /> : null}
      </div>
      {text ? (
        <pre className="inspector-pre" data-testid="inspector-export-text">
          {text.text}
        </pre>
      ) : null}
      <ErrorLine error={error} testId="inspector-error" />
    </div>
  );
}

/** Replay to any URL: the captured bytes, or the body as edited here (re-signed either way), optionally broken. */
function ResendForm({ detail }: { detail: CapturedRequestDetail }) {
  const t = useText(inspectorText);
  const resend = useInspectorAction('inspectorResend');
  const [url, setUrl] = useState('');
  const [edited, setEdited] = useState<string | null>(null);
  const [breakage, setBreakage] = useState<WebhookBreakage>('none');
  const [result, setResult] = useState<SendResult | null>(null);
  const submit = submitWith(() =>
    resend.mutate(
      {
        requestId: detail.requestId,
        url,
        useStoredSecret: true,
        ...(edited !== null && edited !== detail.bodyText ? { bodyText: edited } : {}),
        ...(breakage !== 'none' ? { breakage } : {}),
      },
      { onSuccess: setResult },
    ),
  );
  return (
    <form className="stack" onSubmit={submit}>
      <div className="row-gap">
        <label className="field-label" htmlFor="inspector-resend-url">
          {t('resendTo')}
        </label>
        <input id="inspector-resend-url" className="grow" value={url} placeholder="https://example.com/webhooks" onChange={(e) => setUrl(e.target.value)} />
        <button type="submit" className="btn btn-sm" disabled={!url || resend.isPending || detail.tooLarge} data-testid="inspector-resend">
          {t('resend')}
        </button>
      </div>
      <details onToggle={(e) => setEdited((e.currentTarget as HTMLDetailsElement).open ? (edited ?? detail.bodyText) : null)}>
        <summary>{t('editReplay')}</summary>
        <label className="sr-only" htmlFor="inspector-resend-body">
          {t('body')}
        </label>
        <textarea
          id="inspector-resend-body"
          data-testid="inspector-resend-body"
          className="inspector-pre"
          rows={6}
          value={edited ?? detail.bodyText}
          onChange={(e) => setEdited(e.target.value)}
        />
        <BreakageField idPrefix="inspector-resend" value={breakage} onChange={setBreakage} />
      </details>
      <SendOutcome error={resend.error} result={result} />
    </form>
  );
}

/** What the integrator's endpoint answered to each relay of this capture (forward-to). */
function ForwardList({ forwards }: { forwards: ForwardAttempt[] }) {
  const t = useText(inspectorText);
  if (forwards.length === 0) return null;
  return (
    <div className="stack" data-testid="inspector-forwards">
      <strong>{t('forwards')}</strong>
      {forwards.map((f, i) => {
        const ok = f.status !== null && f.status >= 200 && f.status < 300;
        return (
          <details key={i} data-testid="inspector-forward" data-status={f.status ?? ''}>
            <summary className="row-gap">
              <Badge tone={ok ? 'ok' : 'danger'}>{f.status ?? t('forwardNoAnswer')}</Badge>
              <code className="small">{f.url}</code>
              <span className="muted small">{t('took', { ms: f.durationMs })}</span>
            </summary>
            {f.error ? <p className="hint-danger">{f.error}</p> : null}
            <pre className="inspector-pre">{`${f.responseHeaders.map((h) => `${h.name}: ${h.value}`).join('\n')}\n\n${f.responseSnippet}`}</pre>
          </details>
        );
      })}
    </div>
  );
}

function PublicationBox({ id }: { id: number }) {
  const t = useText(inspectorText);
  const [record, setRecord] = useState<PublicationRecord | null>(null);
  const fetchIt = useInspectorAction('inspectorFetchPublication');
  return (
    <div className="stack" data-testid="inspector-publication">
      <button type="button" className="btn btn-sm" disabled={fetchIt.isPending} onClick={() => fetchIt.mutate({ publicationId: id }, { onSuccess: setRecord })}>
        {t('fetchPublication', { id })}
      </button>
      <ErrorLine error={fetchIt.error} testId="inspector-error" />
      {record ? (
        <div className="stack">
          <code className="small">
            {record.pack_id} v{record.version} · {record.style_code} · {t('publicationImages', { count: record.images.length })}
          </code>
          <ul className="inspector-pub-images">
            {record.images.map((img) => (
              <li key={img.id} data-testid="publication-image">
                <img src={imageUrl('thumb', img.id)} alt={img.filename} onError={(e) => (e.currentTarget.style.visibility = 'hidden')} />
                <span className="small">
                  {img.id} · {img.width}×{img.height}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

export function DeliveryDetail() {
  const t = useText(inspectorText);
  const selected = useInspectorStore((s) => s.selectedRequestId);
  const detail = useCapturedRequest(selected);
  if (selected === null) return <section className="card muted">{t('selectHint')}</section>;
  const d = detail.data;
  return (
    <section className="card" data-testid="inspector-detail">
      <h3 className="card-title">
        {t('verdict')} <code className="small">{d ? `${d.method} ${d.path}` : ''}</code>
      </h3>
      <ErrorLine error={detail.error} testId="inspector-error" />
      {d ? (
        <>
          <VerificationSteps report={d.verification.report} diagnosis={d.verification.diagnosis} />
          <ForwardList forwards={d.forwards ?? []} />
          {d.publication ? <PublicationBox id={d.publication.id} /> : null}
          <ExportButtons requestId={d.requestId} />
          <ResendForm detail={d} />
          <details>
            <summary>{t('headers')}</summary>
            <table className="table">
              <tbody>
                {d.headers.map((h, i) => (
                  <tr key={i}>
                    <th>{h.name}</th>
                    <td>
                      <code className="inspector-hex">{h.value}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <details open>
            <summary>{t('body')}</summary>
            <pre className="inspector-pre" data-testid="inspector-body">
              {d.bodyText}
            </pre>
          </details>
        </>
      ) : null}
    </section>
  );
}
