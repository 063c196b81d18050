// Without a reachable keychain the app still starts, says why in the UI language, and keeps keys in memory.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

describe('app without a keychain', () => {
  it('works with the key in memory for this run and says so plainly', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'studio-nokeychain-'));
    const script = `
      import { createStudioApp } from ${JSON.stringify(here('./create-app.ts'))};
      import { NodeLocalServiceHost } from ${JSON.stringify(here('../service-host/node-service-host.ts'))};
      import { RecordingShell } from ${JSON.stringify(here('../ports/desktop-shell.ts'))};
      const dataDir = ${JSON.stringify(dataDir)};
      const app = await createStudioApp({ dataDir, shell: new RecordingShell(), localService: new NodeLocalServiceHost({ dataDir: dataDir + '/local-service' }), keychainService: 'image-studio-test-nokeychain' });
      const zh = await app.invoke('settingsGet', {});
      await app.invoke('settingsSetLanguage', { language: 'en' });
      const en = await app.invoke('settingsGet', {});
      const test = await app.invoke('keyTest', { environment: 'local' });
      await app.close();
      console.log(JSON.stringify({ zh, en, test }));
    `;
    const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus-socket' };
    delete env.DISPLAY;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 60_000 });
    const { zh, en, test } = JSON.parse(out.trim().split('\n').pop() as string) as Record<string, { ok: boolean; value: { keychain: { problem: string }; environments: { local: unknown } } }>;
    expect(zh?.value.keychain).toMatchObject({ available: false, backend: 'memory' });
    expect(zh?.value.keychain.problem).toMatch(/钥匙串/);
    expect(en?.value.keychain.problem).toMatch(/memory for this run only/);
    expect(en?.value.environments.local).toMatchObject({ keySet: true, keyInMemoryOnly: true });
    expect(test?.value).toMatchObject({ ok: true });
    // Never plaintext on disk: no file of the app or its local service holds a key.
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(2);
    for (const file of files) expect(readFileSync(join(file.parentPath, file.name)).toString('latin1')).not.toMatch(/sk_[A-Za-z0-9]{32}/);
  });
});
