// Dragging gallery images: inside the window they go to the reference tray; when the drag leaves the window,
// main starts an OS drag of the full PNGs (files:start-drag), so they can be dropped into Finder or Photoshop.
import { startDragOut } from './queries.ts';
import { writeDraggedImageIds } from './drag.ts';

let active: string[] | null = null;
let exported = false;

export function beginImageDrag(data: DataTransfer, ids: string[]): void {
  writeDraggedImageIds(data, ids);
  active = ids;
  exported = false;
}

function leftWindow(e: DragEvent): boolean {
  return e.relatedTarget === null && (e.clientX <= 0 || e.clientY <= 0 || e.clientX >= window.innerWidth || e.clientY >= window.innerHeight);
}

/** Installs the document listeners once; returns a remover (for tests and hot reload). */
export function installDragOut(): () => void {
  const onLeave = (e: DragEvent) => {
    if (active && !exported && leftWindow(e)) {
      exported = true;
      startDragOut(active);
    }
  };
  const onEnd = () => {
    active = null;
    exported = false;
  };
  document.addEventListener('dragleave', onLeave);
  document.addEventListener('dragend', onEnd);
  document.addEventListener('drop', onEnd);
  return () => {
    document.removeEventListener('dragleave', onLeave);
    document.removeEventListener('dragend', onEnd);
    document.removeEventListener('drop', onEnd);
  };
}
