// The keys of the viewer and compare, shown where they are used.
import { useText } from '../../i18n/text.ts';
import { loupeText, type LoupeKey } from './i18n.ts';
import { undoKeys } from './keys.ts';

/** The marking keys both modes share. */
const MARKING: Array<[string, LoupeKey]> = [
  ['+ −', 'keyZoom'],
  ['Z', 'keyActual'],
  ['1–5', 'keyRate'],
  ['0', 'keyClear'],
  ['X', 'keyReject'],
  ['S · F', 'keyStar'],
  ['Esc', 'keyClose'],
];

const VIEWER: Array<[string, LoupeKey]> = [['← →', 'keyMove'], ['Shift + ← ↑ → ↓ · Home · End', 'keyPan'], ...MARKING, [undoKeys(), 'keyUndo']];

const COMPARE: Array<[string, LoupeKey]> = [['← ↑ → ↓ · Home · End', 'keyPan'], ...MARKING, [undoKeys(), 'keyUndo']];

export function KeyHints({ mode }: { mode: 'viewer' | 'compare' }) {
  const lt = useText(loupeText);
  const rows = mode === 'viewer' ? VIEWER : COMPARE;
  return (
    <section className="key-hints" aria-label={lt('keysTitle')} data-testid="viewer-keys">
      <dl>
        {rows.map(([keys, label]) => (
          <div key={label} className="key-hint">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{lt(label)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
