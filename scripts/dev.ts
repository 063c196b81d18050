// `npm run dev`: `electron-vite dev` (hot reload), after making sure the Electron binary is there: on first use it
// is downloaded the way `npm start` does (the electron package's install.js; ELECTRON_MIRROR and
// electron_config_cache apply). Arguments after `--` go to electron-vite unchanged.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureElectronBinary, missingDisplay } from '../src-main/harness/electron-binary.ts';

const root = process.cwd();
// Like `npm start`: no display, no 100 MB download for a window that cannot open.
const noDisplay = missingDisplay();
if (noDisplay) {
  process.stderr.write(`Image Studio cannot start here: ${noDisplay}; meanwhile \`npm run harness\` serves the same app in a browser on this machine.\n`);
  process.exit(1);
}
const electron = await ensureElectronBinary(root, { retryCommand: 'npm run dev' });
if (!electron.ok) {
  process.stderr.write(`Image Studio cannot start here: ${electron.reason}; meanwhile \`npm run harness\` serves the same app in a browser on this machine.\n`);
  process.exit(1);
}

const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
// electron-vite finds the binary through this variable first (its own lookup reads the same path.txt).
const env = { ...process.env, ELECTRON_EXEC_PATH: electron.path };
const child = spawn(process.execPath, [cli, 'dev', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });
child.on('error', (err) => {
  process.stderr.write(`Image Studio could not run electron-vite (${err.message}).\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
