// Paste to verify (spec §6): a raw request, or headers and body, plus a secret; the same verdict steps.
import { useState } from 'react';
import type { VerificationExplained } from '../../../src-shared/ipc/inspector.ts';
import { useText } from '../../i18n/text.ts';
import { inspectorText } from './i18n.ts';
import { useInspectorAction } from './queries.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import { SecretChoiceFields, secretChoiceInput, type SecretChoiceState } from './SecretChoice.tsx';
import { VerificationSteps } from './VerificationSteps.tsx';

export function PasteVerifyForm() {
  const t = useText(inspectorText);
  const verify = useInspectorAction('inspectorVerifyPasted');
  const [mode, setMode] = useState<'raw' | 'separate'>('raw');
  const [raw, setRaw] = useState('');
  const [headers, setHeaders] = useState('');
  const [body, setBody] = useState('');
  const [secret, setSecret] = useState<SecretChoiceState>({ useStored: true, secret: '' });
  const [result, setResult] = useState<VerificationExplained | null>(null);
  const ready = mode === 'raw' ? raw.length > 0 : headers.length > 0;
  return (
    <section className="card" data-testid="inspector-paste">
      <h3 className="card-title">{t('pasteTitle')}</h3>
      <p className="muted small">{t('pasteHint')}</p>
      <div className="segmented" role="radiogroup">
        {(['raw', 'separate'] as const).map((m) => (
          <label key={m} className={`segment ${mode === m ? 'segment-on' : ''}`}>
            <input type="radio" name="paste-mode" checked={mode === m} onChange={() => setMode(m)} />
            {m === 'raw' ? t('pasteRaw') : t('pasteSeparate')}
          </label>
        ))}
      </div>
      <form
        className="stack"
        onSubmit={submitWith(() => {
          const input = mode === 'raw' ? { raw } : { headers, body };
          verify.mutate({ ...input, ...secretChoiceInput(secret) }, { onSuccess: setResult });
        })}
      >
        {mode === 'raw' ? (
          <textarea
            aria-label={t('pasteRaw')}
            data-testid="paste-raw"
            className="inspector-textarea"
            rows={10}
            spellCheck={false}
            value={raw}
            placeholder={'POST /webhooks HTTP/1.1\nX-Service-Event: ping\n…\n\n{"event":"ping"}'}
            onChange={(e) => setRaw(e.target.value)}
          />
        ) : (
          <>
            <textarea aria-label={t('pasteHeaders')} data-testid="paste-headers" className="inspector-textarea" rows={6} spellCheck={false} value={headers} onChange={(e) => setHeaders(e.target.value)} />
            <textarea aria-label={t('pasteBody')} data-testid="paste-body" className="inspector-textarea" rows={4} spellCheck={false} value={body} onChange={(e) => setBody(e.target.value)} />
          </>
        )}
        <SecretChoiceFields idPrefix="paste" value={secret} onChange={setSecret} />
        <button type="submit" className="btn btn-primary" disabled={!ready || verify.isPending} data-testid="paste-verify">
          {t('verify')}
        </button>
      </form>
      <ErrorLine error={verify.error} testId="inspector-error" />
      {result ? (
        <div data-testid="paste-result">
          <VerificationSteps report={result.report} diagnosis={result.diagnosis} />
        </div>
      ) : null}
    </section>
  );
}
