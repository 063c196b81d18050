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

/** The pick key, where the images are a Catalog cell's or product's. */
const PICK: [string, LoupeKey] = ['P', 'keyPick'];

export function KeyHints({ mode, pick = false }: { mode: 'viewer' | 'compare'; pick?: boolean }) {
  const lt = useText(loupeText);
  const keys = mode === 'viewer' ? VIEWER : COMPARE;
  // P goes with the marking keys, before Esc.
  const esc = keys.findIndex(([, label]) => label === 'keyClose');
  const rows = pick ? [...keys.slice(0, esc), PICK, ...keys.slice(esc)] : keys;
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
