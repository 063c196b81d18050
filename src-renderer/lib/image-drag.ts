// In-app drag of gallery images: our own MIME type carries the image ids, so the tray can tell them from
// files dragged in from outside (which it refuses).
export const IMAGE_DRAG_TYPE = 'application/x-studio-image-ids';

export function writeDraggedImageIds(data: DataTransfer, ids: string[]): void {
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
