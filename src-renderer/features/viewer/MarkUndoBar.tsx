// After a mark, a pick or a master choice, a short note names the image and what was done, with Undo; Ctrl+Z (Cmd+Z)
// undoes the last of them anywhere (grid, viewer, compare, board, studio), except while typing, where it stays the
// field's own undo. Mounted once by App.tsx; the undo stack itself is lib/library-state/undo.ts.
import { useEffect, useState } from 'react';
import { useText } from '../../i18n/text.ts';
import { useUndo, useUndoHistory, type DoneKind, type UndoNote } from '../../lib/library-state/undo.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { loupeText, type LoupeKey } from './i18n.ts';
import { isTyping, undoKeys } from './keys.ts';

/** How long the note stays after a mark (the stack stays; Ctrl+Z works after the note is gone). */
const NOTE_MS = 8_000;

/** The words of a pick or master change, and of its undo (a mark's are its marks, markWords). */
const DONE_WORDS: Record<Exclude<DoneKind, 'marked'>, { done: LoupeKey; undone: LoupeKey }> = {
  picked: { done: 'donePicked', undone: 'undonePicked' },
  unpicked: { done: 'doneUnpicked', undone: 'undoneUnpicked' },
  master: { done: 'doneMaster', undone: 'undoneMaster' },
  unmaster: { done: 'doneUnmaster', undone: 'undoneUnmaster' },
  picked_only: { done: 'donePickedOnly', undone: 'undonePickedOnly' },
};

function useUndoKey(undo: () => void): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z' || isTyping(e.target)) return;
      e.preventDefault();
      undo();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [undo]);
}

export function MarkUndoBar() {
  const lt = useText(loupeText);
  const undo = useUndo();
  const note = useUndoHistory((s) => s.note);
  const canUndo = useUndoHistory((s) => s.stack.length > 0);
  const [hiddenSeq, setHiddenSeq] = useState(0);
  // Where the note sits: clear of the viewer's feet or compare's pane buttons.
  const place = useGalleryStore((s) => (s.compare ? 'over-compare' : s.viewer?.scope ? 'over-scope' : s.viewer ? 'over-loupe' : ''));
  useUndoKey(undo);
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setHiddenSeq(note.seq), NOTE_MS);
    return () => clearTimeout(timer);
  }, [note]);
  const shown = note !== null && note.seq !== hiddenSeq;
  const markWords = ({ marks }: UndoNote): string => {
    if (marks.rejected !== undefined) return lt(marks.rejected ? 'markRejected' : 'markUnrejected');
    if (marks.starred !== undefined) return lt(marks.starred ? 'markStarred' : 'markUnstarred');
    if (marks.rating !== undefined) return marks.rating > 0 ? lt('markRated', { rating: marks.rating }) : lt('markUnrated');
    return lt('markUndone');
  };
  // "Rejected: SKU-001 · main 2/2", "Picked: …", "Pick undone: …"; an undone mark is "Undone: …".
  const words = (n: UndoNote): string => {
    const count = n.count === undefined ? undefined : { count: n.count };
    if (n.kind === 'undone') return n.undid && n.undid !== 'marked' ? lt(DONE_WORDS[n.undid].undone, count) : lt('markUndone');
    return n.kind === 'marked' || n.kind === 'nothing' ? markWords(n) : lt(DONE_WORDS[n.kind].done, count);
  };
  // A change of many cells is one sentence with their count ("Picked the only candidate in 37 cells"), no image name.
  const text = note === null ? '' : note.kind === 'nothing' ? lt('nothingToUndo') : note.count !== undefined ? words(note) : lt('marked', { mark: words(note), name: note.name });
  return (
    <div className={`mark-undo-bar ${shown ? 'is-shown' : ''} ${place}`} data-testid="mark-note-bar">
      <span role="status" aria-live="polite" data-testid="mark-note" data-kind={note?.kind ?? ''}>
        {shown ? text : ''}
      </span>
      {shown ? (
        <>
          {note && note.kind !== 'undone' && note.kind !== 'nothing' ? <span className="muted small">{lt('markedUndo', { keys: undoKeys() })}</span> : null}
          <button type="button" className="btn btn-sm" data-testid="undo-mark" aria-label={lt('undoLabel', { keys: undoKeys() })} disabled={!canUndo} onClick={undo}>
            {lt('undo')}
          </button>
        </>
      ) : null}
    </div>
  );
}
