// IPC: the library (sessions, turns, images, stars) and files on disk.
import { z } from 'zod';
import { MODEL_IDS, PURPOSE_IDS } from '../catalog.ts';
import { IdSchema, method } from './contract.ts';
import { oneLineName } from './text-fields.ts';
import type { ImageRecord, TurnRecord } from './generation.ts';
import type { EnvironmentName } from './settings.ts';

export interface SessionSummary {
  id: string;
  serviceSessionId: string | null;
  environment: EnvironmentName;
  /**
   * What the gallery shows: the user's title (`localTitle`) if set, else the automatic one made from the first
   * prompt (at most 48 characters, cut at a word; `· 14:05` added when another session already shows the same),
   * else the service's ('API generation').
   */
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
  /** Images rated at least this (1–5). */
  minRating: z.number().int().min(1).max(5).optional(),
  /** `hide`: only images not rejected; `only`: only rejected ones; absent: both. */
  rejected: z.enum(['hide', 'only']).optional(),
  /** Only images on this board (an unknown board shows nothing). */
  boardId: IdSchema.optional(),
  /** Only images of this session. */
  sessionId: IdSchema.optional(),
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
  /** The boards this image is on, by name. */
  boards: Array<{ id: string; name: string }>;
}

/** A board: images the user put together by hand. */
export interface Board {
  id: string;
  name: string;
  imageCount: number;
  /** The image added to it last (null for an empty board). */
  coverImageId: string | null;
  createdAt: number;
  /** Last rename, or last image added or removed. */
  updatedAt: number;
}

/** A smart board: saved gallery filters, shown as a board whose images are whatever passes them now. */
export interface SmartBoard {
  id: string;
  name: string;
  filters: GalleryFilters;
  createdAt: number;
  updatedAt: number;
}

/** Where an image stands in the gallery's order under some filters (the loupe's previous / next). */
export interface ImageNeighbors {
  /** 0-based position in the gallery's order (where it would stand when it no longer passes the filters). */
  index: number;
  /** Images that pass the filters. */
  total: number;
  prev: string | null;
  next: string | null;
  /** False when the image itself does not pass the filters (e.g. it was just rejected while rejects are hidden). */
  inFilter: boolean;
}

const ImageIdSchema = IdSchema;
/** Many images at once (a selection); duplicates count once. */
const ImageIdsSchema = z.array(ImageIdSchema).min(1).max(1000);
const BoardIdSchema = IdSchema;
/** Trimmed, 1–80 characters, no control characters; unique without regard to case. */
export const BoardNameSchema = oneLineName(80);

export const LibraryMarkSchema = z
  .object({
    imageIds: ImageIdsSchema,
    starred: z.boolean().optional(),
    /** 0 clears the rating. */
    rating: z.number().int().min(0).max(5).optional(),
    rejected: z.boolean().optional(),
  })
  .refine((m) => m.starred !== undefined || m.rating !== undefined || m.rejected !== undefined, {
    message: 'give at least one mark: starred, rating or rejected',
  });

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
  libraryGetSession: method<SessionSummary>()('library:get-session', z.object({ sessionId: IdSchema })),
  libraryListTurns: method<TurnRecord[]>()('library:list-turns', z.object({ sessionId: IdSchema })),
  libraryGetTurn: method<TurnRecord>()('library:get-turn', z.object({ turnId: IdSchema })),
  libraryGetImage: method<ImageDetail>()('library:get-image', z.object({ imageId: IdSchema })),
  /**
   * Many images in one call (a dropped file's references, a selection): the ones the library has, in the order
   * asked (duplicates once), and the ids it does not have. At most 1000 ids; more is `invalid_input`, refused
   * before any query.
   */
  libraryGetImages: method<{ images: ImageRecord[]; missing: string[] }>()('library:get-images', z.object({ imageIds: ImageIdsSchema })),
  libraryStar: method<ImageRecord>()('library:star', z.object({ imageId: IdSchema, starred: z.boolean() })),
  /**
   * Culling marks on many images at once, in one transaction: star, rating (0 = none) and/or reject; marks not
   * given stay as they are. Answers the images in the order asked (duplicates once). One unknown id refuses
   * the whole call (`images_not_found`), nothing changed. Emits one `library:changed {kind: 'image', id, ids}`.
   */
  libraryMark: method<ImageRecord[]>()('library:mark', LibraryMarkSchema),
  /**
   * Previous and next image in the gallery's exact order under `filters`, across sessions and pages, with the
   * image's 0-based position and the number that pass. An image that does not pass (`inFilter: false`) is placed
   * where it would stand if it did. Unknown image: `not_found`.
   */
  libraryNeighbors: method<ImageNeighbors>()('library:neighbors', z.object({ filters: GalleryFiltersSchema, imageId: ImageIdSchema })),
  /** The first `limit` image ids in the gallery's order under `filters` (select all), and how many pass. */
  libraryImageIds: method<{ ids: string[]; total: number }>()(
    'library:image-ids',
    z.object({ filters: GalleryFiltersSchema, limit: z.number().int().min(1).max(5000) }),
  ),
  /** Every board, by name. */
  boardList: method<Board[]>()('board:list', z.object({})),
  /** A new empty board; `board_name_taken` when another board has that name (any case). */
  boardCreate: method<Board>()('board:create', z.object({ name: BoardNameSchema })),
  /** `board_not_found` for an unknown board; `board_name_taken` as for create (its own name in another case is fine). */
  boardRename: method<Board>()('board:rename', z.object({ boardId: BoardIdSchema, name: BoardNameSchema })),
  /** Deletes the board (its images stay in the library). */
  boardDelete: method<{ deleted: true }>()('board:delete', z.object({ boardId: BoardIdSchema })),
  /** Adds images (already there: kept as they are). Unknown image ids refuse the whole call. */
  boardAdd: method<Board>()('board:add', z.object({ boardId: BoardIdSchema, imageIds: ImageIdsSchema })),
  /** Removes images from the board (not from the library); ids not on it are ignored, unknown image ids refuse the call. */
  boardRemove: method<Board>()('board:remove', z.object({ boardId: BoardIdSchema, imageIds: ImageIdsSchema })),
  /** Every smart board, by name. */
  smartBoardList: method<SmartBoard[]>()('smart-board:list', z.object({})),
  /** Creates (no `id`) or replaces the name and filters of a smart board; names are unique among smart boards. */
  smartBoardSave: method<SmartBoard>()(
    'smart-board:save',
    z.object({ id: BoardIdSchema.optional(), name: BoardNameSchema, filters: GalleryFiltersSchema }),
  ),
  smartBoardDelete: method<{ deleted: true }>()('smart-board:delete', z.object({ id: BoardIdSchema })),
  libraryRenameSession: method<SessionSummary>()(
    'library:rename-session',
    z.object({ sessionId: IdSchema, title: oneLineName(120) }),
  ),
  /** Export the full PNG through a save dialog; null when the user cancelled. */
  filesExport: method<{ path: string | null }>()('files:export', z.object({ imageId: IdSchema })),
  /** Start an OS drag of the full PNG(s) out of the window. */
  filesStartDrag: method<{ started: boolean }>()('files:start-drag', z.object({ imageIds: z.array(IdSchema).min(1).max(50) })),
  /** Open an http(s) link the app itself made (help pages, the service's site). */
  shellOpenExternal: method<{ opened: boolean }>()('shell:open-external', z.object({ url: z.string().url() })),
};
