// How main keeps a service's error answer (spec §7): as a domain error value, code and facts, with the
// service's own words and the language they were asked in kept aside. Generation, key tests and the
// inspector's publication fetch all store an answer this one way.
import { isErrorCode } from '../../src-shared/errors.ts';
import type { IpcError } from '../../src-shared/ipc/contract.ts';
import type { Language } from '../../src-shared/language.ts';
import type { StoredError } from './errors.ts';

/** A service error answer as the domain stores it: code and facts, the service's own words kept aside. */
export function fromServiceAnswer(error: IpcError, language: Language): StoredError {
  const { code, message, status, requestId, details } = error;
  const out: StoredError = { code, serviceMessage: message, serviceLanguage: language };
  if (status !== undefined) out.status = status;
  if (requestId !== undefined) out.requestId = requestId;
  if (details !== undefined) out.details = details;
  if (!isErrorCode(code)) out.details = { ...out.details, unknownCode: true };
  return out;
}
