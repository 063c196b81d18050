// SQL for generated images. Packs read this table too (images.deleted_at marks a cleaned-up image).
import type { DatabaseSync } from 'node:sqlite';
import { preparedOnce } from '../sqlite/index.ts';

export interface ImageRow {
  id: string;
  account_id: string;
  turn_id: string;
  idx: number;
  filename: string;
  width: number;
  height: number;
  created_at: number;
  deleted_at: number | null;
}

export function createImagesRepo(db: DatabaseSync) {
  const sql = preparedOnce(db);
  return {
    insert(row: Omit<ImageRow, 'deleted_at'>): void {
      sql('INSERT INTO images (id, account_id, turn_id, idx, filename, width, height, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)').run(row.id, row.account_id, row.turn_id, row.idx, row.filename, row.width, row.height, row.created_at);
    },
    findById(id: string): ImageRow | null {
      return (sql('SELECT * FROM images WHERE id = ?').get(id) as ImageRow | undefined) ?? null;
    },
    findByFilename(filename: string): ImageRow | null {
      return (sql('SELECT * FROM images WHERE filename = ?').get(filename) as ImageRow | undefined) ?? null;
    },
    markDeleted(id: string, at: number): void {
      sql('UPDATE images SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL').run(at, id);
    },
    /** A turn's images that were not deleted, in their order. */
    listLiveByTurn(turnId: string): ImageRow[] {
      return sql('SELECT * FROM images WHERE turn_id = ? AND deleted_at IS NULL ORDER BY idx').all(turnId) as unknown as ImageRow[];
    },
    /** The file name of every image row, deleted ones included. */
    allFilenames(): Set<string> {
      return new Set((sql('SELECT filename FROM images').all() as Array<{ filename: string }>).map((r) => r.filename));
    },
  };
}
export type ImagesRepo = ReturnType<typeof createImagesRepo>;
