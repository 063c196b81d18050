// Export a batch for a marketplace: a preset (size, fit, format, limits), the file-name template and whether
// images that fail the white-background check are written anyway; main asks for the folder and makes one folder
// per product. The result says what was written where, what was not and why (a white share as %), the manifest
// and the bytes. A modal dialog like the export dialog: focus moves in, Tab stays in, Esc closes. The preset starts
// on the marketplace the batch's shot list is made for; in picks mode the shots still lacking a pick are listed
// before the export, so the designer can go back and pick them.
import { useId, useState } from 'react';
import { DEFAULT_RATIO } from '../../../src-shared/catalog.ts';
import type { BatchJob, BatchSummary, ExportSelection, MarketplaceExportSummary } from '../../../src-shared/ipc/batch.ts';
import { EXPORT_SELECTIONS } from '../../../src-shared/limits.ts';
import { marketplacePreset, sizeForShot } from '../../../src-shared/marketplace-presets.ts';
import { marketplaceOfShotList } from '../../../src-shared/shot-lists.ts';
import { exportText } from './export-i18n.ts';
import { boardText } from './board-i18n.ts';
import { formatBytes } from '../../i18n/format.ts';
import { useText } from '../../i18n/text.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { ExportOutcome } from '../../ui/ExportOutcome.tsx';
import { Field } from '../../ui/Field.tsx';
import { batchText } from './i18n.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { useBatchDetail, useBatchExport, useMarketplacePresets, useMissingPicks } from './queries.ts';
import './export-dialog.css';

const DEFAULT_TEMPLATE = '{sku}_{shot}_{index}';

function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

const OUTCOME_WORDS = { cancelled: 'exportChooserCancelled', written: 'exportResult', files: 'exportFiles', missing: 'exportFlagged' } as const;

function whiteShareOf(check: { whiteShare: number } | null | undefined): string | null {
  return check ? percent(check.whiteShare) : null;
}

/** A marketplace file's size and, when checked, how white its border is. */
function FileDetail({ file }: { file: MarketplaceExportSummary['written'][number] }) {
  const share = whiteShareOf(file.whiteCheck);
  return (
    <>
      {' '}
      · {file.width}×{file.height} · {formatBytes(file.bytes)}
      {share ? ` · ${share}` : ''}
    </>
  );
}

/** `picks` mode: each product × shot with nothing to write, and why (never skipped silently). */
function MissingPicks({ missing }: { missing: MarketplaceExportSummary['missingPicks'] }) {
  const t = useText(boardText);
  if (missing.length === 0) return null;
  return (
    <div className="batch-problems batch-plan-problems" data-testid="batch-export-missing-picks" data-count={missing.length}>
      <span>{t('missingPicks', { count: missing.length })}</span>
      <ul>
        {missing.map((m) => (
          <li key={`${m.sku}\u0000${m.shotName}`} data-sku={m.sku} data-shot={m.shotName} data-reason={m.reason}>
            <span className="mono">{m.sku}</span> · {m.productName} · {m.shotName} — {t(`missingReason.${m.reason}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** How many product × shots without a pick the dialog names before "Show all". */
const MISSING_SHOWN = 5;

/** `picks` mode before the export: the product × shots without a pick (batch:missing-picks), first few, then all. */
function MissingBeforeExport({ batchId }: { batchId: string }) {
  const t = useText(exportText);
  const reasons = useText(boardText);
  const id = useId();
  const missing = useMissingPicks(batchId, true);
  const [all, setAll] = useState(false);
  if (missing.error) return <ErrorLine error={missing.error} testId="batch-export-missing-error" showCode />;
  const list = missing.data?.missingPicks;
  if (!list) return null;
  if (list.length === 0) {
    return (
      <p className="small hint-ok" data-testid="batch-export-missing-before" data-count={0}>
        {t('everyShotPicked')}
      </p>
    );
  }
  const shown = all ? list : list.slice(0, MISSING_SHOWN);
  return (
    <div className="export-missing-before" data-testid="batch-export-missing-before" data-count={list.length}>
      <p>
        <strong>{t('missingBefore', { count: list.length })}</strong> {t('missingBeforeHint')}
      </p>
      <ul id={`${id}-missing`} className={all ? 'export-missing-all' : undefined}>
        {shown.map((m) => (
          <li key={`${m.sku}\u0000${m.shotName}`} data-sku={m.sku} data-shot={m.shotName} data-reason={m.reason}>
            <span className="mono">{m.sku}</span> · {m.shotName} — {reasons(`missingReason.${m.reason}`)}
          </li>
        ))}
      </ul>
      {list.length > MISSING_SHOWN ? (
        <button type="button" className="btn btn-ghost btn-sm" data-testid="batch-export-missing-all" aria-expanded={all} aria-controls={`${id}-missing`} onClick={() => setAll(!all)}>
          {all ? t('missingFewer') : t('missingAll', { count: list.length })}
        </button>
      ) : null}
    </div>
  );
}

/** The batch's shots in plan order, each with the ratio its jobs asked for (the service's default when none). */
function batchShots(jobs: readonly BatchJob[]): Array<{ name: string; ratio: string }> {
  const shots = new Map<string, string>();
  for (const job of [...jobs].sort((a, b) => a.shotIndex - b.shotIndex)) if (!shots.has(job.shotName)) shots.set(job.shotName, job.request.ratio ?? DEFAULT_RATIO);
  return [...shots].map(([name, ratio]) => ({ name, ratio }));
}

/** Every shot of the batch with the size the chosen preset writes it at (sizeForShot); a padded one says so. */
function ShotSizes({ batchId, presetId }: { batchId: string; presetId: string }) {
  const t = useText(exportText);
  const detail = useBatchDetail(batchId);
  const preset = marketplacePreset(presetId);
  const shots = batchShots(detail.data?.jobs ?? []);
  if (!preset || shots.length === 0) return null;
  return (
    <div className="field" data-testid="batch-export-shot-sizes" data-preset-id={preset.id}>
      <span className="field-label">{t('shotSizes')}</span>
      <ul className="field-hint export-shot-sizes" aria-label={t('shotSizesHint')}>
        {shots.map((shot) => {
          const size = sizeForShot(preset, shot.ratio);
          return (
            <li key={shot.name} data-shot={shot.name} data-width={size.width} data-height={size.height} data-fit={size.fit}>
              <span className="mono">{shot.name}</span> · {shot.ratio} → {size.width}×{size.height}
              {size.fit === 'pad' ? <span className="hint-warn"> · {t('padded')}</span> : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Which images go out: the picks (the default), the starred, or everything not rejected. */
function ModeField({ mode, setMode, disabled }: { mode: ExportSelection; setMode: (mode: ExportSelection) => void; disabled: boolean }) {
  const t = useText(boardText);
  const id = useId();
  return (
    <Field id={`${id}-mode`} label={t('exportMode')} hint={t('exportModeHint')}>
      <select id={`${id}-mode`} data-testid="export-picks-mode" value={mode} disabled={disabled} aria-describedby={`${id}-mode-hint`} onChange={(e) => setMode(e.target.value as ExportSelection)}>
        {EXPORT_SELECTIONS.map((m) => (
          <option key={m} value={m}>
            {t(`exportModes.${m}`)}
          </option>
        ))}
      </select>
    </Field>
  );
}

function Result({ summary }: { summary: MarketplaceExportSummary }) {
  const t = useText(batchText);
  const flagged = summary.flagged.map((f) => ({
    key: f.imageId,
    reason: f.reason,
    content: <><span className="mono">{f.sku}</span> · {f.shotName} · <code>{f.imageId}</code> — {t(`flag.${f.reason}`, { share: whiteShareOf(f.whiteCheck) ?? '?' })}</>,
  }));
  const manifest = summary.manifestFile ? <>{t('exportManifest')} <code data-testid="batch-export-manifest">{summary.manifestFile}</code></> : null;
  return (
    <ExportOutcome
      idPrefix="batch-export"
      missingName="flagged"
      summary={summary}
      say={(what, values) => t(OUTCOME_WORDS[what], values)}
      note={manifest}
      fileDetail={(file) => <FileDetail file={file} />}
      missing={flagged}
      focusableLists
    />
  );
}

function DialogBody({ batch, close }: { batch: BatchSummary; close: () => void }) {
  const t = useText(batchText);
  const id = useId();
  const presets = useMarketplacePresets(true);
  const run = useBatchExport();
  // The marketplace the batch's shot list is made for (Taobao/Tmall for the Chinese set), else the first preset.
  const [presetId, setPresetId] = useState(() => marketplaceOfShotList(batch.shotListId) ?? '');
  const [template, setTemplate] = useState(DEFAULT_TEMPLATE);
  const [includeFailed, setIncludeFailed] = useState(false);
  const [mode, setMode] = useState<ExportSelection>('picks');
  const running = run.isPending;
  const list = presets.data ?? [];
  const chosen = list.find((p) => p.id === presetId) ?? list[0] ?? null;

  const start = () => {
    if (!chosen || running) return;
    run.mutate({ batchId: batch.id, presetId: chosen.id, template, includeFailedChecks: includeFailed, mode });
  };

  const footer = (
    <>
      <button type="button" className="btn btn-ghost" onClick={close} disabled={running}>
        {run.data?.folder ? t('close') : t('cancel')}
      </button>
      <button type="button" className="btn btn-primary" data-testid="batch-export-run" disabled={!chosen || running || template.trim() === ''} onClick={start}>
        {running ? t('exportRunning') : t('exportRun')}
      </button>
    </>
  );
  return (
    <Dialog title={t('exportTitle')} description={t('exportWhat', { name: batch.name })} testId="batch-export-dialog" closeLabel={t('close')} busy={running} onClose={close} footer={footer}>
      <Field id={`${id}-preset`} label={t('preset')} hint={chosen?.summary}>
        <select id={`${id}-preset`} data-testid="batch-export-preset" value={chosen?.id ?? ''} disabled={running || list.length === 0} aria-describedby={`${id}-preset-hint`} onChange={(e) => setPresetId(e.target.value)}>
          {list.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </Field>
      {chosen ? <ShotSizes batchId={batch.id} presetId={chosen.id} /> : null}
      <ErrorLine error={presets.error} testId="batch-error" showCode />
      <ModeField mode={mode} setMode={setMode} disabled={running} />
      {mode === 'picks' && !run.data && !running ? <MissingBeforeExport batchId={batch.id} /> : null}
      <Field id={`${id}-template`} label={t('template')} hint={<span className="mono">{t('templateHint')}</span>}>
        <input
          id={`${id}-template`}
          data-testid="batch-export-template"
          className="mono"
          value={template}
          maxLength={200}
          spellCheck={false}
          autoComplete="off"
          aria-describedby={`${id}-template-hint`}
          disabled={running}
          onChange={(e) => setTemplate(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              start();
            }
          }}
        />
      </Field>
      <Toggle label={t('includeFailed')} testId="batch-export-include-failed" checked={includeFailed} disabled={running} onChange={setIncludeFailed} />
      {running ? (
        <p className="small muted" role="status">
          {t('exportRunning')}
        </p>
      ) : null}
      {!running ? <ErrorLine error={run.error} testId="batch-export-error" showCode /> : null}
      {run.data && !running ? <Result summary={run.data} /> : null}
      {run.data && !running ? <MissingPicks missing={run.data.missingPicks} /> : null}
    </Dialog>
  );
}

export function BatchExportDialog({ batch, open, close }: { batch: BatchSummary | null; open: boolean; close: () => void }) {
  if (!open || !batch) return null;
  return <DialogBody batch={batch} close={close} />;
}
