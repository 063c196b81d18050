import { memo, type DragEvent, type MouseEvent } from 'react';
import type { TFunction } from 'i18next';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { imageUrl } from '../../lib/desktop.ts';
import type { LibraryT } from '../library/i18n.ts';
import { beginImageDrag } from './drag-out.ts';

export interface ThumbProps {
  image: ImageRecord;
  left: number;
  width: number;
  height: number;
  selected: boolean;
  /** The grid's focused image, while the grid has keyboard focus (drawn with the focus ring). */
  focused: boolean;
  onSelect: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  onOpen: (id: string) => void;
  onReject: (id: string) => void;
  dragIds: (id: string) => string[];
  /** Passed down by the grid, so thousands of tiles do not each subscribe to language changes. */
  t: TFunction;
  lt: LibraryT;
}

/** The element id a tile carries, for the grid's aria-activedescendant. */
export function tileId(imageId: string): string {
  return `tile-${imageId}`;
}

/**
 * One tile of the grid (a gridcell; the grid holds the single Tab stop): the thumbnail at its own aspect ratio
 * (never the full image), its rating, star and reject marks. Click selects, Ctrl/Cmd or Shift extend,
 * double-click opens; keys are handled by the grid.
 */
export const GalleryThumb = memo(function GalleryThumb({ image, left, width, height, selected, focused, onSelect, onOpen, onReject, dragIds, t, lt }: ThumbProps) {
  const onClick = (e: MouseEvent) => onSelect(image.id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'single');
  const onDragStart = (e: DragEvent) => beginImageDrag(e.dataTransfer, dragIds(image.id));
  const states = [
    image.rating > 0 ? lt('rated', { n: image.rating }) : null,
    image.starred ? lt('starred') : null,
    image.rejected ? lt('rejected') : null,
    image.missing ? t('tray.missing') : null,
  ].filter(Boolean);
  const label = t('gallery.imageLabel', { prompt: image.prompt.slice(0, 80) || image.id, model: image.model }) + (states.length > 0 ? ` · ${states.join(' · ')}` : '');
  return (
    <div
      role="gridcell"
      id={tileId(image.id)}
      className={`thumb ${selected ? 'thumb-selected' : ''} ${focused ? 'thumb-focused' : ''} ${image.missing ? 'thumb-missing' : ''} ${image.rejected ? 'thumb-rejected' : ''}`}
      style={{ left, width, height }}
      data-testid="gallery-image"
      data-image-id={image.id}
      data-rating={image.rating}
      data-rejected={image.rejected ? 'true' : 'false'}
      data-starred={image.starred ? 'true' : 'false'}
      aria-selected={selected}
      aria-label={label}
      title={`${image.prompt.slice(0, 300)}\n${lt('tileKeys')}`}
      draggable
      onDragStart={onDragStart}
      onClick={onClick}
      onDoubleClick={() => onOpen(image.id)}
    >
      {image.download === 'done' ? (
        <img src={imageUrl('thumb', image.id)} alt="" decoding="async" draggable={false} />
      ) : (
        <span className="thumb-pending">{image.download === 'failed' ? t('turn.downloadFailed') : t('turn.downloading')}</span>
      )}
      {image.starred ? (
        <span className="thumb-star" aria-hidden="true">
          ★
        </span>
      ) : null}
      {image.rating > 0 ? (
        <span className="thumb-rating" data-testid="rating" aria-hidden="true">
          {'★'.repeat(image.rating)}
        </span>
      ) : null}
      <button
        type="button"
        className={`thumb-reject ${image.rejected ? 'thumb-reject-on' : ''}`}
        data-testid="reject"
        tabIndex={-1}
        aria-pressed={image.rejected}
        aria-label={image.rejected ? lt('unreject') : lt('reject')}
        title={image.rejected ? lt('unreject') : lt('reject')}
        // The grid keeps the focus (its keys go on working); the button only takes the click.
        onMouseDown={(e) => e.preventDefault()}
        onDoubleClick={(e) => e.stopPropagation()}
        onClick={(e) => {
          e.stopPropagation();
          onReject(image.id);
        }}
      >
        ✕
      </button>
      {image.missing ? <span className="thumb-flag">{t('tray.missing')}</span> : null}
    </div>
  );
});
