// "Add to board": opened by B in the grid or by the selection bar's button. 1–9 or the arrows and Enter pick a
// board; a name typed in the field makes a new board and adds to it; Esc closes. Focus goes back to the grid.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useText } from '../../i18n/text.ts';
import { DesktopError } from '../../lib/desktop.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { libraryText } from '../../i18n/library.ts';
import { useBoardAdd, useBoards, useCreateBoard } from './queries.ts';

export function BoardPicker({ imageIds, onDone }: { imageIds: string[]; onDone: () => void }) {
  const lt = useText(libraryText);
  const boards = useBoards().data ?? [];
  const add = useBoardAdd();
  const create = useCreateBoard();
  const close = useGalleryView((s) => s.closeBoardPicker);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(0);
  const [name, setName] = useState('');
  const current = Math.min(index, Math.max(0, boards.length - 1));

  const hasBoards = boards.length > 0;
  useEffect(() => {
    (hasBoards ? listRef.current : inputRef.current)?.focus();
  }, [hasBoards]);

  const finish = () => {
    close();
    onDone();
  };
  const pick = (boardId: string | undefined) => {
    if (!boardId || add.isPending) return;
    add.mutate({ boardId, imageIds }, { onSuccess: finish });
  };
  const createAndAdd = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    create.mutate(trimmed, { onSuccess: (board) => pick(board.id) });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      finish();
    }
  };
  const onListKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setIndex(Math.min(boards.length - 1, Math.max(0, current + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(boards[current]?.id);
    } else if (/^[1-9]$/.test(e.key)) {
      e.preventDefault();
      pick(boards[Number(e.key) - 1]?.id);
    }
  };
  const error = create.error ?? add.error;
  const errorText = error instanceof DesktopError && error.ipc.code === 'board_name_taken' ? lt('nameTaken') : error?.message;

  return (
    <div
      ref={rootRef}
      className="board-picker"
      role="dialog"
      aria-label={lt('pickerTitle', { count: imageIds.length })}
      data-testid="board-picker"
      onKeyDown={onKeyDown}
      // Clicks on the picker's text keep the focus where it is (a blur outside closes the picker).
      onMouseDown={(e) => {
        if (!(e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement)) e.preventDefault();
      }}
      onBlur={(e) => {
        if (!rootRef.current?.contains(e.relatedTarget as Node | null)) finish();
      }}
    >
      <p className="board-picker-title">{lt('pickerTitle', { count: imageIds.length })}</p>
      {boards.length > 0 ? (
        <ul
          ref={listRef}
          className="board-picker-list"
          role="listbox"
          tabIndex={0}
          aria-label={lt('boards')}
          aria-activedescendant={boards[current] ? `pick-${boards[current].id}` : undefined}
          onKeyDown={onListKey}
        >
          {boards.map((board, i) => (
            <li
              key={board.id}
              id={`pick-${board.id}`}
              role="option"
              aria-selected={i === current}
              className={`board-picker-item ${i === current ? 'board-picker-current' : ''}`}
              data-testid="board-picker-item"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(board.id)}
            >
              {i < 9 ? <kbd className="kbd">{i + 1}</kbd> : <span className="kbd-space" />}
              <span className="board-picker-name">{board.name}</span>
              <span className="muted small">{lt('boardImages', { count: board.imageCount })}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">{lt('noBoards')}</p>
      )}
      <form
        className="board-picker-new"
        onSubmit={(e) => {
          e.preventDefault();
          createAndAdd();
        }}
      >
        <input
          ref={inputRef}
          value={name}
          maxLength={80}
          placeholder={lt('boardNew')}
          aria-label={lt('boardName')}
          data-testid="board-picker-new"
          onChange={(e) => setName(e.target.value)}
        />
        <button type="submit" className="btn btn-xs" disabled={!name.trim() || create.isPending}>
          {lt('create')}
        </button>
      </form>
      {errorText ? <p className="hint-danger">{errorText}</p> : null}
      <p className="muted small">{lt('pickerHint')}</p>
    </div>
  );
}
