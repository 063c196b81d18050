// What main-process features receive from the core. The inspector (src-main/inspector/) gets this object;
// it satisfies the inspector's own InspectorContext structurally.
import type { DatabaseSync } from 'node:sqlite';
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import type { DesktopShell } from './desktop-shell.ts';
import type { SettingsStore } from '../environments/settings-store.ts';
import type { AdminClient } from '../clients/admin-client.ts';
import type { SecretStore } from '../secrets/secret-store.ts';

export type Emit = <E extends IpcEventName>(event: E, payload: IpcEvents[E]) => void;

export interface StudioContext {
  dataDir: string;
  db: DatabaseSync;
  secrets: SecretStore;
  shell: DesktopShell;
  emit: Emit;
  settings: SettingsStore;
  language(): Language;
  /** The Local environment's admin access (base URL, admin token, the seeded account), or null. */
  localAdmin(): Promise<{ baseUrl: string; adminToken: string; accountId: string } | null>;
  /** The admin client of the running local service, or null. */
  localAdminClient(): AdminClient | null;
  /** Base URL and key of the current environment (main only; never sent to the renderer). */
  currentApi(): Promise<{ baseUrl: string; apiKey: string | null } | null>;
}
