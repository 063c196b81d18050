// IPC: the library (sessions, turns, images, stars) and files on disk.
import { z } from 'zod';
import { MODEL_IDS, PURPOSE_IDS } from '../catalog.ts';
import { method } from './contract.ts';
import type { ImageRecord, TurnRecord } from './generation.ts';
import type { EnvironmentName } from './settings.ts';

export interface SessionSummary {
  id: string;
  serviceSessionId: string | null;
  environment: EnvironmentName;
  /** The local title if set, else the service's ('API generation'). */
  title: string;
  localTitle: string | null;
  createdAt: number;
  updatedAt: number;
  turnCount: number;
  imageCount: number;
}

export const GalleryFiltersSchema = z.object({
  query: z.string().max(200).optional(),
  model: z.enum(MODEL_IDS).optional(),
  purpose: z.enum(PURPOSE_IDS).optional(),
  /** ms since epoch, inclusive. */
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  starred: z.boolean().optional(),
});
export type GalleryFilters = z.infer<typeof GalleryFiltersSchema>;

export interface GalleryGroup {
  session: SessionSummary;
  /** The session's images that pass the filters, newest first. */
  images: ImageRecord[];
}

export interface GalleryPage {
  groups: GalleryGroup[];
  nextCursor: string | null;
  totals: { sessions: number; images: number };
}

export interface ImageDetail {
  image: ImageRecord;
  turn: TurnRecord;
  /** Images this image's turn used as references. */
  references: ImageRecord[];
  /** Turns that used this image as a reference. */
  usedIn: Array<{ turnId: string; sessionId: string; startedAt: number; images: ImageRecord[] }>;
}

export const libraryMethods = {
  libraryGallery: method<GalleryPage>()(
    'library:gallery',
    z.object({ filters: GalleryFiltersSchema, cursor: z.string().nullable(), limit: z.number().int().min(1).max(200) }),
  ),
  /** Sessions newest first (by last activity), turns without images included; `limit` counts sessions. */
  librarySessions: method<{ sessions: SessionSummary[]; nextCursor: string | null }>()(
    'library:sessions',
    z.object({ cursor: z.string().nullable(), limit: z.number().int().min(1).max(200) }),
  ),
  /** One session's summary (e.g. the title of the session the compose panel continues). */
  libraryGetSession: method<SessionSummary>()('library:get-session', z.object({ sessionId: z.string() })),
  libraryListTurns: method<TurnRecord[]>()('library:list-turns', z.object({ sessionId: z.string() })),
  libraryGetTurn: method<TurnRecord>()('library:get-turn', z.object({ turnId: z.string() })),
  libraryGetImage: method<ImageDetail>()('library:get-image', z.object({ imageId: z.string() })),
  libraryStar: method<ImageRecord>()('library:star', z.object({ imageId: z.string(), starred: z.boolean() })),
  libraryRenameSession: method<SessionSummary>()(
    'library:rename-session',
    z.object({ sessionId: z.string(), title: z.string().trim().min(1).max(120) }),
  ),
  /** Export the full PNG through a save dialog; null when the user cancelled. */
  filesExport: method<{ path: string | null }>()('files:export', z.object({ imageId: z.string() })),
  /** Start an OS drag of the full PNG(s) out of the window. */
  filesStartDrag: method<{ started: boolean }>()('files:start-drag', z.object({ imageIds: z.array(z.string()).min(1).max(50) })),
  /** Open an http(s) link the app itself made (help pages, the service's site). */
  shellOpenExternal: method<{ opened: boolean }>()('shell:open-external', z.object({ url: z.string().url() })),
};
