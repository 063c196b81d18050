// The one-file service (scripts/service-bundle.ts) runs with plain Node: built into a folder of its own, it imports
// no package but sharp, prints the ready line first, writes --ready-file, answers /healthz and a real generation
// (sharp at work), and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceReadyLineSchema } from '../src-shared/api.ts';
import { bundleService, SERVICE_BUNDLE_EXTERNAL } from './service-bundle.ts';

// Inside the repository (in the ignored .tmp/), so Node finds the one external package, sharp, in node_modules as
// it would beside the file after `npm install sharp`.
mkdirSync(resolve('.tmp'), { recursive: true });
const work = mkdtempSync(join(resolve('.tmp'), 'service-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the one-file service bundle', () => {
  it('starts with plain Node, answers /healthz and a generation, and stops on SIGTERM', async () => {
    const file = await bundleService(join(work, 'studio-service.mjs'));
    const source = readFileSync(file, 'utf8');
    const packages = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]).filter((name) => !name?.startsWith('node:'));
    expect(new Set(packages)).toEqual(new Set(SERVICE_BUNDLE_EXTERNAL));

    const readyFile = join(work, 'ready.json');
    const child = spawn(process.execPath, [file, '--port', '0', '--seed', '--data', join(work, 'data'), '--ready-file', readyFile], { cwd: work });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const firstLine = await new Promise<string>((done, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) done(out.slice(0, out.indexOf('\n')));
      });
      child.once('exit', (code) => fail(new Error(`bundle exited with ${code}: ${err}`)));
    });
    try {
      const ready = ServiceReadyLineSchema.parse(JSON.parse(firstLine));
      expect(readFileSync(readyFile, 'utf8')).toBe(`${firstLine}\n`);
      const health = await fetch(`${ready.base_url}/healthz`);
      expect(health.status).toBe(200);
      const generated = await fetch(`${ready.base_url}/api/v1/generate`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ready.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ prompt: 'a bottle', resolution: '1K' }),
      });
      expect(generated.status).toBe(200);
    } finally {
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
