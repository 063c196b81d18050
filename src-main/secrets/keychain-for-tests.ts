// For tests whose assertions need the OS keychain (gnome-keyring over D-Bus): null where it is reachable,
// else why not, for the name of the test that is skipped (a skip says so; it never passes on a memory store).
// Under CI=true the keychain is expected: the tests run, and fail without it.
import { randomUUID } from 'node:crypto';
import { openSecretStore } from './secret-store.ts';

export async function keychainSkipReason(): Promise<string | null> {
  if (process.env.CI === 'true') return null;
  const store = await openSecretStore({ service: `image-studio-test-probe-${randomUUID()}` });
  return store.status().backend === 'keychain' ? null : 'skipped: no OS keychain reachable; run under dbus-run-session with gnome-keyring unlocked';
}

/** The test's name, with the reason it is skipped when it is. */
export function keychainTestName(name: string, skipReason: string | null): string {
  return skipReason === null ? name : `${name} (${skipReason})`;
}
