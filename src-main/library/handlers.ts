// IPC handlers of the library (src-shared/ipc/library.ts): galleries, sessions, turns and images, culling,
// boards and smart boards. Each change is told once with
// `library:changed` (docs/main-process.md "Culling, boards and the library at scale").
import type { TurnRecord } from '../../src-shared/ipc/generation.ts';
import type { Language } from '../../src-shared/language.ts';
import { StudioError } from '../domain/errors.ts';
import type { StoredTurn } from '../domain/turns.ts';
import type { Emit } from '../ports/events.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import { isValidCursor, type LibraryRepo } from './library-repo.ts';

type ReadMethods =
  | 'libraryGallery'
  | 'librarySessions'
  | 'libraryGetSession'
  | 'libraryListTurns'
  | 'libraryGetTurn'
  | 'libraryGetImage'
  | 'libraryGetImages'
  | 'libraryNeighbors'
  | 'libraryImageIds';
type MarkMethods = 'libraryStar' | 'libraryMark' | 'libraryRenameSession';
type BoardMethods = 'boardList' | 'boardCreate' | 'boardRename' | 'boardDelete' | 'boardAdd' | 'boardRemove' | 'smartBoardList' | 'smartBoardSave' | 'smartBoardDelete';
export type LibraryMethods = ReadMethods | MarkMethods | BoardMethods;

export interface LibraryHandlerDeps {
  repo: LibraryRepo;
  emit: Emit;
  language: () => Language;
  /** A turn as the renderer receives it (the generation runner knows which turns are running). */
  present: (turn: StoredTurn) => TurnRecord;
  now?: () => number;
}

const notFound = (what: 'image' | 'session' | 'turn', id: string): never => {
  throw new StudioError('not_found', { what, id });
};

function checkCursor(cursor: string | null): void {
  if (!isValidCursor(cursor)) throw new StudioError('invalid_input', { field: 'cursor' });
}

function readHandlers({ repo, present }: LibraryHandlerDeps): HandlerTable<ReadMethods> {
  return {
    libraryGallery: async ({ filters, cursor, limit }) => {
      checkCursor(cursor);
      return repo.gallery(filters, cursor, limit);
    },
    librarySessions: async ({ cursor, limit }) => {
      checkCursor(cursor);
      return repo.listSessions(cursor, limit);
    },
    libraryGetSession: async ({ sessionId }) => repo.sessionSummary(sessionId) ?? notFound('session', sessionId),
    libraryListTurns: async ({ sessionId }) => {
      if (!repo.sessionRow(sessionId)) notFound('session', sessionId);
      return repo.listTurns(sessionId).map(present);
    },
    libraryGetTurn: async ({ turnId }) => {
      const turn = repo.getTurn(turnId);
      return turn ? present(turn) : notFound('turn', turnId);
    },
    libraryGetImage: async ({ imageId }) => {
      const detail = repo.imageDetail(imageId);
      return detail ? { ...detail, turn: present(detail.turn) } : notFound('image', imageId);
    },
    libraryGetImages: async ({ imageIds }) => {
      const asked = [...new Set(imageIds)];
      const images = repo.imagesByIds(asked);
      const found = new Set(images.map((i) => i.id));
      return { images, missing: asked.filter((id) => !found.has(id)) };
    },
    libraryNeighbors: async ({ filters, imageId }) => repo.neighbors(filters, imageId) ?? notFound('image', imageId),
    libraryImageIds: async ({ filters, limit }) => repo.imageIds(filters, limit),
  };
}

function markHandlers({ repo, emit }: LibraryHandlerDeps): HandlerTable<MarkMethods> {
  return {
    libraryStar: async ({ imageId, starred }) => {
      if (!repo.setStarred(imageId, starred)) notFound('image', imageId);
      emit('library:changed', { kind: 'image', id: imageId });
      return repo.getImage(imageId) ?? notFound('image', imageId);
    },
    libraryMark: async ({ imageIds, starred, rating, rejected }) => {
      const images = repo.mark(imageIds, { starred, rating, rejected });
      const ids = images.map((i) => i.id);
      emit('library:changed', { kind: 'image', id: ids[0] as string, ids });
      return images;
    },
    libraryRenameSession: async ({ sessionId, title }) => {
      if (!repo.renameSession(sessionId, title)) notFound('session', sessionId);
      emit('library:changed', { kind: 'session', id: sessionId });
      return repo.sessionSummary(sessionId) ?? notFound('session', sessionId);
    },
  };
}

function boardHandlers({ repo, emit, now = Date.now }: LibraryHandlerDeps): HandlerTable<BoardMethods> {
  const boardChanged = (id: string, imageIds?: string[]): void =>
    emit('library:changed', imageIds ? { kind: 'board', id, ids: [...new Set(imageIds)] } : { kind: 'board', id });
  const requireImages = (ids: readonly string[]) => repo.requireImages(ids);
  return {
    boardList: async () => repo.boards.list(),
    boardCreate: async ({ name }) => {
      const board = repo.boards.create(name, now());
      boardChanged(board.id);
      return board;
    },
    boardRename: async ({ boardId, name }) => {
      const board = repo.boards.rename(boardId, name, now());
      boardChanged(boardId);
      return board;
    },
    boardDelete: async ({ boardId }) => {
      repo.boards.delete(boardId);
      boardChanged(boardId);
      return { deleted: true as const };
    },
    boardAdd: async ({ boardId, imageIds }) => {
      const board = repo.boards.add(boardId, imageIds, now(), requireImages);
      boardChanged(boardId, imageIds);
      return board;
    },
    boardRemove: async ({ boardId, imageIds }) => {
      const board = repo.boards.remove(boardId, imageIds, now(), requireImages);
      boardChanged(boardId, imageIds);
      return board;
    },
    smartBoardList: async () => repo.boards.smartList(),
    smartBoardSave: async (input) => {
      const board = repo.boards.smartSave(input, now());
      emit('library:changed', { kind: 'smart_board', id: board.id });
      return board;
    },
    smartBoardDelete: async ({ id }) => {
      repo.boards.smartDelete(id);
      emit('library:changed', { kind: 'smart_board', id });
      return { deleted: true as const };
    },
  };
}

export function createLibraryHandlers(deps: LibraryHandlerDeps): HandlerTable<LibraryMethods> {
  return { ...readHandlers(deps), ...markHandlers(deps), ...boardHandlers(deps) };
}
