// GET /admin/openapi.json: the admin API as OpenAPI 3.1, built from the registered routes; over real HTTP, and linted
// by Redocly with 0 errors.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.stop());

/** Every `app.<method>('/admin…'` of the route sources, as `method /admin/{param}`. */
function adminRoutesInSource(): string[] {
  const dir = join(ROOT, 'src-service/routes');
  const found = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.includes('.test'))) {
    for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/app\.(get|post|put|patch|delete)\(\s*'(\/admin[^']*)'/g)) {
      found.add(`${m[1]} ${m[2]!.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    }
  }
  return [...found].sort();
}

describe('GET /admin/openapi.json', () => {
  it('needs the admin token', async () => {
    expect((await fetch(`${svc.baseUrl}/admin/openapi.json`)).status).toBe(401);
  });

  it('lists every admin route the service registers, with its path parameters, and lints with 0 errors', async () => {
    const res = await svc.admin('GET', '/admin/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; servers: Array<{ url: string }>; paths: Record<string, Record<string, { parameters: Array<{ name: string }> }>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0]?.url).toBe(svc.baseUrl);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`)).sort();
    expect(documented).toEqual(adminRoutesInSource());
    expect(doc.paths['/admin/accounts/{id}/webhook']?.put?.parameters.map((p) => p.name)).toEqual(['id']);

    const dir = mkdtempSync(join(tmpdir(), 'admin-openapi-'));
    try {
      writeFileSync(join(dir, 'admin.json'), JSON.stringify(doc));
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/redocly'), ['lint', join(dir, 'admin.json'), '--format', 'json'], { env, maxBuffer: 16 * 1024 * 1024 }).catch(
        (error: { stdout: string }) => error,
      );
      expect((JSON.parse(stdout) as { totals: { errors: number } }).totals.errors, stdout.slice(0, 2000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
