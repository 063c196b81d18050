import { memo, type DragEvent, type MouseEvent } from 'react';
import type { TFunction } from 'i18next';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { imageUrl } from '../../lib/desktop.ts';
import { beginImageDrag } from './drag-out.ts';

export interface ThumbProps {
  image: ImageRecord;
  size: number;
  selected: boolean;
  onSelect: (id: string, mode: 'single' | 'toggle' | 'range') => void;
  onOpen: (id: string) => void;
  dragIds: (id: string) => string[];
  /** Passed down by the group, so 10,000 thumbnails do not each subscribe to language changes. */
  t: TFunction;
}

/** One thumbnail (never the full image): click selects, Ctrl/Cmd or Shift extend, double-click/Enter opens. */
export const GalleryThumb = memo(function GalleryThumb({ image, size, selected, onSelect, onOpen, dragIds, t }: ThumbProps) {
  const onClick = (e: MouseEvent) => onSelect(image.id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'single');
  const onDragStart = (e: DragEvent) => beginImageDrag(e.dataTransfer, dragIds(image.id));
  return (
    <button
      type="button"
      className={`thumb ${selected ? 'thumb-selected' : ''} ${image.missing ? 'thumb-missing' : ''}`}
      style={{ width: size, height: size }}
      data-testid="gallery-image"
      data-image-id={image.id}
      aria-pressed={selected}
      aria-label={t('gallery.imageLabel', { prompt: image.prompt.slice(0, 80) || image.id, model: image.model })}
      title={image.prompt}
      draggable
      onDragStart={onDragStart}
      onClick={onClick}
      onDoubleClick={() => onOpen(image.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          onOpen(image.id);
        }
        if (e.key === ' ') {
          e.preventDefault();
          onSelect(image.id, 'toggle');
        }
      }}
    >
      {image.download === 'done' ? (
        <img src={imageUrl('thumb', image.id)} alt="" decoding="async" draggable={false} />
      ) : (
        <span className="thumb-pending">{image.download === 'failed' ? t('turn.downloadFailed') : t('turn.downloading')}</span>
      )}
      {image.starred ? (
        <span className="thumb-star" aria-label={t('gallery.starred')}>
          ★
        </span>
      ) : null}
      {image.missing ? <span className="thumb-flag">{t('tray.missing')}</span> : null}
    </button>
  );
});
