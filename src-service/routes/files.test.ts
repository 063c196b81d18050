// GET /api/file and the signed direct link (spec §4.2, DESIGN.md §3 "Files"), over real HTTP.
import { request } from 'node:http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support.ts';

let svc: TestService;
let owner: { id: string; key: string; keyId: string };
let image: { id: string; filename: string; width: number; height: number };
beforeAll(async () => {
  svc = await startTestService();
  owner = await svc.account();
  const res = await svc.api('/api/v1/generate', { key: owner.key, body: { prompt: 'x', resolution: '1K', ratio: '9:16' } });
  image = res.body.images[0];
});
afterAll(async () => {
  await svc.stop();
});

describe('GET /api/file/<filename>', () => {
  it('redirects with 302 to an absolute signed direct link, on another port of the same host, that works without a key', async () => {
    const res = await svc.api(`/api/file/${image.filename}`, { key: owner.key });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin).toBe(svc.directBaseUrl);
    expect(location.hostname).toBe(new URL(svc.baseUrl).hostname);
    expect(location.port).not.toBe(new URL(svc.baseUrl).port);
    expect(location.pathname).toBe(`/direct/${image.filename}`);
    expect(Number(location.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(location.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 768, 1376]);
  });

  it('builds the Location from its own base URL, never from a forged Host header', async () => {
    const { port } = new URL(svc.baseUrl);
    for (const host of ['evil.example', 'evil.example:8443', '127.0.0.1:1']) {
      const location = await new Promise<string | undefined>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: Number(port), path: `/api/file/${image.filename}`, headers: { Host: host, Authorization: `Bearer ${owner.key}` } },
          (res) => {
            res.resume();
            expect(res.statusCode).toBe(302);
            resolve(res.headers.location);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(new URL(location ?? '').origin).toBe(svc.directBaseUrl);
    }
  });

  it('answers plain-text 401, 403 and 404 errors', async () => {
    const none = await svc.api(`/api/file/${image.filename}`);
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(none.headers.get('x-request-id')).toMatch(/^req_/);
    expect(() => JSON.parse(none.text)).toThrow();

    const bad = await svc.api(`/api/file/${image.filename}`, { key: 'sk_wrong' });
    expect(bad.status).toBe(401);

    const noScope = await svc.account({ scopes: ['generate:write'] });
    const scope = await svc.api(`/api/file/${image.filename}`, { key: noScope.key });
    expect(scope.status).toBe(403);
    expect(scope.headers.get('content-type')).toMatch(/^text\/plain/);

    const other = await svc.account();
    expect((await svc.api(`/api/file/${image.filename}`, { key: other.key })).status).toBe(404);
    expect((await svc.api('/api/file/nothere1.png', { key: owner.key })).status).toBe(404);
    expect((await svc.api('/api/file/..%2Fservice.db', { key: owner.key })).status).toBe(404);
  });

  it('refuses a direct link with a changed signature or expiry, and after one hour by the service clock', async () => {
    const res = await svc.api(`/api/file/${image.filename}`, { key: owner.key });
    const location = new URL(res.headers.get('location') ?? '');
    const sig = location.searchParams.get('sig') ?? '';
    const tampered = new URL(location);
    tampered.searchParams.set('sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expect((await fetch(tampered)).status).toBe(403);
    const later = new URL(location);
    later.searchParams.set('expires', String(Number(location.searchParams.get('expires')) + 3600));
    const refused = await fetch(later);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);

    await svc.admin('POST', '/admin/clock', { advance_s: 3000 });
    expect((await fetch(location)).status).toBe(200);
    await svc.admin('POST', '/admin/clock', { advance_s: 601 });
    expect((await fetch(location)).status).toBe(403);
  });

  it('answers 400 with a plain-text reason when a client sends Authorization to the direct link (the key would leak)', async () => {
    const location = (await svc.api(`/api/file/${image.filename}`, { key: owner.key })).headers.get('location') ?? '';
    for (const authorization of [`Bearer ${owner.key}`, 'Basic eDp5']) {
      const refused = await fetch(location, { headers: { Authorization: authorization } });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(refused.headers.get('x-request-id')).toMatch(/^req_/);
      const reason = await refused.text();
      expect(reason).toMatch(/Authorization/);
      expect(reason).not.toContain(owner.key);
    }
    // What curl -L -H and a fetch that copies the header across origins do: refused; without it, the file.
    expect((await fetch(location)).status).toBe(200);
    // The direct-link origin serves nothing else (not the API, not the admin API).
    const other = await fetch(`${svc.directBaseUrl}/api/v1/image-pack-publications/1`);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('answers 404 once the image is cleaned up', async () => {
    const made = await svc.api('/api/v1/generate', { key: owner.key, body: { prompt: 'x', resolution: '1K' } });
    const img = made.body.images[0];
    const link = (await svc.api(`/api/file/${img.filename}`, { key: owner.key })).headers.get('location') ?? '';
    await svc.admin('DELETE', `/admin/images/${img.id}`);
    expect((await svc.api(`/api/file/${img.filename}`, { key: owner.key })).status).toBe(404);
    expect((await fetch(link)).status).toBe(404);
  });
});
