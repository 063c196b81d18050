// Settings in the data folder as a zod-validated JSON file (no secrets), written atomically. A damaged file
// is kept aside under a name of its own (`settings.json.damaged-<stamp>`) and the last copy that parsed
// (`settings.json.bak`) is restored, or the defaults; `recovery` says which (docs/main-process.md
// "Recovery of local data").
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { StoredSettingsSchema, type StoredSettings } from '../../src-shared/ipc/settings.ts';
import { damagedName } from '../library/index.ts';

export type SettingsRecovery =
  | { code: 'settings_restored'; params: { damagedPath: string } }
  | { code: 'settings_reset'; params: { damagedPath: string } };

/** Writes `text` so that `file` holds either the old or the new content after a crash, never a mix. */
export function writeFileAtomic(file: string, text: string): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  // The rename is durable once the folder is synced; Windows cannot open a folder for that, and does not need it.
  try {
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    // best effort where the OS refuses
  }
}

function serialize(settings: StoredSettings): string {
  return `${JSON.stringify(settings, null, 2)}\n`;
}

export class SettingsStore {
  readonly file: string;
  /** The last file that parsed; refreshed only from valid settings. */
  readonly backupFile: string;
  /** Set when settings.json was damaged at this start: what was kept and what was done. */
  readonly recovery: SettingsRecovery | null = null;
  private value: StoredSettings;
  private readonly listeners = new Set<(settings: StoredSettings) => void>();

  constructor(dataDir: string, now: () => Date = () => new Date()) {
    this.file = join(dataDir, 'settings.json');
    this.backupFile = `${this.file}.bak`;
    const loaded = this.load(now);
    this.value = loaded.value;
    this.recovery = loaded.recovery;
  }

  private static parse(file: string): { value: StoredSettings; text: string } | null {
    try {
      const text = readFileSync(file, 'utf8');
      return { value: StoredSettingsSchema.parse(JSON.parse(text)), text };
    } catch {
      return null;
    }
  }

  private load(now: () => Date): { value: StoredSettings; recovery: SettingsRecovery | null } {
    if (!existsSync(this.file)) return { value: StoredSettingsSchema.parse({}), recovery: null };
    const current = SettingsStore.parse(this.file);
    if (current) {
      const backup = existsSync(this.backupFile) ? readFileSync(this.backupFile, 'utf8') : null;
      if (backup !== current.text) writeFileAtomic(this.backupFile, current.text);
      return { value: current.value, recovery: null };
    }
    // Never overwrite an earlier damaged copy: each damage gets its own name.
    const damagedPath = damagedName(this.file, now());
    renameSync(this.file, damagedPath);
    const backup = existsSync(this.backupFile) ? SettingsStore.parse(this.backupFile) : null;
    if (backup) {
      writeFileAtomic(this.file, serialize(backup.value));
      return { value: backup.value, recovery: { code: 'settings_restored', params: { damagedPath } } };
    }
    return { value: StoredSettingsSchema.parse({}), recovery: { code: 'settings_reset', params: { damagedPath } } };
  }

  get(): StoredSettings {
    return structuredClone(this.value);
  }

  /** Called after every successful update with the new settings. */
  onChange(listener: (settings: StoredSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies a change and writes the file atomically; the last-known-good copy follows it. */
  update(change: (draft: StoredSettings) => void): StoredSettings {
    const draft = structuredClone(this.value);
    change(draft);
    const next = StoredSettingsSchema.parse(draft);
    const text = serialize(next);
    writeFileAtomic(this.file, text);
    writeFileAtomic(this.backupFile, text);
    this.value = next;
    for (const listener of this.listeners) listener(structuredClone(next));
    return structuredClone(next);
  }
}
