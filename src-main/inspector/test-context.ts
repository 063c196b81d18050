// A real inspector context for tests: a migrated library database file in a data folder (where the inspector
// opens its own inspector.db), the secret store (the OS keychain when one answers, memory otherwise), recorded
// events. Caps and timings are options of createInspectorHandlers (InspectorOptions).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { IpcEventName, IpcEvents } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { openLibraryDatabase } from '../library/database.ts';
import { openSecretStore, type SecretStore } from '../secrets/secret-store.ts';
import type { InspectorContext, LocalServiceAdmin } from './context.ts';
import { INSPECTOR_FILE } from './database.ts';

export interface TestContext extends InspectorContext {
  events: Array<{ event: IpcEventName; payload: unknown }>;
  dbFile: string;
  /** The inspector's own database file (database.ts), created when handlers start. */
  inspectorDbFile: string;
  secretStore: SecretStore;
  setLanguage(language: Language): void;
  setLocal(local: LocalServiceAdmin | null): void;
  setApi(api: { baseUrl: string; apiKey: string | null } | null): void;
}

export async function createTestContext(options: { dir?: string; keychainService?: string; db?: DatabaseSync } = {}): Promise<TestContext> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'inspector-'));
  const dbFile = join(dir, 'library.db');
  const db = options.db ?? openLibraryDatabase(dbFile);
  const secretStore = await openSecretStore({ service: options.keychainService ?? `image-studio-inspector-test-${randomUUID()}` });
  let language: Language = 'en';
  let local: LocalServiceAdmin | null = null;
  let api: { baseUrl: string; apiKey: string | null } | null = null;
  const events: TestContext['events'] = [];
  return {
    db,
    dbFile,
    inspectorDbFile: join(dir, INSPECTOR_FILE),
    dataDir: dir,
    secretStore,
    secrets: secretStore,
    events,
    emit<E extends IpcEventName>(event: E, payload: IpcEvents[E]) {
      events.push({ event, payload });
    },
    language: () => language,
    setLanguage: (l) => {
      language = l;
    },
    localAdmin: async () => local,
    setLocal: (l) => {
      local = l;
    },
    currentApi: async () => api,
    setApi: (a) => {
      api = a;
    },
  };
}
