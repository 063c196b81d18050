// An error as the designer sees it: the human message, then what to do about it (spec §7's client action),
// never a bare code. The code is shown small, for support, next to the request id.
import type { ReactNode } from 'react';
import { errorSpec } from '../../src-shared/errors.ts';
import { formatDuration } from '../i18n/format.ts';
import { appText, useText } from '../i18n/text.ts';
import { CopyButton } from './CopyButton.tsx';
import { useNow } from './useNow.ts';

export interface ShownError {
  code: string;
  message: string;
  requestId?: string | null | undefined;
}

export function ErrorBanner(props: { error: ShownError; retryAt?: number | null; actions?: ReactNode; title?: string }) {
  const t = useText(appText);
  const spec = errorSpec(props.error.code);
  const now = useNow(props.retryAt != null, 500);
  const remaining = props.retryAt != null ? props.retryAt - now : 0;
  return (
    <div className="error-banner" role="alert" data-testid="error-banner" data-code={props.error.code}>
      <div className="error-title">{props.title ?? t('errors.title')}</div>
      <p className="error-message">{props.error.message}</p>
      {spec ? (
        <p className="error-action">
          <strong>{t('errors.whatToDo')}</strong> {t(`errors.action.${spec.action}`)}
        </p>
      ) : null}
      {props.retryAt != null ? (
        <p className="error-countdown" aria-live="polite">
          {remaining > 0 ? t('errors.waitCountdown', { time: formatDuration(remaining) }) : t('errors.waitOver')}
        </p>
      ) : null}
      <div className="error-foot">
        {props.actions ? <div className="error-actions">{props.actions}</div> : null}
        <span className="error-code">
          {t('errors.code')} <code>{props.error.code}</code>
        </span>
        {props.error.requestId ? (
          <span className="request-id-wrap">
            {t('turn.requestId')} <code data-testid="request-id">{props.error.requestId}</code>
            <CopyButton text={props.error.requestId} />
          </span>
        ) : null}
      </div>
    </div>
  );
}
