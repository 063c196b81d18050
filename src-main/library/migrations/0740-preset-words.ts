// The language a built-in shot list's words are kept in (issue 26, docs/catalog.md "Shot lists"): an unedited
// built-in list shows its shots' names and prompt additions in the UI language until a batch runs it; from then on
// it keeps the words that batch ran with, since picks, the board's columns, export file names and "only what is
// missing" key on shot names. batch/catalog-repo.ts owns the rule. Batches run before this migration are read for
// the language their shot names are in, so a list used then keeps its words too.
import { presetLanguageOf, SHOT_LIST_PRESETS } from '../../../src-shared/shot-lists.ts';
import type { Migration } from './types.ts';

export const migration: Migration = {
  version: 740,
  name: '0740-preset-words',
  up(db) {
    db.exec(`
      CREATE TABLE preset_words (
        list_id TEXT PRIMARY KEY,
        language TEXT NOT NULL CHECK (language IN ('zh', 'en')),
        batch_id TEXT NOT NULL,
        set_at INTEGER NOT NULL
      );
    `);
    const firstBatch = db.prepare('SELECT id, created_at FROM batches WHERE shot_list_id = ? ORDER BY created_at, id LIMIT 1');
    const shotNames = db.prepare('SELECT DISTINCT shot_name FROM batch_jobs WHERE batch_id = ?');
    const keep = db.prepare('INSERT INTO preset_words (list_id, language, batch_id, set_at) VALUES (?, ?, ?, ?)');
    for (const preset of SHOT_LIST_PRESETS) {
      const batch = firstBatch.get(preset.id) as { id: string; created_at: number } | undefined;
      if (!batch) continue;
      const names = (shotNames.all(batch.id) as Array<{ shot_name: string }>).map((r) => r.shot_name);
      // An edited list's own names are no language's shipped names: nothing is kept for it.
      const language = presetLanguageOf(preset, names);
      if (language) keep.run(preset.id, language, batch.id, batch.created_at);
    }
  },
};
