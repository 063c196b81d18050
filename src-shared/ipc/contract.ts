// The IPC contract's building blocks (DESIGN.md §2 rule 2): a method is a channel name `domain:verb`, a zod
// schema for its input and the type of its output. Main validates inputs against the schema; the preload and
// the browser harness are generated from the same list, so they cannot drift.
import type { z } from 'zod';

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
