import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keychainSkipReason, keychainTestName } from './keychain-for-tests.ts';
import { MemorySecretStore, openSecretStore } from './secret-store.ts';

const storeModule = fileURLToPath(new URL('./secret-store.ts', import.meta.url));

// These tests need the OS keychain (gnome-keyring over D-Bus). Without one they are skipped and say so in their
// name, never passing on a memory store; under CI=true the keychain is expected, so they run and fail instead.
const noKeychain = await keychainSkipReason();

describe.skipIf(noKeychain !== null)(keychainTestName('secret store over the real keychain', noKeychain), () => {
  it('stores, reads and deletes per-environment keys in the OS keychain', async () => {
    const service = `image-studio-test-${randomUUID()}`;
    const store = await openSecretStore({ service });
    expect(store.status()).toEqual({ available: true, backend: 'keychain', problem: null });
    await store.set('env:local:api-key', 'sk_local_secret');
    await store.set('env:remote:api-key', 'sk_remote_secret');
    expect(await store.get('env:local:api-key')).toBe('sk_local_secret');
    expect(await store.get('env:remote:api-key')).toBe('sk_remote_secret');
    expect(store.isMemoryOnly('env:local:api-key')).toBe(false);
    // A second store on the same service name sees the entries: they are in the keychain, not in memory.
    const again = await openSecretStore({ service });
    expect(await again.get('env:remote:api-key')).toBe('sk_remote_secret');
    await store.delete('env:local:api-key');
    expect(await again.get('env:local:api-key')).toBeNull();
    await store.delete('env:remote:api-key');
  });

  it('keeps a memory-only key out of the keychain and removes an older stored one', async () => {
    const service = `image-studio-test-${randomUUID()}`;
    const store = await openSecretStore({ service });
    expect(store.status().backend).toBe('keychain');
    await store.set('env:remote:api-key', 'sk_stored');
    // It did reach the keychain (a memory store would make the check below pass for nothing).
    expect(await (await openSecretStore({ service })).get('env:remote:api-key')).toBe('sk_stored');
    await store.set('env:remote:api-key', 'sk_memory', { memoryOnly: true });
    expect(await store.get('env:remote:api-key')).toBe('sk_memory');
    expect(store.isMemoryOnly('env:remote:api-key')).toBe(true);
    const fresh = await openSecretStore({ service });
    expect(await fresh.get('env:remote:api-key')).toBeNull();
  });
});

describe('secret store without a keychain', () => {
  it('falls back to memory with a plain message in zh and en when no Secret Service is reachable', () => {
    const script = `
      import { openSecretStore } from ${JSON.stringify(storeModule)};
      const store = await openSecretStore({ service: 'image-studio-test-nobus' });
      await store.set('env:local:api-key', 'sk_x');
      console.log(JSON.stringify({ status: store.status(), read: await store.get('env:local:api-key') }));
    `;
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus-socket' };
    delete env.DISPLAY;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 30_000 });
    const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as {
      status: { available: boolean; backend: string; problem: { zh: string; en: string } | null };
      read: string | null;
    };
    expect(result.status.available).toBe(false);
    expect(result.status.backend).toBe('memory');
    expect(result.status.problem?.en).toMatch(/keychain/i);
    expect(result.status.problem?.en).toMatch(/memory for this run only/);
    expect(result.status.problem?.zh).toMatch(/钥匙串/);
    expect(result.read).toBe('sk_x');
  });

  it('memory store reports memory-only', async () => {
    const store = new MemorySecretStore();
    await store.set('inspector:webhook-secret', 'whsec_x');
    expect(await store.get('inspector:webhook-secret')).toBe('whsec_x');
    expect(store.isMemoryOnly('inspector:webhook-secret')).toBe(true);
  });
});
