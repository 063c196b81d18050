// IPC handlers of settings, environments and keys (src-shared/ipc/settings.ts). Every change answers the new
// settings state and tells the windows with `settings:changed`; a key never leaves main.
import type { SettingsState } from '../../src-shared/ipc/settings.ts';
import type { Language } from '../../src-shared/language.ts';
import { renderError } from '../domain/errors.ts';
import { fromServiceAnswer } from '../domain/service-answer.ts';
import type { Emit } from '../ports/events.ts';
import type { HandlerTable } from '../ports/ipc-table.ts';
import { problemText, type SecretStore } from '../secrets/index.ts';
import type { Environments } from './environments.ts';
import type { SettingsStore } from './settings-store.ts';

export type SettingsMethods =
  | 'settingsGet' | 'settingsSetLanguage' | 'settingsSetTheme'
  | 'environmentSelect' | 'environmentSetRemote' | 'keySet' | 'keyClear' | 'keyTest';

export interface SettingsHandlerDeps {
  settings: SettingsStore;
  secrets: SecretStore;
  environments: Environments;
  emit: Emit;
  language: () => Language;
  now?: () => number;
}

export async function settingsState(s: Pick<SettingsHandlerDeps, 'settings' | 'secrets' | 'environments'>): Promise<SettingsState> {
  const stored = s.settings.get();
  const local = s.environments.localState;
  const status = s.secrets.status();
  return {
    language: stored.language,
    theme: stored.theme,
    environment: stored.environment,
    environments: {
      local: { ...(await s.environments.info('local')), serviceStatus: local.status, serviceError: local.error },
      remote: await s.environments.info('remote'),
    },
    keychain: { available: status.available, backend: status.backend, problem: problemText(status, stored.language) },
  };
}

export function createSettingsHandlers(s: SettingsHandlerDeps): HandlerTable<SettingsMethods> {
  const now = s.now ?? Date.now;
  const state = () => settingsState(s);
  /** After any change: the windows re-read the settings, the caller gets the new state at once. */
  const changed = async (): Promise<SettingsState> => {
    s.emit('settings:changed', {});
    return state();
  };
  return {
    settingsGet: state,
    settingsSetLanguage: async ({ language }) => {
      s.settings.update((d) => void (d.language = language));
      return changed();
    },
    settingsSetTheme: async ({ theme }) => {
      s.settings.update((d) => void (d.theme = theme));
      return changed();
    },
    environmentSelect: async ({ environment }) => {
      s.settings.update((d) => void (d.environment = environment));
      return changed();
    },
    environmentSetRemote: async ({ baseUrl }) => {
      await s.environments.setRemoteBaseUrl(baseUrl);
      return changed();
    },
    keySet: async ({ environment, key, memoryOnly }) => {
      await s.environments.setKey(environment, key, memoryOnly ?? false);
      return changed();
    },
    keyClear: async ({ environment }) => {
      await s.environments.clearKey(environment);
      return changed();
    },
    keyTest: async ({ environment }) => {
      const started = now();
      const client = await s.environments.client(environment, s.language());
      const result = await client.testKey();
      const latencyMs = now() - started;
      if (result.ok) return { ok: true, latencyMs, error: null };
      if (result.kind === 'network') {
        // The designer reads a sentence in the UI language; the socket error stays as the technical cause.
        const code = result.failure === 'unreachable' ? 'connection_unreachable' : 'connection_no_answer';
        const error = renderError({ code, params: { cause: result.message }, details: { failure: result.failure } }, s.language());
        return { ok: false, latencyMs, error: { ...error, code: 'service_unreachable' } };
      }
      return { ok: false, latencyMs, error: renderError(fromServiceAnswer(result.error, s.language()), s.language()) };
    },
  };
}
