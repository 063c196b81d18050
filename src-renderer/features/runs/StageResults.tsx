// A turn's results, large and with their aspect kept: one image fills the stage's width (up to its height),
// two sit side by side, four make a 2×2 grid. Each sits on a matte with a hairline, or on a checkerboard (the
// stage's choice), so a white background shows where it ends. Actions appear on hover and on keyboard focus.
// The thumbnail (long side 512) is used while it is sharp enough; past that the full PNG.
import { createContext, useContext, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { ImageRecord, TurnRecord } from '../../../src-shared/ipc/generation.ts';
import { appText, useText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { useComposeStore } from '../compose/index.ts';
import { useExportStore } from '../export/index.ts';
import { beginImageDrag } from '../../lib/image-drag.ts';
import { useStar } from '../../lib/library-queries.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';

/** Long side of the cached thumbnail (src-main/files/image-cache.ts). */
export const THUMB_LONG_SIDE = 512;
const GAP = 8;
/** The matte around each image (padding of .turn-image). */
const MATTE = 10;
/** Room the card keeps above and below its results (head, prompt, foot) so one turn fits the stage's height. */
const CARD_CHROME = 150;
const MIN_HEIGHT = 160;

/** The stage's inner height, for the "up to its height" rule (RunStage provides it). */
export const StageHeight = createContext<number>(0);

export interface ResultLayout {
  columns: number;
  /** Size of each image box in CSS pixels. */
  width: number;
  height: number;
}

/** Where a turn's images go: pure, so the rule is one place (n=1 full width, n=2 side by side, n≥3 two columns). */
export function resultLayout(count: number, aspect: number, availableWidth: number, stageHeight: number): ResultLayout {
  const columns = count <= 1 ? 1 : 2;
  const rows = Math.ceil(Math.max(1, count) / columns);
  const cellWidth = (availableWidth - GAP * (columns - 1)) / columns - 2 * MATTE;
  const maxHeight = Math.max(MIN_HEIGHT, stageHeight - CARD_CHROME);
  const cellHeight = (maxHeight - GAP * (rows - 1)) / rows - 2 * MATTE;
  const width = Math.max(40, Math.min(cellWidth, cellHeight * aspect));
  return { columns, width: Math.floor(width), height: Math.floor(width / aspect) };
}

function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** A paid image not shown yet: failed for good, being tried again after a failure (main keeps trying), or on its way. */
function pendingLabel(image: ImageRecord): 'turn.downloadFailed' | 'turn.downloadRetrying' | 'turn.downloading' {
  if (image.download === 'failed') return 'turn.downloadFailed';
  return image.downloadError ? 'turn.downloadRetrying' : 'turn.downloading';
}

function StageImage({ image, index, ids, turn, layout }: { image: ImageRecord; index: number; ids: string[]; turn: TurnRecord; layout: ResultLayout }) {
  const t = useText(appText);
  const openViewer = useGalleryStore((s) => s.openViewer);
  const addReferences = useComposeStore((s) => s.addReferences);
  const star = useStar();
  const openExport = useExportStore((s) => s.open);
  const dpr = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  // Device pixels on screen against the thumbnail's: past it the thumbnail would be upscaled and soft.
  const kind = Math.max(layout.width, layout.height) * dpr > THUMB_LONG_SIDE ? 'full' : 'thumb';
  // The width is set; the height follows from the file's own aspect (width/height attributes, height: auto), so
  // a column that is narrower for a frame (while the window resizes) shrinks the image instead of overflowing.
  const size = { width: layout.width };
  const starred = star.isPending && star.variables?.imageId === image.id ? star.variables.starred : image.starred;
  return (
    <li className="turn-image" data-testid="turn-image" data-image-id={image.id}>
      <button
        type="button"
        className="thumb-button"
        draggable
        onDragStart={(e) => beginImageDrag(e.dataTransfer, [image.id])}
        onClick={() => openViewer(ids, index)}
        aria-label={t('gallery.openImage', { id: image.id })}
      >
        {image.download === 'done' ? (
          <img
            src={imageUrl(kind, image.id)}
            alt={t('stage.imageAlt', { index: index + 1, count: ids.length, prompt: turn.request.prompt ?? '' })}
            data-testid="stage-image"
            data-kind={kind}
            width={image.width}
            height={image.height}
            style={size}
            draggable={false}
          />
        ) : (
          <span
            className="stage-pending"
            style={{ ...size, aspectRatio: `${image.width} / ${image.height}` }}
            data-testid="stage-image-pending"
            title={image.downloadError}
          >
            {t(pendingLabel(image))}
          </span>
        )}
      </button>
      <div className="stage-actions">
        <button type="button" className="stage-action" onClick={() => openViewer(ids, index)} data-testid="stage-open">
          {t('stage.open')}
        </button>
        <button
          type="button"
          className="stage-action"
          aria-pressed={starred}
          data-testid="stage-star"
          onClick={() => star.mutate({ imageId: image.id, starred: !starred })}
        >
          {starred ? `★ ${t('stage.unstar')}` : `☆ ${t('stage.star')}`}
        </button>
        <button type="button" className="stage-action turn-image-ref" data-testid="stage-use-reference" onClick={() => addReferences([image.id])}>
          {t('stage.useAsReference')}
        </button>
        {image.download === 'done' ? (
          <button type="button" className="stage-action" data-testid="stage-export" onClick={() => openExport({ kind: 'selection', imageIds: [image.id] })}>
            {t('stage.export')}
          </button>
        ) : null}
      </div>
    </li>
  );
}

export function StageResults({ turn }: { turn: TurnRecord }) {
  const ref = useRef<HTMLUListElement>(null);
  const width = useWidth(ref);
  const stageHeight = useContext(StageHeight);
  const first = turn.images[0];
  const aspect = first && first.height > 0 ? first.width / first.height : 1;
  const layout = resultLayout(turn.images.length, aspect, width, stageHeight);
  const ids = turn.images.map((i) => i.id);
  return (
    <ul
      ref={ref}
      className="turn-images"
      data-testid="stage-results"
      data-count={turn.images.length}
      data-columns={layout.columns}
      style={{ gridTemplateColumns: `repeat(${layout.columns}, minmax(0, ${layout.width + 2 * MATTE}px))` }}
    >
      {width > 0 ? turn.images.map((image, index) => <StageImage key={image.id} image={image} index={index} ids={ids} turn={turn} layout={layout} />) : null}
    </ul>
  );
}
