// Nothing may end the main process by accident: an unhandled rejection or an uncaught exception is written to
// the log (with the time and stack) and the app keeps serving. Both hosts (Electron and the harness) install
// it first thing. A failure the user must act on reaches them through the UI (a turn's error, a notice).
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CrashGuard {
  /** The log file, shown to the user when start-up fails. */
  logFile: string;
  /** Appends one line to the log (never throws: a full disk must not turn logging into a crash). */
  log(message: string, error?: unknown): void;
}

export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

export function installCrashGuard(logFile: string, echo: (line: string) => void = (line) => process.stderr.write(line)): CrashGuard {
  const log = (message: string, error?: unknown): void => {
    const line = `${new Date().toISOString()} ${message}${error === undefined ? '' : `: ${describeError(error)}`}\n`;
    try {
      mkdirSync(dirname(logFile), { recursive: true });
      appendFileSync(logFile, line);
    } catch {
      // The disk may be full; the line still goes to stderr.
    }
    try {
      echo(line);
    } catch {
      // stderr may be closed (the parent went away).
    }
  };
  process.on('unhandledRejection', (reason) => log('unhandled rejection (the app keeps running)', reason));
  process.on('uncaughtException', (error) => log('uncaught exception (the app keeps running)', error));
  return { logFile, log };
}
