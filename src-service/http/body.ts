// Reading JSON bodies for the admin API: a body that is not JSON, or fails its schema, is invalid_request
// naming what is wrong; nothing is changed (DESIGN.md §5).
import type { Context } from 'hono';
import type { z } from 'zod';
import { fail } from './errors.ts';

export async function readJson<T extends z.ZodType>(c: Context, schema: T, emptyAs: unknown = undefined): Promise<z.infer<T>> {
  const text = await c.req.text();
  let value: unknown = emptyAs;
  if (text.trim() !== '' || emptyAs === undefined) {
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      fail('invalid_request', { reason: 'not_json' });
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || (issue && 'keys' in issue ? String((issue as { keys: string[] }).keys.join(', ')) : '');
    fail('invalid_request', { detail: `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid body'}` });
  }
  return parsed.data;
}
