// Structured logs on stderr (stdout carries only the ready line). Keys, secrets and the admin token are
// never logged: the Authorization header and any field named like a secret are redacted.
// Logging can never block or delay the process (docs/local-service.md "Exit"): lines go through the
// asynchronous stderr stream, and are dropped, never retried, once it is broken or its reader stops reading.
import pino, { type Logger } from 'pino';

export type { Logger };

/** Unwritten log text allowed to wait for a slow reader; beyond it lines are dropped. */
const MAX_BACKLOG_BYTES = 1024 * 1024;

interface StderrLike {
  write(text: string): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  readonly writableLength: number;
  readonly destroyed: boolean;
}

/**
 * A log destination that never blocks, never retries and never throws: a write error (EPIPE from a dead app)
 * marks it broken and every later line is dropped; a reader that stops reading costs at most the backlog.
 * No synchronous flush at exit either (pino.destination's flushSync retried EAGAIN every 100 ms, forever).
 */
export function droppingDestination(stream: StderrLike = process.stderr): { write(line: string): void } {
  let broken = false;
  stream.on('error', () => {
    broken = true;
  });
  return {
    write(line) {
      if (broken || stream.destroyed || stream.writableLength > MAX_BACKLOG_BYTES) return;
      try {
        stream.write(line);
      } catch {
        broken = true;
      }
    },
  };
}

/** Field names whose values are secrets: redacted in the log and screened out of the request ledger's bodies. */
export const SECRET_FIELD_NAMES: readonly string[] = ['authorization', 'key', 'api_key', 'secret', 'admin_token', 'adminToken'];

export function createLogger(level = 'info'): Logger {
  return pino(
    {
      level,
      base: { svc: 'local-service' },
      redact: {
        paths: ['headers.authorization', 'req.headers.authorization', ...SECRET_FIELD_NAMES, ...SECRET_FIELD_NAMES.map((name) => `*.${name}`)],
        censor: '[redacted]',
      },
    },
    droppingDestination(),
  );
}
