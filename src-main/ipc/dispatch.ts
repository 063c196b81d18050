// One entry for every IPC call (Electron ipcMain and the harness alike): find the method, parse the input
// with the contract's schema, run the handler, and answer with an IpcResult. It never throws, and every
// reply passes the one secret screen (domain/secret-screen.ts): what looks like a key or a webhook secret is
// redacted, the rest of the reply still arrives (docs/main-process.md "Secrets never leave main").
import type { z } from 'zod';
import type { IpcResult } from '../../src-shared/ipc/contract.ts';
import { IPC_METHODS, type IpcMethodName } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { StudioError, asStudioError, renderError } from '../domain/errors.ts';
import { screenValue } from '../domain/secret-screen.ts';
import type { IpcHandlers } from '../ports/ipc-table.ts';

export type { IpcHandlers } from '../ports/ipc-table.ts';

/**
 * The only replies that may carry a secret, once: the field of the reply that holds it. In the harness a key
 * the local console creates cannot go to a system clipboard, so its dialog shows it a single time. The
 * inspector's webhook secret is shown on an explicit "Reveal" click, for the integrator to copy into their own
 * receiver (docs/decisions.md, webhooks for integrators).
 */
const REVEALS: Partial<Record<IpcMethodName, string>> = { localCreateKey: 'oneTimeKey', inspectorRevealSecret: 'secret' };

function revealed(method: string, result: IpcResult<unknown>): ReadonlySet<string> {
  const field = Object.hasOwn(REVEALS, method) ? REVEALS[method as IpcMethodName] : undefined;
  if (!field || !result.ok || result.value === null || typeof result.value !== 'object') return new Set();
  const value = (result.value as Record<string, unknown>)[field];
  return typeof value === 'string' ? new Set([value]) : new Set();
}

function fieldOf(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)';
}

export function invalidInput(error: z.ZodError, language: Language): IpcResult<never> {
  const first = error.issues[0];
  const field = first ? fieldOf(first) : '(input)';
  const why = first?.message ?? 'invalid';
  const rendered = renderError({ code: 'invalid_input', params: { field, why }, details: { issues: error.issues.map((i) => ({ field: fieldOf(i), message: i.message })) } }, language);
  return { ok: false, error: rendered };
}

export async function dispatch(
  handlers: IpcHandlers,
  method: string,
  input: unknown,
  language: Language,
  knownSecrets: () => Iterable<string> = () => [],
): Promise<IpcResult<unknown>> {
  const result = await run(handlers, method, input, language);
  return screenValue(result, knownSecrets(), revealed(method, result));
}

async function run(handlers: IpcHandlers, method: string, input: unknown, language: Language): Promise<IpcResult<unknown>> {
  if (!Object.hasOwn(IPC_METHODS, method)) {
    return { ok: false, error: renderError({ code: 'unknown_method', params: { method } }, language) };
  }
  const name = method as IpcMethodName;
  const parsed = IPC_METHODS[name].input.safeParse(input ?? {});
  if (!parsed.success) return invalidInput(parsed.error, language);
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    const value = await handler(parsed.data);
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    if (error instanceof StudioError) return { ok: false, error: error.toIpc(language) };
    // Anything else: a full disk keeps its own code (the user can act on it); the rest is `internal`.
    return { ok: false, error: asStudioError(error).toIpc(language) };
  }
}
