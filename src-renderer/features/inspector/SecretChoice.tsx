// "Use the stored secret" or type one. A typed secret goes to main for this one call and is never echoed.
import { useText } from '../../i18n/text.ts';
import { Toggle } from '../../ui/Toggle.tsx';
import { inspectorText } from './i18n.ts';

export interface SecretChoiceState {
  useStored: boolean;
  secret: string;
}

export function secretChoiceInput(s: SecretChoiceState): { useStoredSecret: true } | { secret: string } {
  return s.useStored ? { useStoredSecret: true } : { secret: s.secret };
}

export function SecretChoiceFields(props: { idPrefix: string; value: SecretChoiceState; onChange: (v: SecretChoiceState) => void }) {
  const t = useText(inspectorText);
  const { value, onChange } = props;
  return (
    <div className="row-gap wrap">
      <Toggle label={<> {t('useStored')}</>} testId={`${props.idPrefix}-use-stored`} checked={value.useStored} onChange={(useStored) => onChange({ ...value, useStored })} />
      {!value.useStored ? (
        <>
          <label className="field-label" htmlFor={`${props.idPrefix}-secret`}>
            {t('secretInput')}
          </label>
          <input
            id={`${props.idPrefix}-secret`}
            data-testid={`${props.idPrefix}-secret`}
            className="grow"
            type="password"
            autoComplete="off"
            value={value.secret}
            onChange={(e) => onChange({ ...value, secret: e.target.value })}
          />
        </>
      ) : null}
    </div>
  );
}
