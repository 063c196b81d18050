// The shot list: a select of every list (built-in presets by their given names, and the designer's own), and
// an editor of its shots as a table (name, purpose, model, ratio, resolution, quality, n; the prompt addition on a
// line of its own under them).
// Save sends the list to main, which checks every shot against the catalog (`shot_not_supported` names the
// shot and why); a built-in preset can be put back; any list can be saved as a new one.
import { useId, useState, type ReactNode } from 'react';
import { IMAGE_COUNTS, MODEL_IDS, MODELS, PURPOSE_IDS, PURPOSES, QUALITIES, RATIOS, RESOLUTIONS, type ModelId, type PurposeId, type Quality, type Ratio, type Resolution } from '../../../src-shared/catalog.ts';
import type { Shot, ShotList } from '../../../src-shared/ipc/batch.ts';
import { SHOT_ADDITION_MAX, SHOT_NAME_MAX, SHOTS_MAX } from '../../../src-shared/limits.ts';
import { useText } from '../../i18n/text.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { Badge } from '../../ui/Badge.tsx';
import { BatchCard, TableHead } from './parts.tsx';
import { batchText } from './i18n.ts';
import { ConfirmBox } from '../../ui/ConfirmBox.tsx';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { submitWith } from '../../ui/submitWith.ts';
import type { useSaveShotList } from './queries.ts';
import { useDeleteShotList, useResetShotList, useSaveDraft } from './queries.ts';
import { leaveDraft, useBatchStore } from './store.ts';

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

/** One select cell of a shot row: a first option when given (the model's default), then every choice. */
function ChoiceCell<T extends string | number>(props: {
  label: string;
  testId: string;
  value: T | '';
  choices: readonly T[];
  onChange: (value: string) => void;
  nameOf?: (choice: T) => string;
  first?: string;
  invalid?: boolean;
  disabled?: boolean;
}) {
  return (
    <td>
      <select aria-label={props.label} data-testid={props.testId} value={props.value} disabled={props.disabled} aria-invalid={props.invalid} onChange={(e) => props.onChange(e.target.value)}>
        {props.first !== undefined ? <option value="">{props.first}</option> : null}
        {props.choices.map((c) => (
          <option key={c} value={c}>
            {props.nameOf ? props.nameOf(c) : c}
          </option>
        ))}
      </select>
    </td>
  );
}

// Only GPT models take a quality; on auto or another model main refuses it (it would be ignored).
const takesQuality = (model: ModelId) => model !== 'auto' && MODELS[model].supportsQuality;

// The prompt addition has a line of its own under each shot (AdditionRow), not a column.
const SHOT_COLUMNS = ['shotName', 'purpose', 'model', 'ratio', 'resolution', 'quality', 'n'] as const;

/**
 * A shot's prompt addition on a line of its own under the shot's settings, across the table: it wraps and grows
 * with its text, so a long addition is read whole and the table needs no sideways scroll for it; the shot's remove
 * button ends it (the settings' line keeps its width for the settings).
 */
function AdditionRow({ label, heading, value, onChange, children }: { label: string; heading: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <tr className="batch-addition-row">
      <td colSpan={SHOT_COLUMNS.length}>
        <div className="batch-addition">
          <label className="small muted" htmlFor={id}>
            {heading}
          </label>
          <textarea id={id} rows={1} aria-label={label} data-testid="shot-addition" maxLength={SHOT_ADDITION_MAX} value={value} onChange={(e) => onChange(e.target.value)} />
          {children}
        </div>
      </td>
    </tr>
  );
}

function ShotRow({ shot, index, onChange, onRemove, canRemove }: { shot: Shot; index: number; onChange: (s: Shot) => void; onRemove: () => void; canRemove: boolean }) {
  const t = useText(batchText);
  const language = useLanguage();
  const label = (field: string) => t('shotField', { field, index: index + 1 });
  const set = (patch: Partial<Shot>) => onChange({ ...shot, ...patch });
  const gpt = takesQuality(shot.model);
  const setModel = (model: ModelId) => set(takesQuality(model) ? { model } : { model, quality: undefined });
  return (
    <>
      <tr data-testid="shot-row" data-shot={shot.name}>
        <td>
          <input className="batch-shot-name mono" aria-label={label(t('shotName'))} data-testid="shot-name" maxLength={SHOT_NAME_MAX} value={shot.name} onChange={(e) => set({ name: e.target.value })} />
        </td>
        <ChoiceCell label={label(t('purpose'))} testId="shot-purpose" value={shot.purpose} choices={PURPOSE_IDS} nameOf={(p) => PURPOSES[p].label[language]} onChange={(v) => set({ purpose: v as PurposeId })} />
        <ChoiceCell label={label(t('model'))} testId="shot-model" value={shot.model} choices={MODEL_IDS} nameOf={(m) => (m === 'auto' ? t('auto') : m)} onChange={(v) => setModel(v as ModelId)} />
        <ChoiceCell label={label(t('ratio'))} testId="shot-ratio" value={shot.ratio} choices={RATIOS} invalid={!offers(shot.model, { ratio: shot.ratio })} onChange={(v) => set({ ratio: v as Ratio })} />
        <ChoiceCell
          label={label(t('resolution'))}
          testId="shot-resolution"
          value={shot.resolution ?? ''}
          choices={RESOLUTIONS}
          first={shot.model === 'auto' ? t('modelDefault') : `${t('modelDefault')} (${MODELS[shot.model].defaultResolution})`}
          invalid={!offers(shot.model, { resolution: shot.resolution })}
          onChange={(v) => set({ resolution: v === '' ? undefined : (v as Resolution) })}
        />
        <ChoiceCell
          label={label(t('quality'))}
          testId="shot-quality"
          value={shot.quality ?? ''}
          choices={QUALITIES}
          nameOf={(q) => t(`qualityLevel.${q}`)}
          first={gpt ? t('modelDefault') : t('qualityNone')}
          disabled={!gpt && shot.quality === undefined}
          invalid={!gpt && shot.quality !== undefined}
          onChange={(v) => set({ quality: v === '' ? undefined : (v as Quality) })}
        />
        <ChoiceCell label={label(t('n'))} testId="shot-n" value={shot.n} choices={IMAGE_COUNTS} onChange={(v) => set({ n: Number(v) as Shot['n'] })} />
      </tr>
      <AdditionRow label={label(t('promptAddition'))} heading={t('promptAddition')} value={shot.promptAddition} onChange={(promptAddition) => set({ promptAddition })}>
        <button type="button" className="btn btn-ghost btn-xs" data-testid="shot-remove" disabled={!canRemove} aria-label={shot.name.trim() ? t('removeShot', { name: shot.name }) : t('removeShotUnnamed', { index: index + 1 })} onClick={onRemove}>
          ✕
        </button>
      </AdditionRow>
    </>
  );
}

type Confirm = 'reset' | 'delete' | 'saveAs' | null;

/** The table of shots being edited: a row of settings per shot, its prompt addition on a row under it. */
function ShotTable({ listName, shots, setShots }: { listName: string; shots: Shot[]; setShots: (shots: Shot[]) => void }) {
  const t = useText(batchText);
  return (
    <div className="batch-table-scroll batch-shots-scroll">
      <table className="table batch-table batch-shot-table" aria-label={t('shotsTable', { name: listName })}>
        <TableHead names={SHOT_COLUMNS.map((key) => t(key))} />
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
  );
}

/** "Save as new list…": the new list's name; created, it becomes the chosen list. */
function SaveAsForm({ shots, busy, save, onDone }: { shots: Shot[]; busy: boolean; save: ReturnType<typeof useSaveShotList>; onDone: () => void }) {
  const t = useText(batchText);
  const id = useId();
  const setShotListId = useBatchStore((s) => s.setShotListId);
  const setDraft = useBatchStore((s) => s.setDraft);
  const [newName, setNewName] = useState('');
  const submit = submitWith(() =>
    save.mutate(
      { name: newName, shots },
      {
        onSuccess: (created) => {
          onDone();
          // The edits went into the new list, which is now the chosen one: the old list is left as it was saved.
          setDraft(null);
          setShotListId(created.id);
        },
      },
    ),
  );
  return (
    <form className="cancel-confirm" onSubmit={submit}>
      <label className="field-label" htmlFor={`${id}-new`}>
        {t('newListName')}
      </label>
      <div className="row-gap">
        <input id={`${id}-new`} data-testid="shot-list-new-name" className="grow" required maxLength={80} placeholder={t('newListPlaceholder')} value={newName} onChange={(e) => setNewName(e.target.value)} />
        <button type="submit" className="btn btn-sm btn-primary" data-testid="shot-list-create" disabled={busy || newName.trim() === ''}>
          {t('create')}
        </button>
        <button type="button" className="btn btn-sm" onClick={onDone}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/** The list's three calls (save, reset to built-in, delete): one busy flag, one error, cleared together. */
function useShotListCalls() {
  const { save, saveDraft } = useSaveDraft();
  const reset = useResetShotList();
  const remove = useDeleteShotList();
  const clearErrors = () => {
    save.reset();
    reset.reset();
    remove.reset();
  };
  return { save, saveDraft, reset, remove, busy: save.isPending || reset.isPending || remove.isPending, error: save.error ?? reset.error ?? remove.error, clearErrors };
}

/** Add a shot, whether the edits are saved, and the list's actions (each asking first where it loses work). */
function ShotListActions(props: { list: ShotList; dirty: boolean; saved: boolean; canAdd: boolean; busy: boolean; onAdd: () => void; onAsk: (confirm: Confirm) => void; onSave: () => void }) {
  const t = useText(batchText);
  const { list, busy } = props;
  return (
    <div className="row-gap wrap">
      <button type="button" className="btn btn-sm" data-testid="shot-add" disabled={!props.canAdd} onClick={props.onAdd}>
        {t('addShot')}
      </button>
      <span className="spacer" />
      {props.dirty ? (
        <span className="small hint-warn" data-testid="shot-list-unsaved">
          {t('unsaved')}
        </span>
      ) : props.saved ? (
        <span className="small hint-ok" role="status">
          {t('saved')}
        </span>
      ) : null}
      {list.preset !== null && list.edited ? (
        <button type="button" className="btn btn-sm btn-ghost" data-testid="shot-list-reset" disabled={busy} onClick={() => props.onAsk('reset')}>
          {t('resetPreset')}
        </button>
      ) : null}
      {list.preset === null ? (
        <button type="button" className="btn btn-sm btn-ghost" data-testid="shot-list-delete" disabled={busy} onClick={() => props.onAsk('delete')}>
          {t('deleteList')}
        </button>
      ) : null}
      <button type="button" className="btn btn-sm" data-testid="shot-list-save-as" disabled={busy} onClick={() => props.onAsk('saveAs')}>
        {t('saveAsNew')}
      </button>
      <button type="button" className="btn btn-sm btn-primary" data-testid="shot-list-save" disabled={busy || !props.dirty} onClick={props.onSave}>
        {t('saveList')}
      </button>
    </div>
  );
}

/** A built-in list a batch ran in the other language keeps that batch's shot names: says why they are not in the UI's. */
function KeptWords({ list }: { list: ShotList }) {
  const t = useText(batchText);
  const language = useLanguage();
  const kept = list.keptLanguage ?? null;
  if (kept === null || kept === language) return null;
  return (
    <p className="small muted" data-testid="shot-list-kept-words" data-language={kept}>
      {t(kept === 'zh' ? 'keptWordsZh' : 'keptWordsEn')}
    </p>
  );
}

/** What the in-place question says before a list is put back to its built-in shots or deleted. */
const ASKS = {
  reset: { label: 'resetPreset', question: 'resetConfirm', answer: 'reset' },
  delete: { label: 'deleteList', question: 'deleteListConfirm', answer: 'delete' },
} as const;

/**
 * The list as edited: its unsaved edits live in the catalog store (the plan prices them, a tab switch keeps them,
 * leaving asks); edits that come back to the saved list are no draft.
 */
function useListEdits(list: ShotList) {
  const draft = useBatchStore((s) => (s.draft?.listId === list.id ? s.draft : null));
  const setDraft = useBatchStore((s) => s.setDraft);
  const name = draft?.name ?? list.name;
  const shots = draft?.shots ?? list.shots;
  const edit = (next: { name?: string; shots?: Shot[] }) => {
    const edited = { listId: list.id, name: next.name ?? name, shots: next.shots ?? shots };
    setDraft(edited.name === list.name && sameShots(edited.shots, list.shots) ? null : edited);
  };
  return { draft, name, shots, setName: (n: string) => edit({ name: n }), setShots: (s: Shot[]) => edit({ shots: s }), clear: () => setDraft(null) };
}

function ShotListEditor({ list }: { list: ShotList }) {
  const t = useText(batchText);
  const id = useId();
  const setShotListId = useBatchStore((s) => s.setShotListId);
  const calls = useShotListCalls();
  const { draft, name, shots, setName, setShots, clear } = useListEdits(list);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const dirty = draft !== null;
  const ask = (next: Confirm) => {
    calls.clearErrors();
    setConfirm(next);
  };
  const save = () => {
    calls.clearErrors();
    if (draft) void calls.saveDraft(draft);
  };
  // Put back or deleted, the list has no edits left and the question is answered.
  const answered = (then?: () => void) => ({
    onSuccess: () => {
      clear();
      setConfirm(null);
      then?.();
    },
  });
  const resetList = () => calls.reset.mutate({ id: list.id }, answered());
  const deleteList = () => calls.remove.mutate({ id: list.id }, answered(() => setShotListId(null)));

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
      <KeptWords list={list} />
      <ShotTable listName={list.name} shots={shots} setShots={setShots} />
      <ShotListActions
        list={list}
        dirty={dirty}
        saved={calls.save.isSuccess}
        canAdd={shots.length < SHOTS_MAX}
        busy={calls.busy}
        onAdd={() => setShots([...shots, newShot(shots.length + 1)])}
        onAsk={ask}
        onSave={save}
      />
      {confirm === 'reset' || confirm === 'delete' ? (
        <ConfirmBox
          label={t(ASKS[confirm].label)}
          question={t(ASKS[confirm].question, { name: list.name })}
          confirmLabel={t(ASKS[confirm].answer)}
          keepLabel={t('keep')}
          confirmTestId={`shot-list-${confirm}-confirm`}
          busy={calls.busy}
          onConfirm={confirm === 'reset' ? resetList : deleteList}
          onKeep={() => setConfirm(null)}
        />
      ) : null}
      {confirm === 'saveAs' ? <SaveAsForm shots={shots} busy={calls.busy} save={calls.save} onDone={() => setConfirm(null)} /> : null}
      <ErrorLine error={calls.error} testId="shot-list-error" showCode />
    </div>
  );
}

export function ShotListSection({ lists, list, error }: { lists: ShotList[]; list: ShotList | null; error: unknown }) {
  const t = useText(batchText);
  const id = useId();
  const setShotListId = useBatchStore((s) => s.setShotListId);
  // Another list with this one's edits unsaved: asked first (save, discard, or stay on this one).
  const choose = (listId: string) => {
    const go = () => setShotListId(listId);
    if (leaveDraft(go)) go();
  };
  return (
    <BatchCard
      title={t('shotList')}
      testId="batch-shot-list"
      head={
        <>
          <label className="sr-only" htmlFor={`${id}-select`}>
            {t('shotListSelect')}
          </label>
          <select id={`${id}-select`} className="batch-list-select" data-testid="shot-list-select" value={list?.id ?? ''} disabled={lists.length === 0} onChange={(e) => choose(e.target.value)}>
            {lists.length === 0 ? <option value="">{t('noShotLists')}</option> : null}
            {lists.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
          {list ? <span className="small muted">{t('shotCount', { count: list.shots.length })}</span> : null}
        </>
      }
    >
      <ErrorLine error={error} testId="batch-error" showCode />
      {list ? <ShotListEditor key={`${list.id}:${list.updatedAt}`} list={list} /> : null}
    </BatchCard>
  );
}
