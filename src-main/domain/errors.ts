// The one error type of the main process. An error is a value: a stable code, the facts it needs (params),
// and, when the service answered it, the service's status, request id and own words. Its text is made from
// the catalog (./messages.ts) in the language the reader has *now*, so a stored error follows the UI language.
import { errorMessage, isErrorCode, type ErrorParams } from '../../src-shared/errors.ts';
import type { IpcError } from '../../src-shared/ipc/contract.ts';
import type { Language } from '../../src-shared/language.ts';
import { isMainCode, mainMessage, type MainCode } from './messages.ts';

export type ErrorFacts = Record<string, unknown>;

/** What is stored (library rows) and what crosses into the IPC layer before it is rendered. */
export interface StoredError {
  code: string;
  params?: ErrorFacts;
  status?: number;
  requestId?: string;
  /** The service's own message (spec §7 `error.message`) and the language it was asked in. */
  serviceMessage?: string;
  serviceLanguage?: Language;
  /** Facts for the UI (missing reference ids, retry times); never text. */
  details?: Record<string, unknown>;
}

export class StudioError extends Error {
  readonly code: string;
  readonly params: ErrorFacts;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly serviceMessage: string | undefined;
  readonly serviceLanguage: Language | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: MainCode | (string & {}), params: ErrorFacts = {}, extra: Omit<StoredError, 'code' | 'params'> = {}) {
    // The Error message (logs, stack traces) is the English text; users get renderError in their language.
    super(renderText({ code, params, ...extra }, 'en'));
    this.name = 'StudioError';
    this.code = code;
    this.params = params;
    this.status = extra.status;
    this.requestId = extra.requestId;
    this.serviceMessage = extra.serviceMessage;
    this.serviceLanguage = extra.serviceLanguage;
    this.details = extra.details;
  }

  static fromStored(stored: StoredError): StudioError {
    const { code, params, ...extra } = stored;
    return new StudioError(code, params ?? {}, extra);
  }

  toStored(): StoredError {
    return compact({
      code: this.code,
      params: Object.keys(this.params).length > 0 ? this.params : undefined,
      status: this.status,
      requestId: this.requestId,
      serviceMessage: this.serviceMessage,
      serviceLanguage: this.serviceLanguage,
      details: this.details,
    });
  }

  toIpc(language: Language): IpcError {
    return renderError(this.toStored(), language);
  }
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * The text of an error in `language`. Main's own codes come from the main catalog; a spec §7 code that main
 * decided itself (validation before sending) from the contract's catalog; an answer of the service keeps the
 * service's words when they are in the reader's language, and otherwise puts the catalog's sentence first.
 */
export function renderText(error: StoredError, language: Language): string {
  const params = error.params ?? {};
  if (error.serviceMessage !== undefined) {
    if (error.serviceLanguage === language || !isErrorCode(error.code)) return error.serviceMessage;
    const own = genericServiceText(error.code, language);
    return `${own} (${error.serviceMessage})`;
  }
  if (isMainCode(error.code)) return mainMessage(error.code, params, language);
  if (isErrorCode(error.code)) return errorMessage(error.code, params as ErrorParams, language);
  // A code we do not know (a newer service): say so rather than inventing a meaning.
  return mainMessage('unknown_error', { code: error.code }, language);
}

/** The IPC form: the code, the rendered message, and the facts the UI branches on. */
export function renderError(error: StoredError, language: Language): IpcError {
  const out: IpcError = { code: error.code, message: renderText(error, language) };
  if (error.status !== undefined) out.status = error.status;
  if (error.requestId !== undefined) out.requestId = error.requestId;
  const details = { ...(error.params ?? {}), ...(error.details ?? {}) };
  if (Object.keys(details).length > 0) out.details = details;
  return out;
}

/** A spec §7 code's meaning without the facts only the service's message carries. */
function genericServiceText(code: string, language: Language): string {
  return mainMessage('service_said', { code }, language);
}

/** Anything thrown, as a StudioError (an unexpected one becomes `internal`, keeping its text for the log). */
export function asStudioError(error: unknown): StudioError {
  if (error instanceof StudioError) return error;
  const errno = (error as { code?: unknown } | null)?.code;
  if (errno === 'ENOSPC' || errno === 'EDQUOT' || isSqliteFull(error)) return new StudioError('disk_full', { cause: describe(error) });
  return new StudioError('internal', { cause: describe(error) });
}

/** node:sqlite reports a full disk as SQLITE_FULL (errcode 13) with "database or disk is full". */
function isSqliteFull(error: unknown): boolean {
  const e = error as { errcode?: unknown; message?: unknown } | null;
  return e?.errcode === 13 || (typeof e?.message === 'string' && /database or disk is full/i.test(e.message));
}

export function isDiskFull(error: unknown): boolean {
  return asStudioError(error).code === 'disk_full';
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
