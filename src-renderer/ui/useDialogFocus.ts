// A modal dialog takes focus when it opens and gives it back to where it was when it closes, so keyboard
// users land in it and return to their place (the viewer and compare share this).
import { useEffect, useRef } from 'react';

export function useDialogFocus(isOpen: boolean) {
  const dialogRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialogRef.current?.focus();
    return () => before?.focus();
  }, [isOpen]);
  return dialogRef;
}
