// Errors of the main process as values with a stable code and a message in the UI language. Handlers throw
// StudioError; the IPC layer turns it into an IpcError and never lets anything else escape.
import type { IpcError } from '../../src-shared/ipc/contract.ts';
import type { Language } from '../../src-shared/language.ts';

export class StudioError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, extra: { status?: number; requestId?: string; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'StudioError';
    this.code = code;
    this.status = extra.status;
    this.requestId = extra.requestId;
    this.details = extra.details;
  }

  static from(error: IpcError): StudioError {
    return new StudioError(error.code, error.message, {
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
      ...(error.details !== undefined ? { details: error.details } : {}),
    });
  }

  toIpc(): IpcError {
    const out: IpcError = { code: this.code, message: this.message };
    if (this.status !== undefined) out.status = this.status;
    if (this.requestId !== undefined) out.requestId = this.requestId;
    if (this.details !== undefined) out.details = this.details;
    return out;
  }
}

export type Bilingual = { zh: string; en: string };

export function say(text: Bilingual, language: Language): string {
  return text[language];
}

export function studioError(code: string, text: Bilingual, language: Language, details?: Record<string, unknown>): StudioError {
  return new StudioError(code, text[language], details ? { details } : {});
}
