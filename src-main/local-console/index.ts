// Front door of the Local console: the bundled service's admin console and its IPC handlers.
export { CLIPBOARD_CLEAR_MS, LocalConsole, type LocalConsoleDeps } from './local-console.ts';
export { createLocalConsoleHandlers, type LocalConsoleMethods } from './handlers.ts';
