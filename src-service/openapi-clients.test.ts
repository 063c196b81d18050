// issue 27 Deliver 6: docs/openapi.yaml is usable by generators. Both clients a TypeScript integrator would generate
// (openapi-typescript with openapi-fetch, and @hey-api/openapi-ts) are generated into .tmp/ from the document, and a small
// file must compile with a correct generate body and must NOT compile with any of 4 wrong bodies (each marked
// `@ts-expect-error`, so a wrong body that compiles fails tsc). The error answers narrow on the JSON error body. The
// document lints with Redocly with 0 errors. And the check can fail: the old top-level anyOf makes the wrong bodies compile.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
const DOC = join(ROOT, 'docs/openapi.yaml');
const WORK = join(ROOT, '.tmp', `openapi-clients-${process.pid}`);
const bin = (name: string): string => join(ROOT, 'node_modules/.bin', name);
const QUIET = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/**
 * The 4 wrong bodies: an unknown model, a count the service refuses, a prompt of the wrong type, a resolution that does
 * not exist. (A misspelt field alone, `{ promt }`, still compiles through openapi-fetch's generic init: TypeScript's
 * excess-property check does not reach it; the service refuses it with invalid_request unknown_field.)
 */
const WRONG_BODIES = [`{ prompt: 'a mug', model: 'dall-e-3' }`, `{ prompt: 'a mug', n: 3 }`, `{ prompt: 42 }`, `{ prompt: 'a mug', resolution: '8K' }`];

const CHECK = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';
import { generate } from './hey/sdk.gen';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8420' });

export async function withOpenapiFetch(): Promise<void> {
  const answer = await client.POST('/api/v1/generate', { body: { prompt: 'a mug', model: 'nano-banana-2', ratio: '1:1', n: 2, ref_image_ids: ['img_AAAAAAAA'] } });
  if (answer.error) {
    // Every error answer has the JSON error body, so the error narrows to it.
    const code: string = answer.error.error.code;
    const requestId: string = answer.error.error.request_id;
    void [code, requestId];
  } else {
    const filename: string | undefined = answer.data?.images[0]?.filename;
    void filename;
  }
${WRONG_BODIES.map((body) => `  // @ts-expect-error a wrong body must not compile\n  await client.POST('/api/v1/generate', { body: ${body} });`).join('\n')}
}

export async function withHeyApi(): Promise<void> {
  await generate({ body: { prompt: 'a mug', model: 'gpt-image-2', quality: 'high' } });
${WRONG_BODIES.map((body) => `  // @ts-expect-error a wrong body must not compile\n  await generate({ body: ${body} });`).join('\n')}
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2024',
    module: 'esnext',
    moduleResolution: 'bundler',
    allowImportingTsExtensions: true,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ['ES2024', 'DOM', 'DOM.Iterable'],
    types: [],
  },
  include: ['check.ts'],
};

/** Generates both clients from `doc` into `dir` and type-checks the check file there; resolves with tsc's outcome. */
async function generateAndCompile(doc: string, dir: string): Promise<{ ok: boolean; output: string }> {
  mkdirSync(dir, { recursive: true });
  await run(bin('openapi-typescript'), [doc, '-o', join(dir, 'schema.ts')], { env: QUIET });
  await run(bin('openapi-ts'), ['-i', doc, '-o', join(dir, 'hey')], { env: QUIET });
  writeFileSync(join(dir, 'check.ts'), CHECK);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  try {
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir });
    return { ok: true, output: '' };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

beforeAll(() => mkdirSync(WORK, { recursive: true }));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

describe('docs/openapi.yaml and generated clients', () => {
  it('both generated clients accept a correct generate body and refuse each of 4 wrong ones', { timeout: 180_000 }, async () => {
    const outcome = await generateAndCompile(DOC, join(WORK, 'current'));
    expect(outcome.output).toBe('');
    expect(outcome.ok).toBe(true);
  });

  it('the check fails when the document types the body loosely (the old top-level anyOf of required)', { timeout: 180_000 }, async () => {
    const doc = parse(readFileSync(DOC, 'utf8')) as { components: { schemas: Record<string, Record<string, unknown>> } };
    const body = doc.components.schemas.GenerateRequest!;
    delete body.allOf;
    body.anyOf = [{ required: ['prompt'] }, { required: ['ref_image_ids'] }];
    const loose = join(WORK, 'loose.yaml');
    writeFileSync(loose, stringify(doc));
    const outcome = await generateAndCompile(loose, join(WORK, 'loose'));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/Unused '@ts-expect-error' directive/);
  });

  it('Redocly lints it with 0 errors', { timeout: 120_000 }, async () => {
    const { stdout, stderr } = await run(bin('redocly'), ['lint', DOC, '--format', 'json'], { env: QUIET, maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    const report = JSON.parse(stdout) as { totals: { errors: number } };
    expect(report.totals.errors, stderr).toBe(0);
  });
});
