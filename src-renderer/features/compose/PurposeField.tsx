import { PURPOSE_IDS, PURPOSES, type PurposeId } from '../../../src-shared/catalog.ts';
import { appText, useText } from '../../i18n/text.ts';
import { Field } from '../../ui/Field.tsx';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { useComposeStore } from './store.ts';

export function PurposeField() {
  const t = useText(appText);
  const language = useLanguage();
  const purpose = useComposeStore((s) => s.draft.purpose);
  const update = useComposeStore((s) => s.update);
  return (
    <Field id="compose-purpose" label={t('compose.purpose')} hint={PURPOSES[purpose].description[language]}>
      <select id="compose-purpose" data-testid="purpose" value={purpose} onChange={(e) => update({ purpose: e.target.value as PurposeId })}>
        {PURPOSE_IDS.map((id) => (
          <option key={id} value={id}>
            {PURPOSES[id].label[language]}
          </option>
        ))}
      </select>
    </Field>
  );
}
