// Where the viewer's and compare's single-key shortcuts must not fire, and the stage keys both modes share.
import { osOf } from '../../lib/platform.ts';
import type { PanZoom } from './usePanZoom.ts';

/** How the undo key is written where the designer is: ⌘Z on a Mac, Ctrl+Z elsewhere. */
export function undoKeys(): string {
  return osOf(navigator.platform) === 'mac' ? '⌘Z' : 'Ctrl+Z';
}

/** Keys typed into a field are the field's (a checkbox or a button is not one). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(target.type);
}

/** A shortcut with a modifier belongs to the app or the system, not to the stage. */
export function isStageKey(e: KeyboardEvent): boolean {
  return !(e.defaultPrevented || isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey);
}

/** One arrow key's pan: a tenth of the stage's shorter side, at least 40 px (80 before the stage is measured). */
export function panStep(pz: PanZoom): number {
  return pz.stage ? Math.max(40, Math.round(Math.min(pz.stage.w, pz.stage.h) * 0.1)) : 80;
}

/** The zoom keys of both modes: + − zoom, Z toggles fit and 100 % (as in Lightroom), Home / End pan to an edge. */
export function zoomKey(key: string, pz: PanZoom): boolean {
  if (key === 'Home') pz.panToEdge('start');
  else if (key === 'End') pz.panToEdge('end');
  else if (key === '+' || key === '=') pz.zoomBy(1.25);
  else if (key === '-' || key === '_' || key === '−') pz.zoomBy(1 / 1.25);
  else if (key === 'z' || key === 'Z') pz.toggleActual();
  else return false;
  return true;
}
