// issue 27: "copy as code" never loses a paid result. Each sample (curl, Python requests, Node) runs against a loopback
// stand-in whose generate answers after 305 s, past Node fetch's 300 s headers limit, and must see the answer arrive
// and download the files. About 5 minutes: the three run at once, and scripts/test-all.ts runs this file beside the
// other suites (vitest.config.ts leaves it out of the main run there).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateRequestAsCode } from '../src-shared/copy-as-code.ts';
import { expectSampleDidItAll, runSample, startFakeService, type FakeService } from './copy-as-code.test-support.ts';

const ANSWER_AFTER_MS = 305_000;
const fakes: FakeService[] = [];
afterAll(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

/** One sample against a fake of its own, in a folder of its own. */
async function runAgainstSlowFake(kind: 'curl' | 'python' | 'node'): Promise<void> {
  const fake = await startFakeService({ delayMs: ANSWER_AFTER_MS });
  fakes.push(fake);
  const dir = mkdtempSync(join(tmpdir(), `copy-as-code-slow-${kind}-`));
  const code = generateRequestAsCode({ baseUrl: fake.baseUrl, request: { prompt: 'a mug', model: 'nano-banana-2', n: 2 }, language: 'en' });
  const file = join(dir, { curl: 'sample.sh', python: 'sample.py', node: 'sample.mjs' }[kind]);
  writeFileSync(file, code[kind]);
  const command = { curl: ['sh', [file]], python: ['python3', [file]], node: [process.execPath, [file]] } as const;
  const [cmd, args] = command[kind];
  const run = await runSample(cmd, [...args], dir);
  expect(run.ms).toBeGreaterThanOrEqual(ANSWER_AFTER_MS);
  expectSampleDidItAll(fake, run, dir);
  expect(run.stdout).toContain('34');
}

describe('copy as code waits the full 5 minutes', () => {
  it('curl, Python and Node each get an answer that takes 305 s, then download the files without the key', { timeout: 400_000 }, async () => {
    await Promise.all([runAgainstSlowFake('curl'), runAgainstSlowFake('python'), runAgainstSlowFake('node')]);
  });
});
