// Boards (images the user put together) and smart boards (saved gallery filters) in library.db (migration 0300).
// Names are trimmed by the contract and unique without regard to case: `name_key` is the NFKC, lower-case form,
// so "Spring" and "ＳＰＲＩＮＧ" are the same name. Every change is one statement or one transaction.
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { newLocalId } from '../domain/ids.ts';
import { GalleryFiltersSchema, type Board, type GalleryFilters, type SmartBoard } from '../../src-shared/ipc/library.ts';
import { StudioError } from '../domain/errors.ts';
import { transaction } from './database.ts';

type Row = Record<string, SQLInputValue>;

/** The form two names are compared in. */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

function num(v: SQLInputValue | undefined): number {
  return typeof v === 'number' ? v : Number(v ?? 0);
}
function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}

const BOARD_SELECT = `SELECT b.id, b.name, b.created_at, b.updated_at,
    (SELECT COUNT(*) FROM board_images bi WHERE bi.board_id = b.id) AS image_count,
    (SELECT bi.image_id FROM board_images bi INDEXED BY board_images_added WHERE bi.board_id = b.id ORDER BY bi.added_at DESC, bi.image_id DESC LIMIT 1) AS cover
  FROM boards b`;

function toBoard(row: Row): Board {
  return {
    id: str(row.id),
    name: str(row.name),
    imageCount: num(row.image_count),
    coverImageId: row.cover === null || row.cover === undefined ? null : str(row.cover),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

function toSmartBoard(row: Row): SmartBoard {
  // Filters were checked when saved; parsing again drops anything a later version of the contract removed.
  const parsed = GalleryFiltersSchema.safeParse(JSON.parse(str(row.filters_json)));
  return {
    id: str(row.id),
    name: str(row.name),
    filters: parsed.success ? parsed.data : {},
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

export class BoardsRepo {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  // ---- boards ----

  list(): Board[] {
    return (this.db.prepare(`${BOARD_SELECT} ORDER BY b.name_key, b.id`).all() as Row[]).map(toBoard);
  }

  get(boardId: string): Board | null {
    const row = this.db.prepare(`${BOARD_SELECT} WHERE b.id = ?`).get(boardId) as Row | undefined;
    return row ? toBoard(row) : null;
  }

  private require(boardId: string): void {
    if (!this.db.prepare('SELECT 1 AS found FROM boards WHERE id = ?').get(boardId)) throw new StudioError('board_not_found', { boardId });
  }

  /** `board_name_taken` when another row of `table` has the name (any case). */
  private requireFreeName(table: 'boards' | 'smart_boards', name: string, exceptId: string | null): void {
    const row = this.db.prepare(`SELECT id, name FROM ${table} WHERE name_key = ?`).get(nameKey(name)) as Row | undefined;
    if (row && str(row.id) !== exceptId) {
      throw new StudioError('board_name_taken', { name, existing: str(row.name), kind: table === 'boards' ? 'board' : 'smart' });
    }
  }

  create(name: string, now: number): Board {
    return transaction(this.db, () => {
      this.requireFreeName('boards', name, null);
      const id = newLocalId('bd_');
      this.db.prepare('INSERT INTO boards (id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(id, name, nameKey(name), now, now);
      return this.get(id) as Board;
    });
  }

  rename(boardId: string, name: string, now: number): Board {
    return transaction(this.db, () => {
      this.require(boardId);
      this.requireFreeName('boards', name, boardId);
      this.db.prepare('UPDATE boards SET name = ?, name_key = ?, updated_at = ? WHERE id = ?').run(name, nameKey(name), now, boardId);
      return this.get(boardId) as Board;
    });
  }

  /** Deletes the board and its memberships (ON DELETE CASCADE); the images stay. */
  delete(boardId: string): void {
    if (this.db.prepare('DELETE FROM boards WHERE id = ?').run(boardId).changes === 0) throw new StudioError('board_not_found', { boardId });
  }

  /**
   * Adds images to a board; ones already on it keep their place. Throws (nothing added) for an unknown board
   * or image.
   */
  add(boardId: string, imageIds: readonly string[], now: number, requireImages: (ids: readonly string[]) => void): Board {
    const ids = [...new Set(imageIds)];
    return transaction(this.db, () => {
      this.require(boardId);
      requireImages(ids);
      const insert = this.db.prepare(
        `INSERT INTO board_images (board_id, image_id, added_at, created_at, session_id)
         SELECT ?, id, ?, created_at, session_id FROM images WHERE id = ? ON CONFLICT DO NOTHING`,
      );
      for (const id of ids) insert.run(boardId, now, id);
      this.db.prepare('UPDATE boards SET updated_at = ? WHERE id = ?').run(now, boardId);
      return this.get(boardId) as Board;
    });
  }

  /** Takes images off a board (not out of the library); ids not on it are ignored. */
  remove(boardId: string, imageIds: readonly string[], now: number, requireImages: (ids: readonly string[]) => void): Board {
    const ids = [...new Set(imageIds)];
    return transaction(this.db, () => {
      this.require(boardId);
      requireImages(ids);
      const del = this.db.prepare('DELETE FROM board_images WHERE board_id = ? AND image_id = ?');
      for (const id of ids) del.run(boardId, id);
      this.db.prepare('UPDATE boards SET updated_at = ? WHERE id = ?').run(now, boardId);
      return this.get(boardId) as Board;
    });
  }

  /** The boards an image is on, by name. */
  boardsOf(imageId: string): Array<{ id: string; name: string }> {
    const rows = this.db
      .prepare('SELECT b.id, b.name FROM board_images bi JOIN boards b ON b.id = bi.board_id WHERE bi.image_id = ? ORDER BY b.name_key, b.id')
      .all(imageId) as Row[];
    return rows.map((r) => ({ id: str(r.id), name: str(r.name) }));
  }

  // ---- smart boards ----

  smartList(): SmartBoard[] {
    return (this.db.prepare('SELECT * FROM smart_boards ORDER BY name_key, id').all() as Row[]).map(toSmartBoard);
  }

  /** Creates a smart board (no id) or replaces the name and filters of one. */
  smartSave(input: { id?: string | undefined; name: string; filters: GalleryFilters }, now: number): SmartBoard {
    return transaction(this.db, () => {
      const id = input.id ?? newLocalId('sb_');
      if (input.id !== undefined && !this.db.prepare('SELECT 1 AS found FROM smart_boards WHERE id = ?').get(input.id)) {
        throw new StudioError('smart_board_not_found', { id: input.id });
      }
      this.requireFreeName('smart_boards', input.name, input.id ?? null);
      const filters = JSON.stringify(input.filters);
      this.db
        .prepare(
          `INSERT INTO smart_boards (id, name, name_key, filters_json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key, filters_json = excluded.filters_json, updated_at = excluded.updated_at`,
        )
        .run(id, input.name, nameKey(input.name), filters, now, now);
      return toSmartBoard(this.db.prepare('SELECT * FROM smart_boards WHERE id = ?').get(id) as Row);
    });
  }

  smartDelete(id: string): void {
    if (this.db.prepare('DELETE FROM smart_boards WHERE id = ?').run(id).changes === 0) throw new StudioError('smart_board_not_found', { id });
  }
}
