// Ratio, resolution, quality and n. A value the model does not offer stays visible but disabled, with the
// reason next to it (spec §4.1 rule 2: the service refuses it rather than replacing it).
import {
  IMAGE_COUNTS,
  MODELS,
  QUALITIES,
  RATIOS,
  RESOLUTIONS,
  type ConcreteModelId,
  type ImageCount,
  type Quality,
  type Ratio,
  type Resolution,
} from '../../../src-shared/catalog.ts';
import { appText, useText } from '../../i18n/text.ts';
import { Field } from '../../ui/Field.tsx';
import { useComposeStore } from './store.ts';

function notOffered<T extends string>(all: readonly T[], allowed: readonly T[] | null): T[] {
  return allowed ? all.filter((v) => !allowed.includes(v)) : [];
}

export function OptionFields({ model }: { model: ConcreteModelId | null }) {
  const t = useText(appText);
  const draft = useComposeStore((s) => s.draft);
  const update = useComposeStore((s) => s.update);
  const spec = model ? MODELS[model] : null;
  const badRatios = notOffered(RATIOS, spec?.ratios ?? null);
  const badResolutions = notOffered(RESOLUTIONS, spec?.resolutions ?? null);
  const reason = (values: string[]) => (values.length > 0 && model ? t('compose.notOffered', { values: values.join(', '), model }) : null);

  return (
    <div className="option-grid">
      <Field id="compose-ratio" label={t('compose.ratio')} hint={reason(badRatios)}>
        <select id="compose-ratio" data-testid="ratio" value={draft.ratio} onChange={(e) => update({ ratio: e.target.value as Ratio })}>
          {RATIOS.map((r) => (
            <option key={r} value={r} disabled={badRatios.includes(r)} title={badRatios.includes(r) ? (reason([r]) ?? undefined) : undefined}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      <Field id="compose-resolution" label={t('compose.resolution')} hint={reason(badResolutions)}>
        <select
          id="compose-resolution"
          data-testid="resolution"
          value={draft.resolution}
          onChange={(e) => update({ resolution: e.target.value as Resolution | '' })}
        >
          <option value="">{spec ? t('compose.defaultValue', { value: spec.defaultResolution }) : t('compose.modelDefault')}</option>
          {RESOLUTIONS.map((r) => (
            <option key={r} value={r} disabled={badResolutions.includes(r)} title={badResolutions.includes(r) ? (reason([r]) ?? undefined) : undefined}>
              {r}
            </option>
          ))}
        </select>
      </Field>
      {spec?.supportsQuality ? (
        <Field id="compose-quality" label={t('compose.quality')}>
          <select id="compose-quality" data-testid="quality" value={draft.quality} onChange={(e) => update({ quality: e.target.value as Quality | '' })}>
            <option value="">{t('compose.defaultValue', { value: t('quality.medium') })}</option>
            {QUALITIES.map((q) => (
              <option key={q} value={q}>
                {t(`quality.${q}`)}
              </option>
            ))}
          </select>
        </Field>
      ) : (
        <div className="field field-muted">
          <span className="field-label">{t('compose.quality')}</span>
          <span className="field-hint">{t('compose.qualityNotApplicable')}</span>
        </div>
      )}
      <Field id="compose-n" label={t('compose.n')}>
        <select id="compose-n" data-testid="n" value={draft.n} onChange={(e) => update({ n: Number(e.target.value) as ImageCount })}>
          {IMAGE_COUNTS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
