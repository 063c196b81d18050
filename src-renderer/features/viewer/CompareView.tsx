// Compare 2–4 images side by side: one zoom and pan shared by every pane (a detail at the same place in each),
// the request fields that differ between them, and culling (rate, reject, star) in each pane; compared from a
// Catalog cell or product, each pane also picks (P) for its image's cell.
import { useQueries } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { PURPOSES } from '../../../src-shared/catalog.ts';
import type { ImageDetail } from '../../../src-shared/ipc/library.ts';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { trapTab } from '../../ui/trapTab.ts';
import { useLanguage } from '../../i18n/useLanguage.ts';
import { marksForKey, useMark, type Marks } from '../../lib/library-state/marks.ts';
import { usePickInScope, useScopePicks } from '../../lib/library-state/cell-scope.ts';
import { cellName, nameInScope, useGalleryStore, type ScopeCell, type ViewerScope } from '../../lib/library-state/store.ts';
import { CullBar } from './CullBar.tsx';
import { loupeText, type LoupeKey } from './i18n.ts';
import { isStageKey, panStep, zoomKey } from './keys.ts';
import { KeyHints } from './KeyHints.tsx';
import { MARGIN, type Size } from './panZoom.ts';
import { PickedBadge, PickToggle } from './PickToggle.tsx';
import { imageQuery } from '../../lib/library-queries.ts';
import { differingFields, requestFacts, type RequestFacts, type RequestField } from './requestFacts.ts';
import { PannedImage, ZoomBar, type Rect } from './Stage.tsx';
import { useModalFocus } from './useModalFocus.ts';
import { usePanZoom, type PanZoom } from './usePanZoom.ts';
import './viewer.css';

/** Every pane's content box: the pane's inner area. Each image is fitted (contain) inside it. */
const paneContent = (stage: Size): Size => ({ w: Math.max(1, stage.w - 2 * MARGIN), h: Math.max(1, stage.h - 2 * MARGIN) });

function containRect(box: Size, w: number, h: number): Rect & { k: number } {
  const k = Math.min(box.w / w, box.h / h);
  return { x: (box.w - w * k) / 2, y: (box.h - h * k) / 2, w: w * k, h: h * k, k };
}

/** Columns that show the images largest in a grid of `area` (panes of equal size). */
function bestColumns(n: number, area: Size, ratio: number): number {
  let best = n;
  let bestSide = 0;
  for (let cols = 1; cols <= n; cols++) {
    const rows = Math.ceil(n / cols);
    const w = area.w / cols;
    const h = area.h / rows - 48; // the caption under each image
    const side = Math.min(w / ratio, h);
    if (side > bestSide + 1) {
      best = cols;
      bestSide = side;
    }
  }
  return best;
}

const FIELD_LABEL: Record<RequestField, LoupeKey> = {
  model: 'model',
  ratio: 'ratio',
  resolution: 'resolution',
  quality: 'quality',
  n: 'count',
  purpose: 'purpose',
  prompt: 'prompt',
  references: 'diffReferences',
};

export function CompareView() {
  const compare = useGalleryStore((s) => s.compare);
  const scope = useGalleryStore((s) => s.compareScope);
  if (!compare || compare.length === 0) return null;
  return <Compare ids={compare} scope={scope} />;
}

function Compare({ ids, scope }: { ids: string[]; scope: ViewerScope | null }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const close = useGalleryStore((s) => s.closeCompare);
  const details = useQueries({ queries: ids.map((id) => imageQuery(id)) });
  const all = details.map((d) => d.data);
  const ready = all.every((d): d is ImageDetail => d !== undefined);
  const [active, setActive] = useState(ids[0] ?? '');
  const activeId = ids.includes(active) ? active : (ids[0] ?? '');
  const dialogRef = useModalFocus(true, null);
  const mark = useMark();

  // The grid's size decides the columns; every pane then has the same size, so one transform fits all.
  const gridRef = useRef<HTMLDivElement>(null);
  const [grid, setGrid] = useState<Size | null>(null);
  useLayoutEffect(() => {
    const el = gridRef.current;
    if (!el) return;
    const update = () => setGrid((prev) => (prev && prev.w === el.clientWidth && prev.h === el.clientHeight ? prev : { w: el.clientWidth, h: el.clientHeight }));
    const observer = new ResizeObserver(update);
    observer.observe(el);
    update();
    return () => observer.disconnect();
  }, []);
  const first = all[0]?.image;
  const columns = grid && first ? bestColumns(ids.length, grid, first.width / first.height) : Math.min(ids.length, 2);

  const firstW = first?.width;
  const firstH = first?.height;
  // "100 %" is the first image's pixels 1:1.
  const actualScale = useCallback((box: Size) => (firstW && firstH ? 1 / containRect(box, firstW, firstH).k : 1), [firstW, firstH]);
  const pz = usePanZoom({ content: paneContent, resetKey: ids.join(','), actualScale });

  // Compared from a cell or a product: the note names the image by it ("SKU-001 · main 2/4"), and P picks it.
  const picks = useScopePicks(scope?.cells);
  const pickInScope = usePickInScope();
  const { toggle, afterMark } = pickInScope;
  const pickError = pickInScope.errorIn(scope?.cells?.[ids.indexOf(activeId)]);
  const isPicked = useCallback((id: string) => picks[ids.indexOf(id)] === id, [ids, picks]);
  const onMark = useCallback(
    (id: string, marks: Marks) => {
      const label = scope ? nameInScope(scope, ids, id) : undefined;
      mark.mutate({ imageIds: [id], ...marks, ...(label ? { label } : {}) });
      afterMark(scope?.cells?.[ids.indexOf(id)], marks, isPicked(id));
    },
    [afterMark, ids, isPicked, mark, scope],
  );
  const onPick = useCallback(
    (id: string) => {
      const cell = scope?.cells?.[ids.indexOf(id)];
      if (cell) toggle(cell, id, isPicked(id));
    },
    [ids, isPicked, scope, toggle],
  );
  const panePick = (cell: ScopeCell | undefined, id: string): PanePick | null => (cell ? { picked: isPicked(id), cellName: cellName(cell.sku, cell.shot), toggle: () => onPick(id) } : null);
  const title = scope ? lt('compareInScope', { count: ids.length, scope: scope.label }) : lt('compareTitle', { count: ids.length });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isStageKey(e)) return;
      const step = panStep(pz);
      const image = all[ids.indexOf(activeId)]?.image;
      const cull = image ? marksForKey(e.key, [image]) : null;
      if (cull && image) onMark(image.id, cull);
      else if (scope?.cells && (e.key === 'p' || e.key === 'P')) onPick(activeId);
      else if (e.key === 'Escape') close();
      else if (e.key === 'ArrowLeft') pz.pan(step, 0);
      else if (e.key === 'ArrowRight') pz.pan(-step, 0);
      else if (e.key === 'ArrowUp') pz.pan(0, step);
      else if (e.key === 'ArrowDown') pz.pan(0, -step);
      else if (!zoomKey(e.key, pz)) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [activeId, all, close, ids, onMark, onPick, pz, scope]);

  const facts = ready ? all.map((d) => requestFacts(d.turn)) : null;
  const fields = facts ? differingFields(facts) : null;

  return (
    <div
      className="loupe compare-loupe"
      role="dialog"
      aria-modal="true"
      aria-label={title}
      data-testid="compare-view"
      data-count={ids.length}
      ref={dialogRef}
      tabIndex={-1}
      onKeyDown={trapTab}
    >
      <header className="compare-head">
        <h2 className="compare-title" data-scope={scope?.label ?? ''}>
          {title}
        </h2>
        <span className="muted small compare-hint">{lt('compareHint')}</span>
        <span className="spacer" />
        <ZoomBar pz={pz} />
        {pickError ? (
          <p className="hint-danger small" role="alert">
            {pickError.message}
          </p>
        ) : null}
        <button type="button" className="btn btn-ghost btn-sm" onClick={close} aria-label={t('common.close')} data-testid="compare-close">
          ✕
        </button>
      </header>
      <section className="compare-diff" data-testid="compare-diff" data-fields={fields ? fields.join(',') : ''} data-ready={fields !== null} aria-label={lt('compareDiff')}>
        {facts && fields ? fields.length > 0 ? <DiffTable facts={facts} fields={fields} /> : <p className="muted small">{lt('compareSame')}</p> : <p className="muted small">{t('common.loading')}</p>}
      </section>
      <div className="compare-grid" ref={gridRef} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {ids.map((id, i) => (
          <ComparePane
            key={id}
            index={i}
            id={id}
            detail={all[i]}
            name={scope ? nameInScope(scope, ids, id) : undefined}
            pick={panePick(scope?.cells?.[i], id)}
            pz={pz}
            active={id === activeId}
            onActivate={() => setActive(id)}
            onMark={(marks) => onMark(id, marks)}
          />
        ))}
      </div>
      <KeyHints mode="compare" pick={scope?.cells !== undefined} />
    </div>
  );
}

/** A pane's pick, when its image is a Catalog cell's candidate. */
interface PanePick {
  picked: boolean;
  cellName: string;
  toggle: () => void;
}

function ComparePane(props: { index: number; id: string; detail: ImageDetail | undefined; name: string | undefined; pick: PanePick | null; pz: PanZoom; active: boolean; onActivate: () => void; onMark: (marks: Marks) => void }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const { pz, detail } = props;
  const { bindStage, view, isFit, canPan, content } = pz;
  const image = detail?.image;
  const rect = content && image ? containRect(content, image.width, image.height) : null;
  return (
    <figure
      className={`cmp-pane ${props.active ? 'cmp-pane-active' : ''}`}
      data-testid="compare-pane"
      data-image-id={props.id}
      data-active={props.active}
      onPointerDownCapture={props.onActivate}
      onFocusCapture={props.onActivate}
    >
      <div
        className={`pz-stage ${canPan ? 'pz-can-pan' : ''}`}
        ref={bindStage}
        role="group"
        tabIndex={0}
        aria-label={`${lt('comparePane', { index: props.index + 1 })}: ${lt('stage', { zoom: isFit ? lt('zoomFit') : `${Math.round(view.s * 100)}%` })}`}
        data-testid="compare-stage"
        data-transform={`${view.s.toFixed(4)} ${view.x.toFixed(2)} ${view.y.toFixed(2)}`}
      >
        {rect ? <PannedImage src={imageUrl('full', props.id)} previewSrc={imageUrl('thumb', props.id)} alt={detail?.turn.request.prompt || t('viewer.title')} rect={rect} view={view} testId="compare-image" /> : null}
        <span className="compare-num" aria-hidden="true">
          {props.index + 1}
        </span>
        {props.pick?.picked ? <PickedBadge /> : null}
      </div>
      <figcaption className="compare-caption">
        <span className="compare-caption-text small">
          <span className="sr-only">{lt('comparePane', { index: props.index + 1 })}: </span>
          {props.name ? `${props.name} · ` : ''}
          {detail ? `${detail.turn.estimate.model} · ${detail.image.width}×${detail.image.height}` : '…'}
          {props.active ? <span className="sr-only"> · {lt('compareActive')}</span> : null}
        </span>
        {image ? (
          <span className="compare-actions">
            {props.pick ? <PickToggle picked={props.pick.picked} rejected={image.rejected} cellName={props.pick.cellName} compact onToggle={props.pick.toggle} /> : null}
            <CullBar image={image} onMark={props.onMark} compact />
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}

function DiffTable({ facts, fields }: { facts: RequestFacts[]; fields: RequestField[] }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const language = useLanguage();
  const show = (f: RequestFacts, field: RequestField): string => {
    switch (field) {
      case 'model':
        return f.requestedAuto ? lt('modelAuto', { model: f.model }) : f.model;
      case 'ratio':
        return f.ratio;
      case 'resolution':
        return f.resolution;
      case 'quality':
        return f.quality ? t(`quality.${f.quality as 'low' | 'medium' | 'high'}`) : '—';
      case 'n':
        return String(f.n);
      case 'purpose':
        return PURPOSES[f.purpose]?.label[language] ?? f.purpose;
      case 'prompt':
        return f.prompt || t('viewer.noPrompt');
      case 'references':
        return f.references.length > 0 ? f.references.join(', ') : '—';
    }
  };
  const headers = useMemo(() => facts.map((_, i) => lt('comparePane', { index: i + 1 })), [facts, lt]);
  return (
    <table className="diff-table">
      <thead>
        <tr>
          <th scope="col">
            <span className="sr-only">{lt('compareDiff')}</span>
          </th>
          {headers.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field} data-field={field} data-testid="diff-row">
            <th scope="row">{lt(FIELD_LABEL[field])}</th>
            {facts.map((f, i) => (
              <td key={i} title={show(f, field)}>
                {field === 'prompt' || field === 'references' ? <div className="diff-long">{show(f, field)}</div> : show(f, field)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
