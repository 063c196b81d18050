// Every react-query cache key of the renderer, from one place. Keys are hierarchical: invalidating a prefix
// (`queryKeys.images()`) refreshes every key under it (`queryKeys.image(id)`), so a query and the mutation
// that invalidates it can never disagree on spelling.
import type { GalleryFilters } from '../../src-shared/ipc/library.ts';

export const queryKeys = {
  settings: () => ['settings'] as const,
  notices: () => ['app', 'notices'] as const,
  running: () => ['running'] as const,
  localStatus: () => ['local-status'] as const,

  galleries: () => ['gallery'] as const,
  gallery: (filters: GalleryFilters) => ['gallery', filters] as const,
  images: () => ['image'] as const,
  image: (imageId: string) => ['image', imageId] as const,
  turns: () => ['turn'] as const,
  turn: (turnId: string) => ['turn', turnId] as const,
  sessions: () => ['session'] as const,
  session: (sessionId: string) => ['session', sessionId] as const,
  /** Whether the library has any session at all (the empty stage's hint). */
  anySession: () => ['session', '*any'] as const,
  allSessionTurns: () => ['session-turns'] as const,
  sessionTurns: (sessionId: string) => ['session-turns', sessionId] as const,
  /** The first image of a board and how many it holds (the export dialog's preview). */
  boardFirstImage: (boardId: string) => ['board-first-image', boardId] as const,

  inspectorStatus: () => ['inspector', 'status'] as const,
  inspectorList: () => ['inspector', 'list'] as const,
  /** Diagnoses come rendered in the UI language, so the language is part of the key. */
  inspectorRequest: (requestId: string, language: string) => ['inspector', 'request', requestId, language] as const,
};
