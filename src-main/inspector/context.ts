// What the inspector needs from the app: the composition root (app/create-app.ts) builds this object; keeping
// the list here shows exactly what the inspector may touch.
import type { DatabaseSync } from 'node:sqlite';
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import type { EnvironmentName } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';

export interface InspectorSecrets {
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<unknown>;
  /** Whether this entry lives only in memory for this run (no system keychain). */
  isMemoryOnly?(name: string): boolean;
}

/** The bundled local service's admin API, for the one-click "point the webhook at the inspector". */
export interface LocalServiceAdmin {
  baseUrl: string;
  adminToken: string;
  /** The account the app seeded (its webhook is the one we configure). */
  accountId: string;
}

export interface InspectorContext {
  /** library.db: the inspector's settings (inspector_settings). Captures live in `<dataDir>/inspector.db` (database.ts). */
  db: DatabaseSync;
  secrets: InspectorSecrets;
  emit<E extends IpcEventName>(event: E, payload: IpcEvents[E]): void;
  language(): Language;
  /** The app data folder, where the inspector opens inspector.db. */
  dataDir: string;
  /** The Local environment's admin access, or null when the service is not running. */
  localAdmin(): Promise<LocalServiceAdmin | null>;
  /** Base URL and key of the current environment, for fetching a publication (needs documents:read). */
  currentApi(): Promise<{ baseUrl: string; apiKey: string | null; environment?: EnvironmentName } | null>;
}
