// Migration 0740 on a library an earlier version wrote: batches that ran built-in shot lists before the lists kept
// their words. A list whose batch ran its shipped Chinese names keeps Chinese words after the upgrade (in an English
// UI too), so the next plan still finds those shots made; a list a batch ran with the user's own names, and a list no
// batch ran, follow the UI language as before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogRepo } from '../batch/catalog-repo.ts';
import { openLibraryDatabase } from './database.ts';
import { MIGRATIONS } from './migrations/index.ts';

/** A library.db as the version before 0740 left it, with its batches; answers its path. */
function legacyLibrary(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'studio-m0740-')), 'library.db');
  const db = openLibraryDatabase(file, MIGRATIONS.filter((m) => m.version < 740));
  const batch = db.prepare(
    `INSERT INTO batches (id, name, environment, shot_list_id, shot_list_name, state, budget, concurrency, planned, created_at, updated_at)
     VALUES (?, 'b', 'local', ?, 'list', 'done', NULL, 1, 32, ?, ?)`,
  );
  const job = db.prepare(
    `INSERT INTO batch_jobs (id, batch_id, position, product_id, sku, product_name, shot_index, shot_name, purpose, session_id, request, estimate, status)
     VALUES (?, ?, ?, 'pr_1', 'SKU-1', 'Mug', ?, ?, 'free', 'ls_1', '{}', 16, 'cancelled')`,
  );
  // White only ran in Chinese; the ads list ran with the user's own names (an edit); the Chinese marketplace list never ran.
  batch.run('bt_white', 'sl_preset_white_only', 1, 1);
  ['白底主图', '纯白底'].forEach((name, i) => job.run(`bj_w${i}`, 'bt_white', i, i, name));
  batch.run('bt_ads', 'sl_preset_ads', 2, 2);
  ['banner', 'story'].forEach((name, i) => job.run(`bj_a${i}`, 'bt_ads', i, i, name));
  db.close();
  return file;
}

describe('migration 0740 on an existing library', () => {
  it('keeps the words of built-in lists that batches ran as shipped; the others follow the UI language', () => {
    const db = openLibraryDatabase(legacyLibrary());
    expect(db.prepare('SELECT list_id, language, batch_id FROM preset_words').all()).toEqual([{ list_id: 'sl_preset_white_only', language: 'zh', batch_id: 'bt_white' }]);
    const catalog = new CatalogRepo(db);
    expect(catalog.getShotList('sl_preset_white_only', 'en')?.shots.map((s) => s.name)).toEqual(['白底主图', '纯白底']);
    expect(catalog.getShotList('sl_preset_ads', 'en')?.shots.map((s) => s.name)).toEqual(['wide-lifestyle', 'wide-studio', 'story-lifestyle', 'story-studio']);
    expect(catalog.getShotList('sl_preset_cn_marketplace', 'en')?.shots.map((s) => s.name)).toEqual(['main', 'detail-1', 'detail-2', 'buyer-show']);
    db.close();
  });
});
