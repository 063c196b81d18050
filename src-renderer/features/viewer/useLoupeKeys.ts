// The loupe's keys: culling (and, with "advance after marking", the next image), P for a Catalog cell's pick, Esc, arrows to move through the
// gallery, Shift + arrows to pan, and the stage's zoom keys shared with compare.
import { useEffect } from 'react';
import type { ImageRecord } from '../../../src-shared/ipc/generation.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { isStageKey, panStep, zoomKey } from './keys.ts';
import { marksForKey, type Marks } from '../../lib/library-state/marks.ts';
import type { LoupeTravel } from './useLoupeTravel.ts';
import type { PanZoom } from './usePanZoom.ts';

export function useLoupeKeys(options: { image: ImageRecord | undefined; pz: PanZoom; travel: LoupeTravel; onMark: (marks: Marks) => void; onPick?: () => void; close: () => void }) {
  const { image, pz, onMark, onPick, close } = options;
  const { go, prevId, nextId } = options.travel;
  // The gallery's "advance after marking" preference: a culling key also moves to the next image.
  const advance = useGalleryView((s) => s.advance);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!isStageKey(e)) return;
      const step = panStep(pz);
      const cull = image ? marksForKey(e.key, [image]) : null;
      if (cull) {
        onMark(cull);
        if (advance) go(nextId);
      }
      // The pick stays on its image: one pick per cell, nothing to advance to.
      else if (onPick && (e.key === 'p' || e.key === 'P')) onPick();
      else if (e.key === 'Escape') close();
      else if (e.shiftKey && e.key === 'ArrowLeft') pz.pan(step, 0);
      else if (e.shiftKey && e.key === 'ArrowRight') pz.pan(-step, 0);
      else if (e.shiftKey && e.key === 'ArrowUp') pz.pan(0, step);
      else if (e.shiftKey && e.key === 'ArrowDown') pz.pan(0, -step);
      else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') go(nextId);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') go(prevId);
      else if (!zoomKey(e.key, pz)) return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [advance, close, go, image, nextId, onMark, onPick, prevId, pz]);
}
