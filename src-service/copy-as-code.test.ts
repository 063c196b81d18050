import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ENV, generateRequestAsCode } from './copy-as-code.ts';

const KEY = 'sk_' + 'k'.repeat(32);
const request = {
  prompt: `A mug with "SALE" & 50% off, it's $9 \`now\`\nsecond line; echo $HOME`,
  model: 'gpt-image-2' as const,
  ratio: '1:1' as const,
  n: 2 as const,
  ref_image_ids: ['img_AAAAAAAA'],
  purpose_id: 'main_white' as const,
};

// The server lives in this process, so the samples must run asynchronously (a sync spawn would deadlock).
function runAsync(cmd: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, [API_KEY_ENV]: KEY } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let baseUrl = '';
const seen: Array<{ auth: string | undefined; lang: string | undefined; body: string; path: string | undefined }> = [];
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    seen.push({ auth: req.headers.authorization, lang: req.headers['accept-language'] as string | undefined, body, path: req.url });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_' + 'r'.repeat(20) });
    res.end(JSON.stringify({ ok: true, credits_charged: 34, images: [{ id: 'img_x', url: '/api/file/x.png' }] }));
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('copy as code', () => {
  it('never contains the key, only the environment variable placeholder', () => {
    const code = generateRequestAsCode({ baseUrl, request, serviceSessionId: 's_AAAAAAAAAA', language: 'en' });
    expect(code.curl).toContain(`$${API_KEY_ENV}`);
    expect(code.typescript).toContain(`process.env.${API_KEY_ENV}`);
    expect(code.curl + code.typescript).not.toMatch(/sk_[A-Za-z0-9]/);
  });

  it('the curl sample sends exactly the request body, shell characters in the prompt untouched', async () => {
    const { curl } = generateRequestAsCode({ baseUrl, request, serviceSessionId: 's_AAAAAAAAAA', language: 'zh' });
    seen.length = 0;
    const run = await runAsync('sh', ['-c', curl]);
    expect(run.status, run.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.path).toBe('/api/v1/generate');
    expect(seen[0]?.auth).toBe(`Bearer ${KEY}`);
    expect(seen[0]?.lang).toBe('zh-CN');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ ...request, session_id: 's_AAAAAAAAAA' });
  });

  it('the TypeScript sample runs under Node and sends the same request', async () => {
    const { typescript } = generateRequestAsCode({ baseUrl, request, language: 'en' });
    const dir = mkdtempSync(join(tmpdir(), 'copy-as-code-'));
    const file = join(dir, 'sample.mts');
    writeFileSync(file, typescript);
    seen.length = 0;
    const run = await runAsync(process.execPath, [file]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('34');
    expect(seen[0]?.auth).toBe(`Bearer ${KEY}`);
    expect(seen[0]?.lang).toBe('en');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual(request);
  });

  it('drops a session id the request carried when the turn had no service session', () => {
    const { curl } = generateRequestAsCode({ baseUrl, request: { ...request, session_id: 's_BBBBBBBBBB' }, language: 'en' });
    expect(curl).not.toContain('s_BBBBBBBBBB');
  });
});
