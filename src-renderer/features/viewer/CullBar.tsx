// Culling controls for one image, with their keys shown: 1–5 rate, 0 clears, X rejects, S (or F) stars. The viewer
// and each compare pane use it; the keys themselves are handled by the dialog that owns the image.
import type { ReactNode } from 'react';
import { appText, useText } from '../../i18n/text.ts';
import { loupeText } from './i18n.ts';
import type { Marks } from '../../lib/library-state/marks.ts';

export interface Markable {
  id: string;
  starred: boolean;
  rating: number;
  rejected: boolean;
}

export function CullBar({ image, onMark, compact = false }: { image: Markable; onMark: (marks: Marks) => void; compact?: boolean }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const rating = image.rating ?? 0;
  return (
    <div
      className={`cull-bar ${compact ? 'cull-bar-compact' : ''}`}
      role="group"
      aria-label={lt('culling')}
      data-testid="cull-bar"
      data-rating={rating}
      data-rejected={image.rejected}
      data-starred={image.starred}
    >
      <div className="cull-stars" role="group" aria-label={`${lt('rating')}: ${rating > 0 ? `${rating}/5` : lt('noRating')}`} data-testid="viewer-rating">
        {[1, 2, 3, 4, 5].map((n) => (
          <button
            key={n}
            type="button"
            className={`cull-star ${n <= rating ? 'cull-star-on' : ''}`}
            aria-pressed={rating === n}
            aria-label={lt('rate', { count: n })}
            title={`${lt('rate', { count: n })} (${n})`}
            data-testid={`rate-${n}`}
            onClick={() => onMark({ rating: rating === n ? 0 : n })}
          >
            <span aria-hidden="true">{n <= rating ? '★' : '☆'}</span>
            <kbd className="cull-key" aria-hidden="true">
              {n}
            </kbd>
          </button>
        ))}
        <button type="button" className="cull-clear" aria-label={`${lt('clearRating')}: 0`} title={`${lt('clearRating')} (0)`} data-testid="rate-0" disabled={rating === 0} onClick={() => onMark({ rating: 0 })}>
          {/* The glyph is drawn by CSS (no text for the accessible name to disagree with). */}
          <kbd className="cull-key" aria-hidden="true">
            0
          </kbd>
        </button>
      </div>
      <CullToggle on={image.rejected} onClass="cull-rejected" testId="reject" label={lt('reject')} hotkey="X" compact={compact} onToggle={() => onMark({ rejected: !image.rejected })}>
        <span aria-hidden="true">⊘</span> {compact ? null : lt('reject')}
      </CullToggle>
      <CullToggle on={image.starred} onClass="cull-starred" testId="star" label={t('gallery.star')} hotkey="S" compact={compact} onToggle={() => onMark({ starred: !image.starred })}>
        {compact ? <span aria-hidden="true">{image.starred ? '★' : '☆'}</span> : image.starred ? `★ ${t('gallery.unstar')}` : `☆ ${t('gallery.star')}`}
      </CullToggle>
    </div>
  );
}

/** Reject or star: a toggle that shows its key. Compact (compare panes): icon and key only; the name still says what it is, with the key it shows. */
function CullToggle(props: { on: boolean; onClass: string; testId: string; label: string; hotkey: string; compact: boolean; onToggle: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className={`btn btn-sm cull-toggle ${props.on ? props.onClass : ''}`}
      aria-pressed={props.on}
      data-testid={props.testId}
      title={`${props.label} (${props.hotkey})`}
      aria-label={props.compact ? `${props.label}: ${props.hotkey}` : undefined}
      onClick={props.onToggle}
    >
      {props.children}
      <kbd className="kbd" aria-hidden="true">
        {props.hotkey}
      </kbd>
    </button>
  );
}
