// Dragging images (gallery, stage results) in and out: inside the window, our own MIME type carries the image ids,
// so a drop target (reference tray, board, product form) can tell them from files dragged in from outside (which
// it refuses); when the drag leaves the window, main starts an OS drag of the full PNGs (files:start-drag), so they
// can be dropped into Finder or Photoshop.
import { call } from './desktop.ts';

export const IMAGE_DRAG_TYPE = 'application/x-studio-image-ids';

function writeDraggedImageIds(data: DataTransfer, ids: string[]): void {
  data.setData(IMAGE_DRAG_TYPE, JSON.stringify(ids));
  data.setData('text/plain', ids.join(' '));
  data.effectAllowed = 'copy';
}

export function readDraggedImageIds(data: DataTransfer): string[] {
  const raw = data.getData(IMAGE_DRAG_TYPE);
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string' && /^img_[A-Za-z0-9]+$/.test(v)) : [];
  } catch {
    return [];
  }
}

/** At most 50 files per OS drag; a refusal from main just means no drag-out. */
function startDragOut(imageIds: string[]): void {
  void call('filesStartDrag', { imageIds: imageIds.slice(0, 50) }).catch(() => undefined);
}

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
