// One entry for every IPC call (Electron ipcMain and the harness alike): find the method, parse the input
// with the contract's schema, run the handler, and answer with an IpcResult. It never throws, and a reply
// that would carry a key or webhook secret is replaced by an error (DESIGN.md §2 rule 3).
import type { z } from 'zod';
import type { IpcResult, MethodOutput } from '../../src-shared/ipc/contract.ts';
import { IPC_METHODS, type IpcMethodName, type IpcMethods } from '../../src-shared/ipc/index.ts';
import type { Language } from '../../src-shared/language.ts';
import { StudioError, asStudioError, renderError } from '../domain/errors.ts';

export type IpcHandler<K extends IpcMethodName> = (input: z.output<IpcMethods[K]['input']>) => Promise<MethodOutput<IpcMethods[K]>>;
export type IpcHandlers = { [K in IpcMethodName]: IpcHandler<K> };

/** Shapes of secrets (DESIGN.md §3 ids): an API key, a webhook signing secret, an admin token. */
export const SECRET_PATTERN = /\b(?:sk_[A-Za-z0-9]{32}|whsec_[A-Za-z0-9]{32}|adm_[A-Za-z0-9]{32})\b/;

/** True when the text holds a secret: one of the exact values main knows, or anything shaped like one. */
export function holdsSecret(text: string, known: Iterable<string>): boolean {
  if (SECRET_PATTERN.test(text)) return true;
  for (const secret of known) if (secret.length >= 8 && text.includes(secret)) return true;
  return false;
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
  if (holdsSecret(JSON.stringify(result), knownSecrets())) {
    return { ok: false, error: renderError({ code: 'secret_blocked' }, language) };
  }
  return result;
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
