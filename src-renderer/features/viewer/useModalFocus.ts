// Focus for the viewer and compare dialogs: focus moves into the dialog when it opens; when it closes, focus
// goes to the gallery tile of the image last shown (the designer may have moved through many images), or else
// back to whatever had it before (a turn card's thumbnail, the Compare button).
import { useEffect, useRef } from 'react';

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
      const tile = tileOf(lastImage.current);
      // The dialog is already out of the DOM when this runs (its content rendered null).
      (tile ?? (before?.isConnected ? before : null))?.focus();
    };
  }, [isOpen]);
  return dialogRef;
}
