// The live estimate: exactly what the service will reserve (src-shared estimateCredits), with its breakdown.
import { errorMessage, isErrorCode } from '../../../src-shared/errors.ts';
import { appText, useText } from '../../i18n/text.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import type { DraftCheck } from './draft.ts';

export function EstimateBox({ check }: { check: DraftCheck }) {
  const t = useText(appText);
  const language = useLanguage();
  if (!check.ok) {
    const code = check.error.code;
    // An empty draft is where every session starts, not a mistake: a calm hint instead of an error.
    const starting = code === 'prompt_or_reference_required';
    return (
      <div className="estimate estimate-invalid">
        <div className="estimate-total" data-testid="estimate" aria-live="polite">
          {t('estimate.unavailable')}
        </div>
        <p className={starting ? 'estimate-start muted small' : 'estimate-problem'} data-testid="validation-hint" data-code={code}>
          {starting ? t('estimate.startHint') : isErrorCode(code) ? errorMessage(code, check.error.params, language) : code}
        </p>
      </div>
    );
  }
  const e = check.estimate;
  return (
    <div className="estimate">
      <div className="estimate-total" data-testid="estimate" aria-live="polite">
        {t('estimate.total', { count: e.total })}
      </div>
      <ul className="estimate-breakdown" data-testid="estimate-breakdown">
        <li>
          {t('estimate.perImageLine', { n: e.n, price: e.pricePerImage })}
          <span className="muted">
            {' · '}
            {e.model} · {e.resolution}
            {e.quality ? ` · ${t(`quality.${e.quality}`)}` : ''}
          </span>
        </li>
        {e.referenceSurcharge > 0 ? (
          <li>{t('estimate.surchargeLine', { base: e.basePrice, refs: e.referenceCount, surcharge: e.referenceSurcharge })}</li>
        ) : null}
        <li className="muted">{t('estimate.billingNote')}</li>
      </ul>
    </div>
  );
}
