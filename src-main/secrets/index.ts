// Front door of secrets: the OS keychain (or memory when it is unavailable) for keys and the webhook secret.
export { openSecretStore, problemText, type SecretAccount, type SecretStore, type SecretStoreStatus } from './secret-store.ts';
