// The flags of `npm run service` (DESIGN.md §4), shared by the CLI and the utilityProcess entry.
import { parseArgs } from 'node:util';
import type { StartServiceOptions } from './start.ts';

export function parseServiceArgs(argv: readonly string[]): StartServiceOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8420' },
      data: { type: 'string', default: './.local-service' },
      'admin-token': { type: 'string' },
      seed: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'info' },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0..65535, got ${values.port}`);
  return {
    host: values.host,
    port,
    dataDir: values.data,
    ...(values['admin-token'] ? { adminToken: values['admin-token'] } : {}),
    seed: values.seed,
    logLevel: values['log-level'],
  };
}
