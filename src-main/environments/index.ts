// Front door of environments: Local and Remote, their keys and the bundled local service, plus the settings
// file and the settings/key IPC handlers.
export { Environments, LOCAL_SEED, keyAccount, maskKey, type EnvironmentsDeps, type LocalServiceState } from './environments.ts';
export { SettingsStore } from './settings-store.ts';
export { createSettingsHandlers, settingsState, type SettingsMethods } from './handlers.ts';
