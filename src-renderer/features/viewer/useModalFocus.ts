// Focus for the viewer and compare dialogs: focus moves into the dialog when it opens; when it closes, focus
// goes to the gallery tile of the image last shown (the designer may have moved through many images), or else
// back to whatever had it before (a turn card's thumbnail, the Compare button).
import { useEffect, useRef } from 'react';
import { useGalleryView } from '../../lib/library-state/view-store.ts';

/** The tile of the image, or the grid holding it when tiles are not focusable themselves (a grid with one Tab stop). */
function tileOf(imageId: string | null): HTMLElement | null {
  if (!imageId) return null;
  const tile = document.querySelector<HTMLElement>(`[data-testid="gallery-image"][data-image-id="${CSS.escape(imageId)}"]`);
  if (!tile) return null;
  if (tile.tabIndex >= 0) return tile;
  return tile.closest<HTMLElement>('[role="grid"], [tabindex="0"]');
}

export function useModalFocus(isOpen: boolean, lastImageId: string | null) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const lastImage = useRef(lastImageId);
  useEffect(() => {
    lastImage.current = lastImageId;
  }, [lastImageId]);
  useEffect(() => {
    if (!isOpen) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => {
      const last = lastImage.current;
      // The gallery's grid (one Tab stop) marks this image as its active one, and shows it when it gets focus.
      if (last) useGalleryView.getState().setActive(last);
      // After the grid has rendered that change, so its focus handler brings the image into view.
      window.setTimeout(() => (tileOf(last) ?? (before?.isConnected ? before : null))?.focus(), 0);
    };
  }, [isOpen]);
  return dialogRef;
}
