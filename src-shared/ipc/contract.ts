// The IPC contract's building blocks (DESIGN.md §2 rule 2): a method is a channel name `domain:verb`, a zod
// schema for its input and the type of its output. Main validates inputs against the schema; the preload and
// the browser harness are generated from the same list, so they cannot drift.
import { z } from 'zod';

export interface IpcMethod<I extends z.ZodType, O> {
  channel: string;
  input: I;
  /** Phantom: carries the output type only. */
  output?: O;
}

export function method<O>() {
  return <I extends z.ZodType>(channel: string, input: I): IpcMethod<I, O> => ({ channel, input });
}

/** Errors crossing IPC: a stable code, a message in the UI language, and facts for the UI. */
export interface IpcError {
  code: string;
  message: string;
  /** HTTP status when the error came from the service. */
  status?: number;
  requestId?: string;
  details?: Record<string, unknown>;
}

/** Replies are values, never thrown across the bridge (Signal Desktop's shape). */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export type MethodInput<M> = M extends IpcMethod<infer I, unknown> ? z.input<I> : never;
export type MethodOutput<M> = M extends IpcMethod<z.ZodType, infer O> ? O : never;

// Every id a method takes (images, turns, sessions, boards, products, shot lists, batches, presets, packs, keys,
// captured requests) has one rule: what the app, the service and a Remote service hand out — letters, digits,
// `_` and `-` (UUIDs, `amazon-main`) — at most 64 characters. Anything else (a lone surrogate, a path, a 1 MB
// string) is `invalid_input` naming the field before a handler, a query or the service sees it.
export const ID_MAX_LENGTH = 64;
export const ID_CHARACTERS = /^[A-Za-z0-9_-]+$/;
export const IdSchema = z
  .string()
  .min(1)
  .max(ID_MAX_LENGTH)
  .regex(ID_CHARACTERS, 'must be letters, digits, _ or -');

// Values the user types that travel as HTTP header values (an Idempotency-Key, a kept X-Service-Delivery):
// printable ASCII only (a header cannot carry anything else), trimmed, at most 200 characters.
export const HEADER_TOKEN_MAX_LENGTH = 200;
export const HeaderTokenSchema = z
  .string()
  .trim()
  .min(1)
  .max(HEADER_TOKEN_MAX_LENGTH)
  .regex(/^[\x20-\x7E]+$/, 'must be printable ASCII (letters, digits, punctuation)');
