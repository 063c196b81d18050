// Structured logs on stderr (stdout carries only the ready line). Keys, secrets and the admin token are
// never logged: the Authorization header and any field named like a secret are redacted.
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level = 'info'): Logger {
  return pino(
    {
      level,
      base: { svc: 'local-service' },
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          'req.headers.authorization',
          'key',
          'api_key',
          'secret',
          'admin_token',
          'adminToken',
          '*.key',
          '*.api_key',
          '*.secret',
          '*.admin_token',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ fd: 2, sync: false }),
  );
}
