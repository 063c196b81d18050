// Boards in the library view's side bar (full: create, rename, delete, smart boards) and as a compact strip in
// the gallery panel. A board is a drop target for dragged images and, when clicked, the gallery's board view
// (filter boardId). A smart board applies its saved filters when clicked.
import { useLayoutEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import type { Board, GalleryFilters, SmartBoard } from '../../../src-shared/ipc/library.ts';
import { appText, useText } from '../../i18n/text.ts';
import { DesktopError } from '../../lib/desktop.ts';
import { useExportStore } from '../export/index.ts';
import { IMAGE_DRAG_TYPE, readDraggedImageIds } from '../../lib/image-drag.ts';
import { useGalleryStore } from '../../lib/library-state/store.ts';
import { useGalleryView } from '../../lib/library-state/view-store.ts';
import { libraryText, type LibraryT } from '../../i18n/library.ts';
import { useBoardAdd, useBoards, useCreateBoard, useDeleteBoard, useDeleteSmartBoard, useRenameBoard, useSmartBoards } from './queries.ts';

function sameFilters(a: GalleryFilters, b: GalleryFilters): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof GalleryFilters>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

/** The delete buttons' icon, drawn here: the 🗑 emoji is a blank box on a system without an emoji font. */
function TrashIcon() {
  return (
    <svg width="13" height="13" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.8 9.5h6.4L12 4M6.7 6.5v5M9.3 6.5v5" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Replaces the gallery's filters (a smart board, a board view). */
export function applyFilters(filters: GalleryFilters): void {
  useGalleryStore.getState().clearFilters();
  useGalleryStore.getState().setFilters(filters);
  useGalleryView.getState().bumpFiltersApplied();
}

/** Opens a board's view (its images, no other filter), or leaves it (the other filters stay). */
function toggleBoard(boardId: string, active: boolean): void {
  if (active) useGalleryStore.getState().setFilters({ boardId: undefined });
  else applyFilters({ boardId });
}

function nameError(error: Error | null, lt: LibraryT): string | null {
  if (!error) return null;
  return error instanceof DesktopError && error.ipc.code === 'board_name_taken' ? lt('nameTaken') : error.message;
}

/** A drop target for dragged gallery images; adds them to the board. */
function useBoardDrop(board: Board) {
  const add = useBoardAdd();
  const [over, setOver] = useState(false);
  return {
    over,
    handlers: {
      onDragOver: (e: DragEvent) => {
        if (!Array.from(e.dataTransfer.types).includes(IMAGE_DRAG_TYPE)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        setOver(true);
      },
      onDragLeave: () => setOver(false),
      onDrop: (e: DragEvent) => {
        e.preventDefault();
        setOver(false);
        const ids = readDraggedImageIds(e.dataTransfer);
        if (ids.length > 0) add.mutate({ boardId: board.id, imageIds: ids });
      },
    },
  };
}

function NameForm(props: { initial: string; label: string; placeholder: string; submit: string; testId: string; pending: boolean; error: string | null; onSubmit: (name: string) => void; onCancel: () => void }) {
  const lt = useText(libraryText);
  const [name, setName] = useState(props.initial);
  return (
    <form
      className="board-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim()) props.onSubmit(name.trim());
      }}
    >
      <input
        autoFocus
        value={name}
        maxLength={80}
        aria-label={props.label}
        placeholder={props.placeholder}
        data-testid={props.testId}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            props.onCancel();
          }
        }}
      />
      <button type="submit" className="btn btn-xs" disabled={!name.trim() || props.pending}>
        {props.submit}
      </button>
      <button type="button" className="btn btn-ghost btn-xs" onClick={props.onCancel}>
        {lt('cancel')}
      </button>
      {props.error ? <p className="hint-danger board-form-error">{props.error}</p> : null}
    </form>
  );
}

export function CreateBoard({ compact, onCreated }: { compact?: boolean; onCreated?: (board: Board) => void }) {
  const lt = useText(libraryText);
  const create = useCreateBoard();
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" className={compact ? 'board-chip board-chip-add' : 'btn btn-xs'} data-testid="board-create" title={lt('boardCreate')} aria-label={lt('boardCreate')} onClick={() => setOpen(true)}>
        {compact ? '+' : `+ ${lt('boardCreate')}`}
      </button>
    );
  }
  return (
    <NameForm
      initial=""
      label={lt('boardName')}
      placeholder={lt('boardNamePlaceholder')}
      submit={lt('create')}
      testId="board-name-input"
      pending={create.isPending}
      error={nameError(create.error, lt)}
      onSubmit={(name) =>
        create.mutate(name, {
          onSuccess: (board) => {
            setOpen(false);
            onCreated?.(board);
          },
        })
      }
      onCancel={() => {
        create.reset();
        setOpen(false);
      }}
    />
  );
}

function BoardRow({ board, active }: { board: Board; active: boolean }) {
  const lt = useText(libraryText);
  const t = useText(appText);
  const openExport = useExportStore((s) => s.open);
  const rename = useRenameBoard();
  const remove = useDeleteBoard();
  const { over, handlers } = useBoardDrop(board);
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  if (mode === 'rename') {
    return (
      <li className="board-item">
        <NameForm
          initial={board.name}
          label={lt('boardName')}
          placeholder={lt('boardNamePlaceholder')}
          submit={lt('save')}
          testId="board-rename-input"
          pending={rename.isPending}
          error={nameError(rename.error, lt)}
          onSubmit={(name) => rename.mutate({ boardId: board.id, name }, { onSuccess: () => setMode('view') })}
          onCancel={() => setMode('view')}
        />
      </li>
    );
  }
  return (
    <li className={`board-item ${active ? 'board-item-active' : ''} ${over ? 'board-over' : ''}`} data-testid="board" data-board-id={board.id} title={lt('boardHint')} {...handlers}>
      <button
        type="button"
        className="board-open"
        aria-pressed={active}
        onClick={() => toggleBoard(board.id, active)}
      >
        <span className="board-name">{board.name}</span>
        <span className="board-count">{board.imageCount}</span>
      </button>
      <button type="button" className="icon-btn" data-testid="board-rename" aria-label={lt('renameBoard', { name: board.name })} title={lt('rename')} onClick={() => setMode('rename')}>
        ✎
      </button>
      <button
        type="button"
        className="icon-btn"
        data-testid="board-export"
        aria-label={t('export.boardButtonLabel', { name: board.name })}
        title={t('export.open')}
        disabled={board.imageCount === 0}
        onClick={() => openExport({ kind: 'board', boardId: board.id, name: board.name })}
      >
        ⇩
      </button>
      <button type="button" className="icon-btn" data-testid="board-delete" aria-label={lt('deleteBoard', { name: board.name })} title={lt('delete')} onClick={() => setMode('delete')}>
        <TrashIcon />
      </button>
      {mode === 'delete' ? (
        <div className="board-confirm" role="alertdialog" aria-label={lt('deleteBoard', { name: board.name })}>
          <p>{lt('deleteConfirm', { name: board.name })}</p>
          <div className="row-gap">
            <button
              type="button"
              className="btn btn-danger btn-xs"
              data-testid="board-delete-confirm"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(board.id, {
                  onSuccess: () => {
                    if (active) useGalleryStore.getState().setFilters({ boardId: undefined });
                  },
                })
              }
            >
              {lt('delete')}
            </button>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => setMode('view')}>
              {lt('keep')}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

function SmartBoardRow({ board, active }: { board: SmartBoard; active: boolean }) {
  const lt = useText(libraryText);
  const remove = useDeleteSmartBoard();
  return (
    <li className={`board-item ${active ? 'board-item-active' : ''}`} data-testid="smart-board" data-smart-board-id={board.id}>
      <button type="button" className="board-open" aria-pressed={active} onClick={() => applyFilters(active ? {} : board.filters)}>
        <span className="board-smart-icon" aria-hidden="true">
          ⚡
        </span>
        <span className="board-name">{board.name}</span>
      </button>
      <button
        type="button"
        className="icon-btn"
        data-testid="smart-board-delete"
        aria-label={lt('deleteSmartBoard', { name: board.name })}
        title={lt('delete')}
        disabled={remove.isPending}
        onClick={() => {
          remove.mutate(board.id);
          if (active) applyFilters({});
        }}
      >
        <TrashIcon />
      </button>
    </li>
  );
}

/** The library view's side bar: boards (with "All images") and smart boards. */
export function BoardsSection() {
  const lt = useText(libraryText);
  const boards = useBoards().data ?? [];
  const smart = useSmartBoards().data ?? [];
  const filters = useGalleryStore((s) => s.filters);
  return (
    <>
      <section className="boards" aria-labelledby="boards-title">
        <div className="boards-head">
          <h3 id="boards-title" className="side-title">
            {lt('boards')}
          </h3>
          <CreateBoard />
        </div>
        <ul className="board-list">
          <li className={`board-item ${Object.keys(filters).length === 0 ? 'board-item-active' : ''}`}>
            <button type="button" className="board-open" data-testid="board-all" aria-pressed={Object.keys(filters).length === 0} onClick={() => applyFilters({})}>
              <span className="board-name">{lt('allImages')}</span>
            </button>
          </li>
          {boards.map((board) => (
            <BoardRow key={board.id} board={board} active={filters.boardId === board.id} />
          ))}
        </ul>
        {boards.length === 0 ? <p className="muted small">{lt('noBoards')}</p> : null}
      </section>
      <section className="boards" aria-labelledby="smart-boards-title">
        <div className="boards-head">
          <h3 id="smart-boards-title" className="side-title">
            {lt('smartBoards')}
          </h3>
        </div>
        {smart.length > 0 ? (
          <ul className="board-list">
            {smart.map((board) => (
              <SmartBoardRow key={board.id} board={board} active={sameFilters(filters, board.filters)} />
            ))}
          </ul>
        ) : (
          <p className="muted small">{lt('smartEmpty')}</p>
        )}
      </section>
    </>
  );
}

function Chip({ children, active, onClick, testId, title, extra }: { children: ReactNode; active: boolean; onClick: () => void; testId: string; title?: string; extra?: Record<string, unknown> }) {
  return (
    <button type="button" className={`board-chip ${active ? 'board-chip-on' : ''}`} aria-pressed={active} data-testid={testId} title={title} onClick={onClick} {...extra}>
      {children}
    </button>
  );
}

/** Scrolls the strip's list (never the page) so that the chip is in its view whenever `when` turns true. */
function useRevealInStrip(when: boolean) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const chip = ref.current;
    const list = chip?.closest('.board-strip-chips');
    if (!when || !chip || !list) return;
    const inner = chip.getBoundingClientRect();
    const outer = list.getBoundingClientRect();
    if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
    else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
  }, [when]);
  return ref;
}

/** A board's chip: the board being viewed, or one just made, is scrolled into the strip's view. */
function BoardChip({ board, active, justMade }: { board: Board; active: boolean; justMade: boolean }) {
  const lt = useText(libraryText);
  const { over, handlers } = useBoardDrop(board);
  const ref = useRevealInStrip(active || justMade);
  return (
    <span ref={ref} className={`board-chip-wrap ${over ? 'board-over' : ''}`} {...handlers}>
      <Chip testId="board" active={active} title={lt('boardHint')} extra={{ 'data-board-id': board.id }} onClick={() => toggleBoard(board.id, active)}>
        {board.name}
        <span className="board-count">{board.imageCount}</span>
      </Chip>
    </span>
  );
}

function SmartBoardChip({ board, active }: { board: SmartBoard; active: boolean }) {
  const ref = useRevealInStrip(active);
  return (
    <span ref={ref} className="board-chip-wrap">
      <Chip testId="smart-board" active={active} extra={{ 'data-smart-board-id': board.id }} onClick={() => applyFilters(active ? {} : board.filters)}>
        <span aria-hidden="true">⚡</span>
        {board.name}
      </Chip>
    </span>
  );
}

/**
 * The gallery panel's compact boards: the label and "+" (and the name form when open) stay in sight; the chips to
 * view a board or apply a smart board scroll in a list of two rows and a half, instead of pushing the grid out.
 */
export function BoardStrip() {
  const lt = useText(libraryText);
  const boards = useBoards().data ?? [];
  const smart = useSmartBoards().data ?? [];
  const filters = useGalleryStore((s) => s.filters);
  const [justMade, setJustMade] = useState<string | null>(null);
  return (
    <div className="board-strip" role="group" aria-label={lt('boards')} data-testid="board-strip">
      <span className="board-strip-label muted">{lt('boards')}</span>
      <CreateBoard compact onCreated={(board) => setJustMade(board.id)} />
      <div className="board-strip-chips" data-testid="board-chips">
        {boards.map((board) => (
          <BoardChip key={board.id} board={board} active={filters.boardId === board.id} justMade={justMade === board.id} />
        ))}
        {smart.map((board) => (
          <SmartBoardChip key={board.id} board={board} active={sameFilters(filters, board.filters)} />
        ))}
      </div>
    </div>
  );
}
