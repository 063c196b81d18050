// SQL for products and shot lists (migration 0400). Built-in presets live in code (src-shared/shot-lists.ts);
// a preset the user edits is stored under the preset's own id, and deleting that row brings the preset back.
// An unedited preset's shots are in the UI language until a batch runs it; then it keeps that batch's language
// (migration 0740, `preset_words`), so a language switch never renames shots a batch has used.
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { preparedOnce } from '../library/index.ts';
import type { Product, Shot, ShotList } from '../../src-shared/ipc/batch.ts';
import { newCatalogId } from '../domain/ids.ts';
import { LANGUAGES, type Language } from '../../src-shared/language.ts';
import { presetShots, SHOT_LIST_PRESETS } from '../../src-shared/shot-lists.ts';

type Row = Record<string, SQLInputValue>;

export interface ProductFields {
  sku: string;
  name: string;
  prompt: string;
  notes: string;
  referenceImageIds: string[];
}

function str(v: SQLInputValue | undefined): string {
  return typeof v === 'string' ? v : String(v ?? '');
}

export class CatalogRepo {

  private readonly sql: (text: string) => StatementSync;

  constructor(db: DatabaseSync) {
    this.sql = preparedOnce(db);
  }

  // ---- products ----

  listProducts(): Product[] {
    return (this.sql('SELECT * FROM products ORDER BY position, created_at').all() as Row[]).map(toProduct);
  }

  getProduct(id: string): Product | null {
    return this.productWhere('id', id);
  }

  productBySku(sku: string): Product | null {
    return this.productWhere('sku', sku);
  }

  /** The one product whose id or SKU (both unique) is `value`. */
  private productWhere(column: 'id' | 'sku', value: string): Product | null {
    const row = this.sql(`SELECT * FROM products WHERE ${column} = ?`).get(value) as Row | undefined;
    return row ? toProduct(row) : null;
  }

  createProduct(fields: ProductFields, now: number): Product {
    const id = newCatalogId('pr_');
    const position = Number((this.sql('SELECT COALESCE(MAX(position), 0) + 1 AS p FROM products').get() as Row).p);
    this.sql('INSERT INTO products (id, sku, name, prompt, notes, ref_image_ids, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(
      id, fields.sku, fields.name, fields.prompt, fields.notes, JSON.stringify(fields.referenceImageIds), position, now, now,
    );
    return this.getProduct(id) as Product;
  }

  updateProduct(id: string, fields: Partial<ProductFields>, now: number): Product | null {
    const current = this.getProduct(id);
    if (!current) return null;
    const next = { ...current, ...fields };
    this.sql('UPDATE products SET sku = ?, name = ?, prompt = ?, notes = ?, ref_image_ids = ?, updated_at = ? WHERE id = ?').run(
      next.sku, next.name, next.prompt, next.notes, JSON.stringify(next.referenceImageIds), now, id,
    );
    return this.getProduct(id);
  }

  deleteProduct(id: string): boolean {
    return this.sql('DELETE FROM products WHERE id = ?').run(id).changes > 0;
  }

  // ---- shot lists ----

  /** Presets first (as edited, if they were), then the user's lists by name. */
  listShotLists(language: Language): ShotList[] {
    const rows = new Map((this.sql('SELECT * FROM shot_lists ORDER BY name COLLATE NOCASE').all() as Row[]).map((r) => [str(r.id), r]));
    const kept = this.keptLanguages();
    const presets = SHOT_LIST_PRESETS.map((preset) => {
      const row = rows.get(preset.id);
      rows.delete(preset.id);
      return row ? toShotList(row, true) : presetList(preset, language, kept.get(preset.id) ?? null);
    });
    return [...presets, ...[...rows.values()].map((r) => toShotList(r, false))];
  }

  getShotList(id: string, language: Language): ShotList | null {
    const row = this.sql('SELECT * FROM shot_lists WHERE id = ?').get(id) as Row | undefined;
    const preset = SHOT_LIST_PRESETS.find((p) => p.id === id);
    if (row) return toShotList(row, preset !== undefined);
    return preset ? presetList(preset, language, this.keptLanguages().get(preset.id) ?? null) : null;
  }

  /**
   * A batch ran this built-in list (unedited) in `language`: from now on its shots keep those words in every UI
   * language, Reset included. The first batch decides; a list kept already stays as it is.
   */
  keepPresetWords(listId: string, language: Language, batchId: string, now: number): void {
    this.sql('INSERT INTO preset_words (list_id, language, batch_id, set_at) VALUES (?, ?, ?, ?) ON CONFLICT (list_id) DO NOTHING').run(listId, language, batchId, now);
  }

  /** The language each built-in list a batch ran keeps its words in. */
  private keptLanguages(): Map<string, Language> {
    const rows = this.sql('SELECT list_id, language FROM preset_words').all() as Row[];
    return new Map(rows.flatMap((r) => (LANGUAGES.includes(str(r.language) as Language) ? [[str(r.list_id), str(r.language) as Language] as const] : [])));
  }

  /** Creates (no id), or replaces a list or a preset by id. */
  saveShotList(id: string | null, name: string, shots: Shot[], now: number): string {
    const listId = id ?? newCatalogId('sl_');
    const preset = SHOT_LIST_PRESETS.find((p) => p.id === listId)?.preset ?? null;
    this.sql(
      `INSERT INTO shot_lists (id, name, preset, shots, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, shots = excluded.shots, updated_at = excluded.updated_at`,
    ).run(listId, name, preset, JSON.stringify(shots), now, now);
    return listId;
  }

  /** Deletes a user's list, or the edits of a preset (which then comes back as shipped). */
  deleteShotList(id: string): boolean {
    return this.sql('DELETE FROM shot_lists WHERE id = ?').run(id).changes > 0;
  }

  shotListExists(id: string): boolean {
    return SHOT_LIST_PRESETS.some((p) => p.id === id) || this.sql('SELECT 1 AS x FROM shot_lists WHERE id = ?').get(id) !== undefined;
  }
}

function toProduct(row: Row): Product {
  return {
    id: str(row.id),
    sku: str(row.sku),
    name: str(row.name),
    prompt: str(row.prompt),
    notes: str(row.notes),
    referenceImageIds: JSON.parse(str(row.ref_image_ids)) as string[],
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toShotList(row: Row, edited: boolean): ShotList {
  return {
    id: str(row.id),
    name: str(row.name),
    preset: row.preset === null || row.preset === undefined ? null : str(row.preset),
    edited,
    shots: JSON.parse(str(row.shots)) as Shot[],
    updatedAt: Number(row.updated_at),
  };
}

/** An unedited preset: named in the UI language; its shots in the language a batch ran it in, else the UI's. */
function presetList(preset: (typeof SHOT_LIST_PRESETS)[number], language: Language, kept: Language | null): ShotList {
  return { id: preset.id, name: preset.name[language], preset: preset.preset, edited: false, shots: presetShots(preset, kept ?? language), updatedAt: 0, keptLanguage: kept };
}
