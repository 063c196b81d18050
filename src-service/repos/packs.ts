// SQL for image packs, publications and publish idempotency keys (STYLE.md: repos hold queries, return null).
import type { DatabaseSync } from 'node:sqlite';

export interface PackRow {
  id: string;
  accountId: string;
  styleCode: string;
  imageIds: string[];
  saved: boolean;
  createdAt: number;
  updatedAt: number;
  versions: number;
}

export interface PublicationRow {
  id: number;
  packId: string;
  accountId: string;
  version: number;
  styleCode: string;
  imageIds: string[];
  publishedAt: number;
}

type Raw = Record<string, unknown>;

function toPack(r: Raw): PackRow {
  return {
    id: r.id as string,
    accountId: r.account_id as string,
    styleCode: r.style_code as string,
    imageIds: JSON.parse(r.image_ids as string) as string[],
    saved: r.saved === 1,
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
    versions: r.versions as number,
  };
}

function toPublication(r: Raw): PublicationRow {
  return {
    id: r.id as number,
    packId: r.pack_id as string,
    accountId: r.account_id as string,
    version: r.version as number,
    styleCode: r.style_code as string,
    imageIds: JSON.parse(r.image_ids as string) as string[],
    publishedAt: r.published_at as number,
  };
}

const PACK_COLUMNS = `p.*, (SELECT COUNT(*) FROM publications v WHERE v.pack_id = p.id) AS versions`;

export function createPacksRepo(db: DatabaseSync) {
  const statements = {
    insertPack: db.prepare(
      'INSERT INTO image_packs (id, account_id, style_code, image_ids, saved, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
    ),
    getPack: db.prepare(`SELECT ${PACK_COLUMNS} FROM image_packs p WHERE p.id = ?`),
    listPacks: db.prepare(`SELECT ${PACK_COLUMNS} FROM image_packs p WHERE p.account_id = ? ORDER BY p.created_at, p.rowid`),
    updatePack: db.prepare('UPDATE image_packs SET style_code = ?, image_ids = ?, saved = ?, updated_at = ? WHERE id = ?'),
    lastVersion: db.prepare('SELECT COALESCE(MAX(version), 0) AS v FROM publications WHERE pack_id = ?'),
    insertPublication: db.prepare(
      'INSERT INTO publications (pack_id, account_id, version, style_code, image_ids, published_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    getPublication: db.prepare('SELECT * FROM publications WHERE id = ?'),
    getKey: db.prepare('SELECT publication_id, created_at FROM publish_keys WHERE pack_id = ? AND idempotency_key = ?'),
    putKey: db.prepare(
      `INSERT INTO publish_keys (pack_id, idempotency_key, publication_id, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (pack_id, idempotency_key) DO UPDATE SET publication_id = excluded.publication_id, created_at = excluded.created_at`,
    ),
  };

  return {
    insertPack(pack: { id: string; accountId: string; styleCode: string; imageIds: string[]; now: number }): void {
      statements.insertPack.run(pack.id, pack.accountId, pack.styleCode, JSON.stringify(pack.imageIds), pack.now, pack.now);
    },
    getPack(id: string): PackRow | null {
      const row = statements.getPack.get(id) as Raw | undefined;
      return row ? toPack(row) : null;
    },
    listPacks(accountId: string): PackRow[] {
      return (statements.listPacks.all(accountId) as Raw[]).map(toPack);
    },
    updatePack(id: string, fields: { styleCode: string; imageIds: string[]; saved: boolean; now: number }): void {
      statements.updatePack.run(fields.styleCode, JSON.stringify(fields.imageIds), fields.saved ? 1 : 0, fields.now, id);
    },
    lastVersion(packId: string): number {
      return (statements.lastVersion.get(packId) as { v: number }).v;
    },
    insertPublication(p: Omit<PublicationRow, 'id'>): number {
      const result = statements.insertPublication.run(p.packId, p.accountId, p.version, p.styleCode, JSON.stringify(p.imageIds), p.publishedAt);
      return Number(result.lastInsertRowid);
    },
    getPublication(id: number): PublicationRow | null {
      const row = statements.getPublication.get(id) as Raw | undefined;
      return row ? toPublication(row) : null;
    },
    getIdempotencyKey(packId: string, key: string): { publicationId: number; createdAt: number } | null {
      const row = statements.getKey.get(packId, key) as { publication_id: number; created_at: number } | undefined;
      return row ? { publicationId: row.publication_id, createdAt: row.created_at } : null;
    },
    putIdempotencyKey(packId: string, key: string, publicationId: number, now: number): void {
      statements.putKey.run(packId, key, publicationId, now);
    },
  };
}

export type PacksRepo = ReturnType<typeof createPacksRepo>;
