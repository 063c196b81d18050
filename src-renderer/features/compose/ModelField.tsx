import { MODEL_IDS, MODELS, type ModelId, type ModelStatus } from '../../../src-shared/catalog.ts';
import type { AutoChoice } from '../../../src-shared/pricing.ts';
import { appText, useText } from '../../i18n/text.ts';
import { Badge, type BadgeTone } from '../../ui/Badge.tsx';
import { Field } from '../../ui/Field.tsx';
import { useComposeStore } from './store.ts';

const STATUS_TONE: Record<ModelStatus, BadgeTone> = { stable: 'ok', testing: 'warn', edit_only: 'info' };

export function ModelStatusBadge({ status }: { status: ModelStatus }) {
  const t = useText(appText);
  return <Badge tone={STATUS_TONE[status]}>{t(`model.status.${status}`)}</Badge>;
}

function AutoExplanation({ auto }: { auto: AutoChoice }) {
  const t = useText(appText);
  if (!auto.ok) return <span className="hint-danger">{t('model.autoNone', { count: auto.count, limit: auto.limit })}</span>;
  const r = auto.reason;
  const why =
    r.kind === 'default'
      ? t('model.autoWhy.default')
      : r.kind === 'text_in_image'
        ? t('model.autoWhy.text', { cue: r.cue.match })
        : t('model.autoWhy.references', { count: r.count, preferred: r.preferred, limit: r.preferredLimit });
  return (
    <span data-testid="auto-choice">
      {t('model.autoPicks')} <strong>{auto.model}</strong> — {why}
    </span>
  );
}

export function ModelField({ auto }: { auto: AutoChoice | null }) {
  const t = useText(appText);
  const model = useComposeStore((s) => s.draft.model);
  const update = useComposeStore((s) => s.update);
  const status = model === 'auto' ? null : MODELS[model].status;
  return (
    <Field
      id="compose-model"
      label={t('compose.model')}
      aside={status ? <ModelStatusBadge status={status} /> : <Badge tone="accent">{t('model.default')}</Badge>}
      hint={auto ? <AutoExplanation auto={auto} /> : model !== 'auto' && MODELS[model].requiresReference ? t('model.editOnlyHint') : null}
    >
      <select id="compose-model" data-testid="model" value={model} onChange={(e) => update({ model: e.target.value as ModelId })}>
        {MODEL_IDS.map((id) => (
          <option key={id} value={id}>
            {id === 'auto' ? t('model.auto') : `${id} · ${t(`model.status.${MODELS[id].status}`)}`}
          </option>
        ))}
      </select>
    </Field>
  );
}
