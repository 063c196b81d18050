// `npm run harness -- --port P --data DIR`: the real main-process core (createStudioApp) with a recording
// DesktopShell and a fresh bundled local service on DIR, served to a browser by the harness server. When it
// is ready it prints ONE JSON line on stdout starting with {"event":"ready"; tests outside the project read
// it, so its shape is fixed: {"event":"ready","url":…,"data_dir":…,"service_url":…}.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import type { SaveDialogRequest } from '../ports/desktop-shell.ts';
import type { StudioApp, StudioAppOptions } from '../app/studio-app.ts';
import type { LocalServiceHost } from '../ports/local-service-host.ts';
import { buildIfStale } from './build-output.ts';
import { FolderPrompt } from './folder-prompt.ts';
import { HarnessShell } from './harness-shell.ts';
import { startHarnessServer } from './harness-server.ts';

export interface HarnessOptions {
  /** The project folder (holds out/renderer). */
  root: string;
  port: number;
  dataDir: string;
  secretStore?: 'keychain' | 'memory';
}

export interface HarnessCore {
  createStudioApp(options: StudioAppOptions): StudioApp | Promise<StudioApp>;
  createLocalServiceHost(options: { dataDir: string; root: string }): LocalServiceHost;
}

/** Exports land in DIR/exports under the dialog's suggested name, made unique, so tests can check them. */
export function exportPathChooser(exportsDir: string): (request: SaveDialogRequest) => string {
  return (request) => {
    mkdirSync(exportsDir, { recursive: true });
    const name = basename(request.defaultPath) || 'image.png';
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let candidate = join(exportsDir, name);
    for (let i = 2; existsSync(candidate); i++) candidate = join(exportsDir, `${stem}-${i}${ext}`);
    return candidate;
  };
}

/** Wraps the service host to learn its base URL for the ready line. */
function observedHost(host: LocalServiceHost): { host: LocalServiceHost; baseUrl: () => string | null } {
  let baseUrl: string | null = null;
  host.onStatus((s) => {
    if (s.baseUrl) baseUrl = s.baseUrl;
  });
  return {
    baseUrl: () => baseUrl,
    host: {
      async start() {
        const started = await host.start();
        baseUrl = started.baseUrl;
        return started;
      },
      stop: () => host.stop(),
      onStatus: (listener) => host.onStatus(listener),
      onRecovery: (listener) => host.onRecovery?.(listener),
    },
  };
}

export async function runHarness(options: HarnessOptions, core: HarnessCore): Promise<{ stop(): Promise<void> }> {
  const root = resolve(options.root);
  const dataDir = resolve(options.dataDir);
  const rendererDir = join(root, 'out', 'renderer');

  const buildCode = await buildIfStale(root, ['renderer']);
  if (buildCode !== 0 || !existsSync(join(rendererDir, 'index.html'))) {
    throw new HarnessStartError('The renderer could not be built into out/renderer: run `npm run build` and read its errors.');
  }

  mkdirSync(dataDir, { recursive: true });
  // A person chooses folders at the page, under the data folder or their home (a script sets answers instead).
  const folderPrompt = new FolderPrompt([dataDir, homedir()]);
  const shell = new HarnessShell(exportPathChooser(join(dataDir, 'exports')), folderPrompt);
  const service = observedHost(core.createLocalServiceHost({ dataDir: join(dataDir, 'local-service'), root }));
  // A keychain entry per data folder: a harness run never touches the desktop app's own keys.
  const keychainService = `image-studio-harness-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  const app = await core.createStudioApp({
    dataDir,
    shell,
    localService: service.host,
    keychainService,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
  });

  let server;
  try {
    server = await startHarnessServer({
      app,
      rendererDir,
      imageRoot: dataDir,
      port: options.port,
      shellCalls: () => shell.calls,
      setShellAnswers: (answers) => shell.setScriptedAnswers(answers),
      setWindowFocused: (focused) => {
        shell.focused = focused;
      },
      folderPrompt,
    });
  } catch (err) {
    await app.close();
    throw err;
  }

  // As the app's main does before it opens its window (its menu and theme read the settings): the keychain's first
  // answer, which can take half a second on Linux, comes before the page's, which the first render waits for.
  await app.invoke('settingsGet', {});

  const ready: Record<string, unknown> = { event: 'ready', url: server.url, data_dir: dataDir };
  const serviceUrl = service.baseUrl();
  if (serviceUrl) ready.service_url = serviceUrl;
  process.stdout.write(JSON.stringify(ready) + '\n');
  process.stderr.write(`harness: open ${server.url} in a browser on this machine (data in ${dataDir}).\n`);

  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= (async () => {
        folderPrompt.close();
        await server.close();
        await app.close();
      })();
      return stopping;
    },
  };
}

/** A start-up failure with a one-line explanation for the user. */
export class HarnessStartError extends Error {
  override name = 'HarnessStartError';
}
