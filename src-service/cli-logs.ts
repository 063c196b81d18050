// `npm run -s service -- logs [--data DIR | --url URL] [--follow] [filters]`: the request ledger of a running service
// as JSON lines, oldest first, read through its admin API (GET /admin/requests). The base URL comes from the data
// folder's lock record (service.pid, written by the service that holds the folder) unless --url names it; the admin
// token from STUDIO_ADMIN_TOKEN or --admin-token (the data folder never holds it). Filters are the API's query
// filters and are checked by the service. Exit codes: 0 done (or stopped while following), 1 the service cannot be
// reached, 2 bad flags or a filter the service refused.
import { parseArgs } from 'node:util';
import { ADMIN_TOKEN_ENV } from './cli-options.ts';
import { readLockHolder } from './lock.ts';

/** How often --follow asks for new entries. */
const FOLLOW_INTERVAL_MS = 1_000;
/** Pages --follow reads back per poll before it gives up finding the last entry it printed (a burst). */
const FOLLOW_MAX_PAGES = 10;
const FILTERS = ['request-id', 'account-id', 'key-id', 'status', 'code', 'route', 'since'] as const;

interface Entry {
  request_id: string;
}
interface Page {
  requests: Entry[];
  next_cursor: string | null;
}

class UsageError extends Error {}

export interface LogsOptions {
  baseUrl: string;
  adminToken: string;
  follow: boolean;
  limit: string;
  query: URLSearchParams;
}

export function parseLogsArgs(argv: readonly string[], env: NodeJS.ProcessEnv): LogsOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      data: { type: 'string', default: './.local-service' },
      url: { type: 'string' },
      'admin-token': { type: 'string' },
      follow: { type: 'boolean', short: 'f', default: false },
      limit: { type: 'string', default: '50' },
      ...Object.fromEntries(FILTERS.map((name) => [name, { type: 'string' as const }])),
    },
    strict: true,
    allowPositionals: false,
  });
  const adminToken = values['admin-token'] || env[ADMIN_TOKEN_ENV];
  if (!adminToken) throw new UsageError(`logs needs the admin token: set ${ADMIN_TOKEN_ENV} or pass --admin-token`);
  const baseUrl = values.url ?? readLockHolder(values.data)?.base_url ?? null;
  if (!baseUrl) throw new UsageError(`no running service holds ${values.data}; start one or pass --url`);
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = (values as Record<string, unknown>)[name];
    if (typeof value === 'string') query.set(name.replace('-', '_'), value);
  }
  return { baseUrl: baseUrl.replace(/\/$/, ''), adminToken, follow: values.follow, limit: values.limit, query };
}

async function readPage(options: LogsOptions, limit: string, cursor: string | null): Promise<Page> {
  const query = new URLSearchParams(options.query);
  query.set('limit', limit);
  if (cursor) query.set('cursor', cursor);
  const res = await fetch(`${options.baseUrl}/admin/requests?${query}`, { headers: { Authorization: `Bearer ${options.adminToken}` } });
  const body = (await res.json()) as Page & { error?: { message: string } };
  if (res.status === 400 || res.status === 401) throw new UsageError(body.error?.message ?? `the service answered ${res.status}`);
  if (!res.ok) throw new Error(`the service answered ${res.status}`);
  return body;
}

/** Entries newer than the last one printed (all of the first page when nothing was printed yet), oldest first. */
async function newEntries(options: LogsOptions, lastPrinted: string | null): Promise<Entry[]> {
  if (lastPrinted === null) return (await readPage(options, options.limit, null)).requests.reverse();
  const found: Entry[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < FOLLOW_MAX_PAGES; page++) {
    const { requests, next_cursor } = await readPage(options, '200', cursor);
    const at = requests.findIndex((entry) => entry.request_id === lastPrinted);
    found.push(...(at === -1 ? requests : requests.slice(0, at)));
    if (at !== -1 || next_cursor === null) break;
    cursor = next_cursor;
  }
  return found.reverse();
}

export async function runLogs(argv: readonly string[], env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<number> {
  try {
    const options = parseLogsArgs(argv, env);
    let lastPrinted: string | null = null;
    for (;;) {
      const entries = await newEntries(options, lastPrinted);
      for (const entry of entries) write(`${JSON.stringify(entry)}\n`);
      lastPrinted = entries.at(-1)?.request_id ?? lastPrinted;
      if (!options.follow) return 0;
      await new Promise((r) => setTimeout(r, FOLLOW_INTERVAL_MS));
    }
  } catch (error) {
    process.stderr.write(`local service logs: ${(error as Error).message}\n`);
    return error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1;
  }
}
