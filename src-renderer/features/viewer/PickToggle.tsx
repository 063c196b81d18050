// The pick of a Catalog cell where the image is judged full size: the toggle (P) in the viewer's side panel and in
// each compare pane, and the mark on the image itself. The pick is the image of the cell that goes to the
// marketplace; a rejected image cannot be picked (main refuses it too), so its toggle is disabled and says why.
import { useText } from '../../i18n/text.ts';
import { loupeText } from './i18n.ts';
import type { Rect } from './Stage.tsx';

export function PickToggle(props: { picked: boolean; rejected: boolean; cellName: string; compact?: boolean; onToggle: () => void }) {
  const lt = useText(loupeText);
  const { picked, compact = false } = props;
  const blocked = props.rejected && !picked;
  const title = blocked ? lt('pickRejected') : picked ? lt('unpickTitle', { scope: props.cellName }) : lt('pickTitle', { scope: props.cellName });
  return (
    <button
      type="button"
      className={`btn btn-sm loupe-pick ${picked ? 'loupe-pick-on' : ''}`}
      data-testid="viewer-pick"
      aria-pressed={picked}
      disabled={blocked}
      title={`${title} (P)`}
      aria-label={compact ? `${picked ? lt('picked') : lt('pick')}: P` : undefined}
      onClick={props.onToggle}
    >
      <span aria-hidden="true">{picked ? '✓' : '○'}</span> {picked ? lt('picked') : lt('pick')}
      <kbd className="kbd" aria-hidden="true">
        P
      </kbd>
    </button>
  );
}

/** How far inside the image's corner (and the stage's edge) the badge sits. */
const INSET = 8;

/** The mark on a picked image: a badge on its top-left corner (`at`, the image on the stage; else the stage's), never
 *  a tint over its colours. */
export function PickedBadge({ at }: { at?: Rect }) {
  const lt = useText(loupeText);
  const place = at ? { left: Math.max(INSET, at.x + INSET), top: Math.max(INSET, at.y + INSET) } : undefined;
  return (
    <span className="loupe-picked-badge" data-testid="viewer-picked" style={place}>
      <span aria-hidden="true">✓</span> {lt('picked')}
    </span>
  );
}
