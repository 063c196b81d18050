// Every react-query cache key of the renderer, from one place. A read's key is its family (what it is refreshed
// with), then the name of the IPC method that answers it (typed: a key cannot name a method that does not exist),
// then what it asks. Invalidating a family (`queryKeys.images()`) refreshes every key under it
// (`queryKeys.image(id)`), so a query and the code that invalidates it can never disagree on spelling.
import type { GalleryFilters } from '../../src-shared/ipc/library.ts';
import type { IpcMethodName, MethodInputOf } from './ipc-types.ts';

/** The key of one read: family, method, then the read's own arguments. */
export function readKey<F extends string, M extends IpcMethodName, A extends readonly unknown[]>(family: F, method: M, ...args: A): readonly [F, M, ...A] {
  return [family, method, ...args] as const;
}

export const queryKeys = {
  settings: () => readKey('settings', 'settingsGet'),
  notices: () => readKey('app', 'appNotices'),
  running: () => readKey('running', 'generateRunning'),
  localStatus: () => readKey('local-status', 'localStatus'),
  /** The local service's request ledger under a search (the Local service tab's request list). */
  localRequests: (filter: MethodInputOf<'localRequests'>) => readKey('local-requests', 'localRequests', filter),

  galleries: () => ['gallery'] as const,
  gallery: (filters: GalleryFilters) => readKey('gallery', 'libraryGallery', filters),
  /** An image's place in the gallery's order under some filters (the viewer's previous / next). */
  neighbors: (filters: GalleryFilters, imageId: string) => readKey('gallery', 'libraryNeighbors', filters, imageId),
  /** Every image id that passes the filters (the first 5000): which selected images the filters hide. */
  matchingIds: (filters: GalleryFilters) => readKey('gallery', 'libraryImageIds', filters),
  images: () => ['image'] as const,
  image: (imageId: string) => readKey('image', 'libraryGetImage', imageId),
  turns: () => ['turn'] as const,
  turn: (turnId: string) => readKey('turn', 'libraryGetTurn', turnId),
  sessions: () => ['session'] as const,
  session: (sessionId: string) => readKey('session', 'libraryGetSession', sessionId),
  /** Whether the library has any session at all (the empty stage's hint). */
  anySession: () => readKey('session', 'librarySessions', '*any'),
  allSessionTurns: () => ['session-turns'] as const,
  sessionTurns: (sessionId: string) => readKey('session-turns', 'libraryListTurns', sessionId),
  boards: () => readKey('board', 'boardList'),
  smartBoards: () => readKey('smart-board', 'smartBoardList'),
  boardFirstImages: () => ['board-first-image'] as const,
  /** The first image of a board and how many it holds (the export dialog's preview). */
  boardFirstImage: (boardId: string) => readKey('board-first-image', 'libraryImageIds', boardId),

  inspectorStatus: () => readKey('inspector', 'inspectorStatus'),
  inspectorList: () => readKey('inspector', 'inspectorList'),
  /** Diagnoses come rendered in the UI language, so the language is part of the key. */
  inspectorRequest: (requestId: string, language: string) => readKey('inspector', 'inspectorGet', requestId, language),
};
