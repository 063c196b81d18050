// The verdict step by step (spec §6 steps 1–4): headers, event, timestamp with a live countdown to the end of the
// 5-minute window, every v1 part against the expected HMAC, and the body; then the plain-language reason.
import type { ReactNode } from 'react';
import type { Diagnosis } from '../../../src-shared/ipc/inspector.ts';
import type { StepVerdict, VerificationReport } from '../../../src-shared/webhook-signature.ts';
import { formatDuration, useFormats } from '../../i18n/format.ts';
import { useText } from '../../i18n/text.ts';
import { Badge } from '../../ui/Badge.tsx';
import { useNow } from '../../ui/useNow.ts';
import { inspectorText, type InspectorKey } from './i18n.ts';

function VerdictBadge({ verdict }: { verdict: StepVerdict }) {
  const t = useText(inspectorText);
  return (
    <Badge tone={verdict === 'pass' ? 'ok' : verdict === 'fail' ? 'danger' : 'neutral'} testId="step-verdict">
      {t(verdict)}
    </Badge>
  );
}

function Step(props: { name: string; title: InspectorKey; verdict: StepVerdict; children: ReactNode }) {
  const t = useText(inspectorText);
  return (
    <li className={`inspector-step inspector-step-${props.verdict}`} data-testid={`step-${props.name}`} data-verdict={props.verdict}>
      <div className="inspector-step-head">
        <VerdictBadge verdict={props.verdict} />
        <span className="inspector-step-title">{t(props.title)}</span>
      </div>
      <div className="inspector-step-body">{props.children}</div>
    </li>
  );
}

/** Live position of the timestamp against the window, counted on this machine's clock. */
function WindowCountdown({ value, tolerance }: { value: number; tolerance: number }) {
  const t = useText(inspectorText);
  const now = useNow(true, 1000);
  const nowS = now / 1000;
  const start = value - tolerance;
  const end = value + tolerance;
  let text: string;
  let tone: 'ok' | 'danger' | 'warn';
  if (nowS < start) {
    text = t('windowFuture', { time: formatDuration((start - nowS) * 1000) });
    tone = 'warn';
  } else if (nowS <= end) {
    text = t('windowLeft', { time: formatDuration((end - nowS) * 1000) });
    tone = 'ok';
  } else {
    text = t('windowExpired', { time: formatDuration((nowS - end) * 1000) });
    tone = 'danger';
  }
  return (
    <span className={`inspector-countdown inspector-countdown-${tone}`} data-testid="timestamp-countdown" aria-live="off">
      {text}
    </span>
  );
}

export function VerificationSteps({ report, diagnosis }: { report: VerificationReport; diagnosis: Diagnosis }) {
  const t = useText(inspectorText);
  const format = useFormats();
  const ts = report.timestamp;
  return (
    <div className="inspector-verdict" data-testid="inspector-verdict" data-valid={report.valid ? 'true' : 'false'}>
      <div className={`inspector-diagnosis ${diagnosis.code === 'valid' ? 'inspector-diagnosis-ok' : 'inspector-diagnosis-fail'}`} data-testid="inspector-diagnosis" data-code={diagnosis.code}>
        <strong>{diagnosis.code === 'valid' ? t('valid') : t('invalid')}</strong> {diagnosis.message}
      </div>
      <ol className="inspector-steps">
        <Step name="headers" title="stepHeaders" verdict={report.headers.verdict}>
          {report.headers.missing.length > 0 ? t('missing', { list: report.headers.missing.join(', ') }) : t('allPresent')}
        </Step>
        <Step name="event" title="stepEvent" verdict={report.event.verdict}>
          <code>{report.event.value ?? '—'}</code>
        </Step>
        <Step name="timestamp" title="stepTimestamp" verdict={ts.verdict}>
          <dl className="facts">
            <dt>{t('timestampRaw')}</dt>
            <dd>
              <code>{ts.raw ?? '—'}</code>
            </dd>
            {ts.value !== null ? (
              <>
                <dt>{t('timestampParsed')}</dt>
                <dd>{format.dateTimeSeconds(ts.value * 1000)}</dd>
                <dt>{t('skew')}</dt>
                <dd>{(ts.skewSeconds ?? 0) >= 0 ? t('skewOld', { s: ts.skewSeconds }) : t('skewFuture', { s: -(ts.skewSeconds ?? 0) })}</dd>
                <dt>±{ts.toleranceSeconds} s</dt>
                <dd>
                  <WindowCountdown value={ts.value} tolerance={ts.toleranceSeconds} />
                </dd>
              </>
            ) : null}
          </dl>
        </Step>
        <Step name="signature" title="stepSignature" verdict={report.signature.verdict}>
          <dl className="facts">
            <dt>{t('expected')}</dt>
            <dd>
              <code className="inspector-hex" data-testid="signature-expected">
                {/* Main sends only the first characters of the expected HMAC (no signing oracle). */}
                {report.signature.expected === null ? '—' : `${report.signature.expected}…`}
              </code>
            </dd>
          </dl>
          {report.signature.parts.length === 0 ? (
            <p className="muted small">{t('noParts')}</p>
          ) : (
            <ul className="inspector-parts">
              {report.signature.parts.map((part, i) => (
                <li key={i} data-testid="signature-part" data-matches={part.matches ? 'true' : 'false'}>
                  <span className="muted small">{t('received')}</span> <code className="inspector-hex">{part.raw}</code>{' '}
                  {part.problem ? (
                    <Badge tone="warn">{t(`problem_${part.problem}` as InspectorKey)}</Badge>
                  ) : part.matches ? (
                    <Badge tone="ok">{t('partMatches')}</Badge>
                  ) : (
                    <Badge tone="danger">{t('partDiffers')}</Badge>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Step>
        <Step name="body" title="stepBody" verdict={report.body.verdict}>
          {t('bodyBytes', { n: report.body.byteLength })} · {report.body.json ? t('bodyJson') : t('bodyNotJson')}
          {report.body.shape ? (
            <>
              {' '}
              · <code>{report.body.shape}</code>
            </>
          ) : null}
        </Step>
      </ol>
    </div>
  );
}
