// Calling the harness's HTTP IPC from a test process (POST /ipc/<channel> with the token), and waiting for a
// condition: shared by the specs that drive the core without a page (crash and restart).
import type { Harness } from '../fixtures/harness.ts';

export async function ipc<T>(harness: Harness, channel: string, input: unknown = {}): Promise<T> {
  const res = await fetch(`${harness.origin}/ipc/${channel}`, {
    method: 'POST',
    headers: { 'x-studio-token': harness.token, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const reply = (await res.json()) as { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
  if (!reply.ok) throw new Error(`${channel}: ${reply.error.code}: ${reply.error.message}`);
  return reply.value;
}

export async function until<T>(what: string, probe: () => Promise<T | null> | T | null, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
