// Settings in the data folder as a zod-validated JSON file (no secrets). A damaged file falls back to the
// defaults and is kept aside as `settings.json.bad`, so nothing the user wrote is silently lost.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { StoredSettingsSchema, type StoredSettings } from '../../src-shared/ipc/settings.ts';

export class SettingsStore {
  readonly file: string;
  private value: StoredSettings;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'settings.json');
    this.value = this.load();
  }

  private load(): StoredSettings {
    if (!existsSync(this.file)) return StoredSettingsSchema.parse({});
    try {
      return StoredSettingsSchema.parse(JSON.parse(readFileSync(this.file, 'utf8')));
    } catch {
      renameSync(this.file, `${this.file}.bad`);
      return StoredSettingsSchema.parse({});
    }
  }

  get(): StoredSettings {
    return structuredClone(this.value);
  }

  /** Applies a change and writes the file atomically (temp file, then rename). */
  update(change: (draft: StoredSettings) => void): StoredSettings {
    const draft = structuredClone(this.value);
    change(draft);
    const next = StoredSettingsSchema.parse(draft);
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, this.file);
    this.value = next;
    return structuredClone(next);
  }
}
