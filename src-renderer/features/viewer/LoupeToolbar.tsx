// The loupe's toolbar: previous / next, where the image stands in the gallery's order ("12 / 340"), and close.
import { appText, useText } from '../../i18n/text.ts';
import { loupeText } from './i18n.ts';
import type { LoupeTravel, ViewerState } from './useLoupeTravel.ts';

export function LoupeToolbar({ travel, viewer, close }: { travel: LoupeTravel; viewer: ViewerState; close: () => void }) {
  const t = useText(appText);
  const lt = useText(loupeText);
  const { place, listIndex, prevId, nextId, go } = travel;
  const index = listIndex + 1;
  const position = viewer.scope
    ? lt('positionInScope', { index, total: viewer.ids.length, scope: viewer.scope.label })
    : place
    ? place.inFilter
      ? lt('position', { index: place.index + 1, total: place.total })
      : lt('positionOutside', { total: place.total })
    : travel.onListOnly
      ? lt('position', { index: listIndex + 1, total: viewer.ids.length })
      : '…';
  return (
    <div className="viewer-toolbar">
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => go(prevId)} disabled={!prevId} aria-label={t('viewer.previous')} data-testid="viewer-prev">
        ←
      </button>
      <span
        className="muted small loupe-position"
        data-testid="viewer-position"
        data-index={place ? place.index : listIndex}
        data-total={place ? place.total : viewer.ids.length}
        data-in-filter={place ? place.inFilter : ''}
        data-scope={viewer.scope?.label ?? ''}
        aria-label={place?.inFilter ? lt('positionLabel', { index: place.index + 1, total: place.total }) : undefined}
        aria-live="polite"
      >
        {position}
      </span>
      <button type="button" className="btn btn-ghost btn-sm" onClick={() => go(nextId)} disabled={!nextId} aria-label={t('viewer.next')} data-testid="viewer-next">
        →
      </button>
      <span className="spacer" />
      <button type="button" className="btn btn-ghost btn-sm" onClick={close} aria-label={t('common.close')} data-testid="viewer-close">
        ✕
      </button>
    </div>
  );
}
