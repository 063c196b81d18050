// The export dialog (docs/main-process.md "Export"): file-name template with a live preview of the first name,
// format and quality, the CSV toggle; main asks for the folder, reports progress, and the result says what was
// written where and what was skipped and why. A modal dialog: focus moves in, Tab stays in, Esc closes.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { parseTemplate, renderTemplate, templateImage, templateValues, TEMPLATE_FIELDS, type TemplateParse } from '../../../src-shared/export-template.ts';
import type { ExportProgress, ExportSummary } from '../../../src-shared/ipc/export.ts';
import { EXPORT_FORMATS, type ExportFormat } from '../../../src-shared/limits.ts';
import { appText, useText, type AppText } from '../../i18n/text.ts';
import { call, onEvent, type DesktopError } from '../../lib/desktop.ts';
import type { MethodInputOf } from '../../lib/ipc-types.ts';
import { useImage, useSession, useSessionTurns } from '../../lib/library-queries.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ExportOutcome } from '../../ui/ExportOutcome.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { Field } from '../../ui/Field.tsx';
import { ErrorBanner } from '../../ui/ErrorBanner.tsx';
import { exportSource, useExportStore, type ExportTarget } from './store.ts';
import './export.css';

const EXTENSIONS: Record<ExportFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/** The first image of the set with what its name is made of, and the size of the set (for {index}). */
function useFirstImage(target: ExportTarget) {
  const sessionId = target.kind === 'session' ? target.sessionId : null;
  const turns = useSessionTurns(sessionId);
  const sessionImages = turns.data?.flatMap((t) => t.images) ?? [];
  const boardId = target.kind === 'board' ? target.boardId : null;
  // A board's images in the board's (the gallery's) order: the first one and how many.
  const board = useQuery({
    queryKey: queryKeys.boardFirstImage(boardId ?? ''),
    queryFn: () => call('libraryImageIds', { filters: { boardId: boardId ?? '' }, limit: 1 }),
    enabled: boardId !== null,
  });
  const firstId =
    target.kind === 'selection' ? (target.imageIds[0] ?? null) : target.kind === 'session' ? (sessionImages[0]?.id ?? null) : (board.data?.ids[0] ?? null);
  const detail = useImage(firstId);
  const session = useSession(detail.data?.image.sessionId ?? null);
  const total = target.kind === 'selection' ? target.imageIds.length : target.kind === 'session' ? sessionImages.length : (board.data?.total ?? 0);
  return { detail: detail.data ?? null, sessionTitle: session.data?.title ?? null, total };
}

function templateProblemText(parsed: TemplateParse, t: AppText): string | null {
  if (parsed.ok) return null;
  const p = parsed.problem;
  if (p.code === 'export_template_unknown_field') return t('export.templateUnknown', { field: `{${p.field}}`, allowed: p.allowed.map((f) => `{${f}}`).join(' ') });
  if (p.code === 'export_template_syntax') return t('export.templateSyntax', { at: p.at + 1 });
  return t('export.templateEmpty');
}

const OUTCOME_WORDS = { cancelled: 'export.cancelled', written: 'export.result', files: 'export.showFiles', missing: 'export.skipped' } as const;

function Result({ summary }: { summary: ExportSummary }) {
  const t = useText(appText);
  const skipped = summary.skipped.map((s) => ({ key: s.imageId, reason: s.reason, content: <><code>{s.imageId}</code> — {t(`export.skipReason.${s.reason}`)}</> }));
  const csv = summary.csvFile ? <>{t('export.csvWritten')} <code>{summary.csvFile}</code></> : null;
  return <ExportOutcome idPrefix="export" missingName="skipped" summary={summary} say={(what, values) => t(OUTCOME_WORDS[what], values)} note={csv} missing={skipped} />;
}

/** The file-name template: the text, a chip per field that inserts it at the caret, and the first name it makes. */
function TemplateField(props: { target: ExportTarget; parsed: TemplateParse; running: boolean; onEnter: () => void }) {
  const t = useText(appText);
  const id = useId();
  const choices = useExportStore((s) => s.choices);
  const setChoices = useExportStore((s) => s.setChoices);
  const templateRef = useRef<HTMLInputElement>(null);
  const problem = templateProblemText(props.parsed, t);
  const preview = usePreview(props.target, props.parsed, choices.format);

  const insertField = (field: string) => {
    const input = templateRef.current;
    const text = `{${field}}`;
    const at = input?.selectionStart ?? choices.template.length;
    const end = input?.selectionEnd ?? at;
    setChoices({ template: choices.template.slice(0, at) + text + choices.template.slice(end) });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(at + text.length, at + text.length);
    });
  };

  return (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-template`}>
        {t('export.template')}
      </label>
      <input
        id={`${id}-template`}
        ref={templateRef}
        data-testid="export-template"
        className="export-template-input mono"
        value={choices.template}
        maxLength={200}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problem !== null}
        aria-describedby={`${id}-template-hint`}
        disabled={props.running}
        onChange={(e) => setChoices({ template: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            props.onEnter();
          }
        }}
      />
      <div className="export-fields" role="group" aria-label={t('export.fields')}>
        {TEMPLATE_FIELDS.map((f) => (
          <button key={f} type="button" className="btn btn-xs btn-ghost export-chip" disabled={props.running} onClick={() => insertField(f)} aria-label={t('export.insertField', { field: `{${f}}` })}>
            {`{${f}}`}
          </button>
        ))}
      </div>
      <div id={`${id}-template-hint`} className="field-hint" aria-live="polite">
        {problem ? (
          <span className="hint-danger" data-testid="export-template-problem">
            {problem}
          </span>
        ) : (
          <>
            {t('export.preview')}{' '}
            <code className="export-preview" data-testid="export-preview">
              {preview ?? '…'}
            </code>
          </>
        )}
      </div>
    </div>
  );
}

/** The first file's name as the template makes it, once the first image and its session are known. */
function usePreview(target: ExportTarget, parsed: TemplateParse, format: ExportFormat): string | null {
  const first = useFirstImage(target);
  if (!parsed.ok || !first.detail || first.sessionTitle === null) return null;
  const values = templateValues(templateImage(first.detail.image, first.detail.turn, first.sessionTitle), 1, first.total);
  return `${renderTemplate(parsed.parts, values)}.${EXTENSIONS[format]}`;
}

/** Format, quality (lossy formats only), what the format keeps of the generation data, and the CSV toggle. */
function FormatFields({ running }: { running: boolean }) {
  const t = useText(appText);
  const id = useId();
  const choices = useExportStore((s) => s.choices);
  const setChoices = useExportStore((s) => s.setChoices);
  const lossy = choices.format !== 'png';
  return (
    <>
      <div className="export-row">
        <Field id={`${id}-format`} label={t('export.format')}>
          <select id={`${id}-format`} data-testid="export-format" value={choices.format} disabled={running} onChange={(e) => setChoices({ format: e.target.value as ExportFormat })}>
            {EXPORT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {t(`export.formats.${f}`)}
              </option>
            ))}
          </select>
        </Field>
        {lossy ? (
          <Field id={`${id}-quality`} label={t('export.quality')} aside={<span className="counter">{choices.quality}</span>}>
            <input
              id={`${id}-quality`}
              type="range"
              min={1}
              max={100}
              step={1}
              data-testid="export-quality"
              value={choices.quality}
              disabled={running}
              onChange={(e) => setChoices({ quality: Number(e.target.value) })}
            />
          </Field>
        ) : null}
      </div>
      <p className="muted small">{lossy ? t('export.dataNote.other') : t('export.dataNote.png')}</p>
      <Toggle label={t('export.csv')} testId="export-csv" checked={choices.csv} disabled={running} onChange={(checked) => setChoices({ csv: checked })} />
    </>
  );
}

/** While the run goes: how many files of how many, and the one being written (or that main waits for a folder). */
function ProgressLine({ progress }: { progress: ExportProgress | null }) {
  const t = useText(appText);
  return (
    <div className="export-progress" role="status" aria-live="polite">
      <progress data-testid="export-progress" max={progress?.total ?? 1} value={progress ? progress.done : undefined} aria-label={t('export.running')} />
      <span className="small muted">
        {progress ? t('export.progress', { done: progress.done, total: progress.total }) : t('export.waitingForFolder')}
        {progress?.currentFile ? (
          <>
            {' · '}
            <code>{progress.currentFile}</code>
          </>
        ) : null}
      </span>
    </div>
  );
}

/** This dialog's export run and its progress (one export at a time from here; main names each run by its exportId). */
function useExportRun(target: ExportTarget, parsed: TemplateParse) {
  const choices = useExportStore((s) => s.choices);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const run = useMutation({ mutationFn: (input: MethodInputOf<'exportRun'>) => call('exportRun', input) });
  useEffect(() => onEvent('export:progress', (p) => setProgress(p)), []);
  const start = () => {
    if (!parsed.ok || run.isPending) return;
    setProgress(null);
    const lossy = choices.format !== 'png';
    run.mutate({ source: exportSource(target), template: choices.template, format: choices.format, ...(lossy ? { quality: choices.quality } : {}), csv: choices.csv });
  };
  return { run, start, progress: run.isPending ? progress : null };
}

function whatOf(target: ExportTarget, t: AppText): string {
  if (target.kind === 'selection') return t('export.whatSelection', { count: target.imageIds.length });
  if (target.kind === 'session') return t('export.whatSession', { name: target.title });
  return t('export.whatBoard', { name: target.name });
}

function ExportDialogBody({ target }: { target: ExportTarget }) {
  const t = useText(appText);
  const close = useExportStore((s) => s.close);
  const template = useExportStore((s) => s.choices.template);
  const parsed = useMemo(() => parseTemplate(template), [template]);
  const { run, start, progress } = useExportRun(target, parsed);
  const running = run.isPending;
  const error = run.error as DesktopError | null;
  const footer = (
    <>
      <button type="button" className="btn btn-ghost" onClick={close} disabled={running}>
        {run.data?.folder ? t('common.close') : t('common.cancel')}
      </button>
      <button type="button" className="btn btn-primary" data-testid="export-run" disabled={!parsed.ok || running} onClick={start}>
        {running ? t('export.running') : t('export.run')}
      </button>
    </>
  );
  return (
    <Dialog title={t('export.title')} description={whatOf(target, t)} testId="export-dialog" closeLabel={t('common.close')} closeTestId="export-close" busy={running} onClose={close} footer={footer}>
      <TemplateField target={target} parsed={parsed} running={running} onEnter={start} />
      <FormatFields running={running} />
      {running ? <ProgressLine progress={progress} /> : null}
      {error && !running ? <ErrorBanner error={error.ipc ?? { code: 'unknown', message: String(error) }} /> : null}
      {run.data && !running ? <Result summary={run.data} /> : null}
    </Dialog>
  );
}

export function ExportDialog() {
  const target = useExportStore((s) => s.target);
  const openedAt = useExportStore((s) => s.openedAt);
  if (!target) return null;
  return <ExportDialogBody key={openedAt} target={target} />;
}
