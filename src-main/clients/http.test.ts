// Buffered answers are capped: a service or proxy that answers with more than the cap (announced or not)
// is cut off with a clear error instead of filling main's memory. Real loopback servers.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, NetworkError, sendRequest } from './http.ts';

const servers: Server[] = [];
async function serve(handler: Parameters<typeof createServer>[1]): Promise<URL> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/generate`);
}
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

const CAP = 1024 * 1024;

describe('buffered answers', () => {
  it('refuses an answer that announces more than the cap, before reading it', async () => {
    let wrote = 0;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': String(CAP * 100) });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (wrote < CAP * 100 && res.write(chunk)) wrote += chunk.length;
      };
      res.on('drain', pump);
      pump();
    });
    const error = await sendRequest(url, { method: 'GET', timeoutMs: 10_000, maxBytes: CAP }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).failure).toBe('dropped');
    expect((error as NetworkError).message).toMatch(/announced 104857600 bytes, more than 1 MiB/);
  });

  it('cuts off an answer with no length once it passes the cap', async () => {
    let stopped = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const timer = setInterval(() => {
        if (!res.write(chunk)) return;
      }, 1);
      res.on('close', () => {
        stopped = true;
        clearInterval(timer);
      });
    });
    const error = await sendRequest(url, { method: 'GET', timeoutMs: 10_000, maxBytes: CAP }).catch((e: unknown) => e);
    expect((error as NetworkError).message).toMatch(/larger than 1 MiB and was not read/);
    await expect.poll(() => stopped).toBe(true);
  });

  it('reads an answer up to the cap whole, and the app cap is far above any API answer', async () => {
    const body = Buffer.alloc(CAP, 0x61);
    const url = await serve((_req, res) => res.writeHead(200).end(body));
    const answer = await sendRequest(url, { method: 'GET', timeoutMs: 10_000, maxBytes: CAP });
    expect(answer.body.equals(body)).toBe(true);
    expect(MAX_ANSWER_BYTES).toBe(16 * 1024 * 1024);
  });
});
