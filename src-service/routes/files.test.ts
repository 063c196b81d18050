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
  it('redirects with 302 to an absolute signed direct link that works without a key', async () => {
    const res = await svc.api(`/api/file/${image.filename}`, { key: owner.key });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location') ?? '');
    expect(location.origin).toBe(svc.baseUrl);
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
      expect(new URL(location ?? '').origin).toBe(svc.baseUrl);
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

  it('answers 404 once the image is cleaned up', async () => {
    const made = await svc.api('/api/v1/generate', { key: owner.key, body: { prompt: 'x', resolution: '1K' } });
    const img = made.body.images[0];
    const link = (await svc.api(`/api/file/${img.filename}`, { key: owner.key })).headers.get('location') ?? '';
    await svc.admin('DELETE', `/admin/images/${img.id}`);
    expect((await svc.api(`/api/file/${img.filename}`, { key: owner.key })).status).toBe(404);
    expect((await fetch(link)).status).toBe(404);
  });
});
