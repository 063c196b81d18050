// `npm run -s service -- trigger [--event ping|image_pack.published] [--break KIND] [--set FIELD=VALUE …]
//   (--url URL --secret whsec_… | --account acc_… [--data DIR | --admin-url URL])`: sends one signed webhook
// delivery to a receiver, like the service would, optionally broken on purpose, and prints one JSON line: what
// was sent, the step a correct receiver must fail at (`fails_at`, null: it must accept) and what it answered.
// With --account the receiver URL and secret are the account's webhook in a running local service (admin API).
// Exit codes: 0 the receiver answered (any status), 1 no answer (refused, timeout) or the service unreachable,
// 2 bad flags.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { randomAlphanumeric } from '../src-shared/ids.ts';
import { BREAKAGE_FAILS_AT, BreakageError, WEBHOOK_BREAKAGES, buildBrokenDelivery, type WebhookBreakage } from '../src-shared/webhook-breakage.ts';
import { WEBHOOK_EVENTS, WEBHOOK_SECRET_PATTERN, WEBHOOK_SECRET_RULE, type WebhookEvent } from '../src-shared/webhook-signature.ts';
import { ADMIN_TOKEN_ENV } from './cli-options.ts';
import { readLockHolder } from './lock.ts';
// The service's own delivery timeout: a receiver slower than this counts as a failure.
import { ATTEMPT_TIMEOUT_MS } from './services/dispatcher.ts';

class UsageError extends Error {}

export interface TriggerOptions {
  url: string | null;
  secret: string | null;
  previousSecret: string | null;
  account: string | null;
  adminUrl: string | null;
  adminToken: string | null;
  event: WebhookEvent;
  breakage: WebhookBreakage;
  deliveryId: string;
  overrides: Record<string, unknown>;
}

/** `--set publication.version=3` or `--set version=3`: the value as JSON when it parses, else as text. */
function parseOverride(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`--set takes FIELD=VALUE, got "${text}"`);
  const field = text.slice(0, eq).replace(/^publication\./, '');
  const raw = text.slice(eq + 1);
  try {
    return [field, JSON.parse(raw) as unknown];
  } catch {
    return [field, raw];
  }
}

export function parseTriggerArgs(argv: readonly string[], env: NodeJS.ProcessEnv): TriggerOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      'previous-secret': { type: 'string' },
      account: { type: 'string' },
      data: { type: 'string', default: './.local-service' },
      'admin-url': { type: 'string' },
      'admin-token': { type: 'string' },
      event: { type: 'string', default: 'image_pack.published' },
      break: { type: 'string', default: 'none' },
      'delivery-id': { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
    },
    strict: true,
    allowPositionals: false,
  });
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(values.event)) throw new UsageError(`--event must be one of ${WEBHOOK_EVENTS.join(', ')}`);
  if (!(WEBHOOK_BREAKAGES as readonly string[]).includes(values.break)) throw new UsageError(`--break must be one of ${WEBHOOK_BREAKAGES.join(', ')}`);
  const account = values.account ?? null;
  if (account === null && (!values.url || !values.secret)) throw new UsageError('trigger needs --url and --secret, or --account of a running local service');
  if (values.secret !== undefined && !WEBHOOK_SECRET_PATTERN.test(values.secret)) throw new UsageError(`--secret must be ${WEBHOOK_SECRET_RULE}`);
  const adminToken = values['admin-token'] ?? env[ADMIN_TOKEN_ENV] ?? null;
  if (account !== null && !adminToken) throw new UsageError(`--account needs the admin token: set ${ADMIN_TOKEN_ENV} or pass --admin-token`);
  const adminUrl = account === null ? null : (values['admin-url'] ?? readLockHolder(values.data)?.base_url ?? null);
  if (account !== null && !adminUrl) throw new UsageError(`no running service holds ${values.data}; start one or pass --admin-url`);
  return {
    url: values.url ?? null,
    secret: values.secret ?? null,
    previousSecret: values['previous-secret'] ?? null,
    account,
    adminUrl: adminUrl?.replace(/\/$/, '') ?? null,
    adminToken,
    event: values.event as WebhookEvent,
    breakage: values.break as WebhookBreakage,
    deliveryId: values['delivery-id'] ?? randomUUID(),
    overrides: Object.fromEntries(values.set.map(parseOverride)),
  };
}

/** The account's webhook URL and secret, from the running service's admin API. */
async function accountWebhook(options: TriggerOptions): Promise<{ url: string; secret: string }> {
  const read = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${options.adminUrl}/admin/accounts/${encodeURIComponent(options.account ?? '')}${path}`, {
      headers: { Authorization: `Bearer ${options.adminToken}`, 'Accept-Language': 'en' },
    });
    const body = (await res.json()) as T & { error?: { message?: string } };
    if (!res.ok) throw new UsageError(body.error?.message ?? `the service answered ${res.status}`);
    return body;
  };
  const { url } = await read<{ url: string }>('/webhook');
  if (!url) throw new UsageError(`account ${options.account} has no webhook URL configured`);
  const { secret } = await read<{ secret: string }>('/webhook/secret');
  return { url, secret };
}

function bodyOf(event: WebhookEvent, overrides: Record<string, unknown>, now: number): Uint8Array {
  if (event === 'ping') return new TextEncoder().encode(JSON.stringify({ event: 'ping', ...overrides }));
  const publication = { id: 1, pack_id: `pk_${randomAlphanumeric(8)}`, version: 1, style_code: 'TEST', published_at: now, ...overrides };
  return new TextEncoder().encode(JSON.stringify({ event, publication }));
}

export async function runTrigger(argv: readonly string[], env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<number> {
  let options: TriggerOptions;
  try {
    options = parseTriggerArgs(argv, env);
  } catch (error) {
    process.stderr.write(`local service trigger: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const target = options.account === null ? { url: options.url as string, secret: options.secret as string } : await accountWebhook(options);
    const now = Math.floor(Date.now() / 1000);
    const delivery = await buildBrokenDelivery({
      secret: options.secret ?? target.secret,
      previousSecret: options.previousSecret,
      event: options.event,
      deliveryId: options.deliveryId,
      timestamp: now,
      body: bodyOf(options.event, options.overrides, now),
      breakage: options.breakage,
    });
    const started = performance.now();
    const sent = { url: options.url ?? target.url, event: options.event, delivery_id: options.deliveryId, breakage: options.breakage, fails_at: BREAKAGE_FAILS_AT[options.breakage], headers: delivery.headers, body: new TextDecoder().decode(delivery.body) };
    try {
      // Redirects are not followed: the service counts a 3xx as a failure.
      const res = await fetch(sent.url, { method: 'POST', headers: delivery.headers, body: delivery.body, redirect: 'manual', signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
      const answer = (await res.text()).slice(0, 4096);
      write(`${JSON.stringify({ ...sent, status: res.status, duration_ms: Math.round(performance.now() - started), response: answer })}\n`);
      return 0;
    } catch (error) {
      write(`${JSON.stringify({ ...sent, status: null, duration_ms: Math.round(performance.now() - started), error: String((error as Error).cause ?? (error as Error).message) })}\n`);
      return 1;
    }
  } catch (error) {
    process.stderr.write(`local service trigger: ${(error as Error).message}\n`);
    return error instanceof UsageError || error instanceof BreakageError ? 2 : 1;
  }
}
