// The shot list: a select of every list (built-in presets by their given names, and the designer's own), and
// an editor of its shots as a table (name, purpose, model, ratio, resolution, quality, n, prompt addition).
// Save sends the list to main, which checks every shot against the catalog (`shot_not_supported` names the
// shot and why); a built-in preset can be put back; any list can be saved as a new one.
import { useId, useState } from 'react';
import { IMAGE_COUNTS, MODEL_IDS, MODELS, PURPOSE_IDS, PURPOSES, QUALITIES, RATIOS, RESOLUTIONS, type ModelId, type PurposeId, type Quality, type Ratio, type Resolution } from '../../../src-shared/catalog.ts';
import type { Shot, ShotList } from '../../../src-shared/ipc/batch.ts';
import { SHOT_ADDITION_MAX, SHOT_NAME_MAX, SHOTS_MAX } from '../../../src-shared/limits.ts';
import { useText } from '../../i18n/text.ts';
import { useLanguage } from '../../ui/useLanguage.ts';
import { Badge } from '../../ui/Badge.tsx';
import { batchText } from './i18n.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { useDeleteShotList, useResetShotList, useSaveShotList } from './queries.ts';
import { useBatchStore } from './store.ts';

function sameShots(a: Shot[], b: Shot[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function newShot(index: number): Shot {
  return { name: `shot-${index}`, purpose: 'free', model: 'auto', ratio: '1:1', n: 1, promptAddition: '' };
}

/** Whether a concrete model offers this ratio or resolution (auto takes whatever its choice offers). */
function offers(model: ModelId, what: { ratio?: Ratio; resolution?: Resolution | undefined }): boolean {
  if (model === 'auto') return true;
  if (what.ratio && !MODELS[model].ratios.includes(what.ratio)) return false;
  if (what.resolution && !MODELS[model].resolutions.includes(what.resolution)) return false;
  return true;
}

function ShotRow({ shot, index, onChange, onRemove, canRemove }: { shot: Shot; index: number; onChange: (s: Shot) => void; onRemove: () => void; canRemove: boolean }) {
  const t = useText(batchText);
  const language = useLanguage();
  const label = (field: string) => t('shotField', { field, index: index + 1 });
  const set = (patch: Partial<Shot>) => onChange({ ...shot, ...patch });
  // Only GPT models take a quality; on auto or another model main refuses it (it would be ignored).
  const takesQuality = (model: ModelId) => model !== 'auto' && MODELS[model].supportsQuality;
  const gpt = takesQuality(shot.model);
  return (
    <tr data-testid="shot-row" data-shot={shot.name}>
      <td>
        <input className="batch-shot-name mono" aria-label={label(t('shotName'))} data-testid="shot-name" maxLength={SHOT_NAME_MAX} value={shot.name} onChange={(e) => set({ name: e.target.value })} />
      </td>
      <td>
        <select aria-label={label(t('purpose'))} data-testid="shot-purpose" value={shot.purpose} onChange={(e) => set({ purpose: e.target.value as PurposeId })}>
          {PURPOSE_IDS.map((p) => (
            <option key={p} value={p}>
              {PURPOSES[p].label[language]}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={label(t('model'))} data-testid="shot-model" value={shot.model} onChange={(e) => {
            const model = e.target.value as ModelId;
            set(takesQuality(model) ? { model } : { model, quality: undefined });
          }}>
          {MODEL_IDS.map((m) => (
            <option key={m} value={m}>
              {m === 'auto' ? t('auto') : m}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={label(t('ratio'))} data-testid="shot-ratio" value={shot.ratio} aria-invalid={!offers(shot.model, { ratio: shot.ratio })} onChange={(e) => set({ ratio: e.target.value as Ratio })}>
          {RATIOS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select
          aria-label={label(t('resolution'))}
          data-testid="shot-resolution"
          value={shot.resolution ?? ''}
          aria-invalid={!offers(shot.model, { resolution: shot.resolution })}
          onChange={(e) => set({ resolution: e.target.value === '' ? undefined : (e.target.value as Resolution) })}
        >
          <option value="">{shot.model === 'auto' ? t('modelDefault') : `${t('modelDefault')} (${MODELS[shot.model].defaultResolution})`}</option>
          {RESOLUTIONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={label(t('quality'))} data-testid="shot-quality" value={shot.quality ?? ''} disabled={!gpt && shot.quality === undefined} aria-invalid={!gpt && shot.quality !== undefined} onChange={(e) => set({ quality: e.target.value === '' ? undefined : (e.target.value as Quality) })}>
          <option value="">{gpt ? t('modelDefault') : t('qualityNone')}</option>
          {QUALITIES.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
      </td>
      <td>
        <select aria-label={label(t('n'))} data-testid="shot-n" value={shot.n} onChange={(e) => set({ n: Number(e.target.value) as Shot['n'] })}>
          {IMAGE_COUNTS.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </td>
      <td className="batch-addition-cell">
        <input aria-label={label(t('promptAddition'))} data-testid="shot-addition" maxLength={SHOT_ADDITION_MAX} value={shot.promptAddition} title={shot.promptAddition} onChange={(e) => set({ promptAddition: e.target.value })} />
      </td>
      <td>
        <button type="button" className="btn btn-ghost btn-xs" data-testid="shot-remove" disabled={!canRemove} aria-label={shot.name.trim() ? t('removeShot', { name: shot.name }) : t('removeShotUnnamed', { index: index + 1 })} onClick={onRemove}>
          ✕
        </button>
      </td>
    </tr>
  );
}

type Confirm = 'reset' | 'delete' | 'saveAs' | null;

function ShotListEditor({ list }: { list: ShotList }) {
  const t = useText(batchText);
  const id = useId();
  const setShotListId = useBatchStore((s) => s.setShotListId);
  const save = useSaveShotList();
  const reset = useResetShotList();
  const remove = useDeleteShotList();
  const [name, setName] = useState(list.name);
  const [shots, setShots] = useState<Shot[]>(list.shots);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [newName, setNewName] = useState('');
  const dirty = name !== list.name || !sameShots(shots, list.shots);
  const busy = save.isPending || reset.isPending || remove.isPending;
  const error = save.error ?? reset.error ?? remove.error;
  const clearErrors = () => {
    save.reset();
    reset.reset();
    remove.reset();
  };

  return (
    <div className="stack batch-shots">
      <div className="row-gap wrap">
        <label className="field-label" htmlFor={`${id}-name`}>
          {t('name')}
        </label>
        <input id={`${id}-name`} data-testid="shot-list-name" className="batch-list-name" maxLength={80} value={name} onChange={(e) => setName(e.target.value)} />
        {list.preset !== null ? <Badge tone="info">{t('presetTag')}</Badge> : null}
        {list.edited ? <Badge tone="warn">{t('editedTag')}</Badge> : null}
      </div>
      <div className="batch-table-scroll batch-shots-scroll">
        <table className="table batch-table batch-shot-table" aria-label={t('shotsTable', { name: list.name })}>
          <thead>
            <tr>
              <th>{t('shotName')}</th>
              <th>{t('purpose')}</th>
              <th>{t('model')}</th>
              <th>{t('ratio')}</th>
              <th>{t('resolution')}</th>
              <th>{t('quality')}</th>
              <th>{t('n')}</th>
              <th>{t('promptAddition')}</th>
              <th>
                <span className="sr-only">{t('colActions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shots.map((shot, i) => (
              <ShotRow
                key={i}
                shot={shot}
                index={i}
                canRemove={shots.length > 1}
                onChange={(s) => setShots(shots.map((x, j) => (j === i ? s : x)))}
                onRemove={() => setShots(shots.filter((_, j) => j !== i))}
              />
            ))}
          </tbody>
        </table>
      </div>
      <div className="row-gap wrap">
        <button type="button" className="btn btn-sm" data-testid="shot-add" disabled={shots.length >= SHOTS_MAX} onClick={() => setShots([...shots, newShot(shots.length + 1)])}>
          {t('addShot')}
        </button>
        <span className="spacer" />
        {dirty ? (
          <span className="small hint-warn" data-testid="shot-list-unsaved">
            {t('unsaved')}
          </span>
        ) : save.isSuccess ? (
          <span className="small hint-ok" role="status">
            {t('saved')}
          </span>
        ) : null}
        {list.preset !== null && list.edited ? (
          <button type="button" className="btn btn-sm btn-ghost" data-testid="shot-list-reset" disabled={busy} onClick={() => (clearErrors(), setConfirm('reset'))}>
            {t('resetPreset')}
          </button>
        ) : null}
        {list.preset === null ? (
          <button type="button" className="btn btn-sm btn-ghost" data-testid="shot-list-delete" disabled={busy} onClick={() => (clearErrors(), setConfirm('delete'))}>
            {t('deleteList')}
          </button>
        ) : null}
        <button type="button" className="btn btn-sm" data-testid="shot-list-save-as" disabled={busy} onClick={() => (clearErrors(), setConfirm('saveAs'))}>
          {t('saveAsNew')}
        </button>
        <button
          type="button"
          className="btn btn-sm btn-primary"
          data-testid="shot-list-save"
          disabled={busy || !dirty}
          onClick={() => {
            clearErrors();
            save.mutate({ id: list.id, name, shots });
          }}
        >
          {t('saveList')}
        </button>
      </div>
      {confirm === 'reset' ? (
        <div className="cancel-confirm" role="group" aria-label={t('resetPreset')}>
          <p>{t('resetConfirm', { name: list.name })}</p>
          <div className="row-gap">
            <button type="button" className="btn btn-sm btn-danger" data-testid="shot-list-reset-confirm" disabled={busy} onClick={() => reset.mutate({ id: list.id }, { onSuccess: () => setConfirm(null) })}>
              {t('reset')}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setConfirm(null)}>
              {t('keep')}
            </button>
          </div>
        </div>
      ) : null}
      {confirm === 'delete' ? (
        <div className="cancel-confirm" role="group" aria-label={t('deleteList')}>
          <p>{t('deleteListConfirm', { name: list.name })}</p>
          <div className="row-gap">
            <button
              type="button"
              className="btn btn-sm btn-danger"
              data-testid="shot-list-delete-confirm"
              disabled={busy}
              onClick={() =>
                remove.mutate(
                  { id: list.id },
                  {
                    onSuccess: () => {
                      setConfirm(null);
                      setShotListId(null);
                    },
                  },
                )
              }
            >
              {t('delete')}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setConfirm(null)}>
              {t('keep')}
            </button>
          </div>
        </div>
      ) : null}
      {confirm === 'saveAs' ? (
        <form
          className="cancel-confirm"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(
              { name: newName, shots },
              {
                onSuccess: (created) => {
                  setConfirm(null);
                  setNewName('');
                  setShotListId(created.id);
                },
              },
            );
          }}
        >
          <label className="field-label" htmlFor={`${id}-new`}>
            {t('newListName')}
          </label>
          <div className="row-gap">
            <input id={`${id}-new`} data-testid="shot-list-new-name" className="grow" required maxLength={80} placeholder={t('newListPlaceholder')} value={newName} onChange={(e) => setNewName(e.target.value)} />
            <button type="submit" className="btn btn-sm btn-primary" data-testid="shot-list-create" disabled={busy || newName.trim() === ''}>
              {t('create')}
            </button>
            <button type="button" className="btn btn-sm" onClick={() => setConfirm(null)}>
              {t('cancel')}
            </button>
          </div>
        </form>
      ) : null}
      <ErrorLine error={error} testId="shot-list-error" showCode />
    </div>
  );
}

export function ShotListSection({ lists, list, error }: { lists: ShotList[]; list: ShotList | null; error: unknown }) {
  const t = useText(batchText);
  const id = useId();
  const setShotListId = useBatchStore((s) => s.setShotListId);
  return (
    <section className="card batch-card" aria-labelledby={`${id}-title`} data-testid="batch-shot-list">
      <div className="batch-card-head">
        <h2 className="card-title" id={`${id}-title`}>
          {t('shotList')}
        </h2>
        <label className="sr-only" htmlFor={`${id}-select`}>
          {t('shotListSelect')}
        </label>
        <select id={`${id}-select`} className="batch-list-select" data-testid="shot-list-select" value={list?.id ?? ''} disabled={lists.length === 0} onChange={(e) => setShotListId(e.target.value)}>
          {lists.length === 0 ? <option value="">{t('noShotLists')}</option> : null}
          {lists.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
        {list ? <span className="small muted">{t('shotCount', { count: list.shots.length })}</span> : null}
      </div>
      <ErrorLine error={error} testId="batch-error" showCode />
      {list ? <ShotListEditor key={`${list.id}:${list.updatedAt}`} list={list} /> : null}
    </section>
  );
}
