import { memo, type DragEvent, type MouseEvent } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import type { AppText } from '../../i18n/text.ts';
import { imageUrl } from '../../lib/desktop.ts';
import type { LibraryT } from '../../i18n/library.ts';
import { beginImageDrag } from '../../lib/image-drag.ts';

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
  /** Made once per language by the grid (tileText): tiles neither subscribe to language changes nor translate. */
  text: TileText;
}

/** A tile's words, translated once per language: mounting a tile while scrolling runs no i18next lookups. */
export interface TileText {
  /** The tile's accessible name: prompt and model, as `gallery.imageLabel` words it. */
  label: (prompt: string, model: string) => string;
  rated: (n: number) => string;
  starred: string;
  rejected: string;
  missing: string;
  keysHint: string;
  reject: string;
  unreject: string;
  downloading: string;
  downloadFailed: string;
}

export function tileText(t: AppText, lt: LibraryT): TileText {
  // The label's template with markers where the values go, filled in per tile (the values may hold anything,
  // so they are inserted by a function, never read as a replacement pattern).
  const template = t('gallery.imageLabel', { prompt: '\u0001', model: '\u0002' });
  const rated = [0, 1, 2, 3, 4, 5].map((n) => lt('rated', { n }));
  return {
    label: (prompt, model) => template.replace('\u0001', () => prompt).replace('\u0002', () => model),
    rated: (n) => rated[n] ?? lt('rated', { n }),
    starred: lt('starred'),
    rejected: lt('rejected'),
    missing: t('tray.missing'),
    keysHint: lt('tileKeys'),
    reject: lt('reject'),
    unreject: lt('unreject'),
    downloading: t('turn.downloading'),
    downloadFailed: t('turn.downloadFailed'),
  };
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
export const GalleryThumb = memo(function GalleryThumb({ image, left, width, height, selected, focused, onSelect, onOpen, onReject, dragIds, text }: ThumbProps) {
  const onClick = (e: MouseEvent) => onSelect(image.id, e.shiftKey ? 'range' : e.ctrlKey || e.metaKey ? 'toggle' : 'single');
  const onDragStart = (e: DragEvent) => beginImageDrag(e.dataTransfer, dragIds(image.id));
  const states = [
    image.rating > 0 ? text.rated(image.rating) : null,
    image.starred ? text.starred : null,
    image.rejected ? text.rejected : null,
    image.missing ? text.missing : null,
  ].filter(Boolean);
  // A Catalog batch's image says which product and shot it is (the prompt alone does not).
  const catalog = image.catalog ? `${image.catalog.sku} · ${image.catalog.shot}` : null;
  const label = (catalog ? `${catalog} · ` : '') + text.label(image.prompt.slice(0, 80) || image.id, image.model) + (states.length > 0 ? ` · ${states.join(' · ')}` : '');
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
      title={`${catalog ? `${catalog}\n` : ''}${image.prompt.slice(0, 300)}\n${text.keysHint}`}
      draggable
      onDragStart={onDragStart}
      onClick={onClick}
      onDoubleClick={() => onOpen(image.id)}
    >
      {image.download === 'done' ? (
        <img src={imageUrl('thumb', image.id)} alt="" decoding="async" draggable={false} />
      ) : (
        <span className="thumb-pending">{image.download === 'failed' ? text.downloadFailed : text.downloading}</span>
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
        aria-label={image.rejected ? text.unreject : text.reject}
        title={image.rejected ? text.unreject : text.reject}
        // The grid keeps the focus (its keys go on working); the button only takes the click.
        onMouseDown={(e) => e.preventDefault()}
        onDoubleClick={(e) => e.stopPropagation()}
        onClick={(e) => {
          e.stopPropagation();
          onReject(image.id);
        }}
      />
      {catalog && !image.missing ? (
        <span className="thumb-catalog" data-testid="tile-catalog" aria-hidden="true">
          {catalog}
        </span>
      ) : null}
      {image.missing ? <span className="thumb-flag">{text.missing}</span> : null}
    </div>
  );
});
