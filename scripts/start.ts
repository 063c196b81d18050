// `npm start`: builds out/ when it is missing or older than the sources, then launches the Electron app on the
// bundled local service. On first start it downloads the Electron binary through the electron package's own
// install.js (ELECTRON_MIRROR and electron_config_cache apply). Where Electron cannot start (no display, the
// download failed) it says so in one line and points at `npm run harness` (DESIGN.md §2 rule 7), exiting non-zero.
import { spawn } from 'node:child_process';
import { buildIfStale } from '../src-main/harness/build-output.ts';
import { ensureElectronBinary, missingDisplay } from '../src-main/harness/electron-binary.ts';

const root = process.cwd();
const HARNESS_HINT = 'meanwhile `npm run harness` serves the same app in a browser on this machine';

// No window could open anyway: say so before downloading 100 MB for nothing.
const noDisplay = missingDisplay();
if (noDisplay) {
  process.stderr.write(`Image Studio cannot start here: ${noDisplay}; ${HARNESS_HINT}.\n`);
  process.exit(1);
}
const electron = await ensureElectronBinary(root, { retryCommand: 'npm start' });
if (!electron.ok) {
  process.stderr.write(`Image Studio cannot start here: ${electron.reason}; ${HARNESS_HINT}.\n`);
  process.exit(1);
}

const built = await buildIfStale(root, ['main', 'preload', 'renderer']);
if (built !== 0) {
  process.stderr.write('Image Studio: the build failed (see the errors above); fix them or run `npm run build` to see them again.\n');
  process.exit(1);
}

const env = { ...process.env };
// Set by some tools; it would make the binary behave as plain Node instead of opening the app.
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electron.path, ['.'], { cwd: root, stdio: 'inherit', env });
child.on('error', (err) => {
  process.stderr.write(`Image Studio could not launch Electron (${err.message}); ${HARNESS_HINT}.\n`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
