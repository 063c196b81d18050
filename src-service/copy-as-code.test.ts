import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_ENV, generateRequestAsCode } from '../src-shared/copy-as-code.ts';
import { expectSampleDidItAll, runSample, startFakeService, type FakeService } from './copy-as-code.test-support.ts';

const request = {
  prompt: `A mug with "SALE" & 50% off, it's $9 \`now\`\nsecond line; echo $HOME`,
  model: 'gpt-image-2' as const,
  ratio: '1:1' as const,
  n: 2 as const,
  ref_image_ids: ['img_AAAAAAAA'],
  purpose_id: 'main_white' as const,
};

let fake: FakeService;
let baseUrl = '';
beforeAll(async () => {
  fake = await startFakeService({ delayMs: 0 });
  baseUrl = `${fake.baseUrl}/`;
});
afterAll(() => fake.close());

/** The sample's requests to the API origin, after a fresh start of the record. */
const forget = (): void => {
  fake.api.length = 0;
  fake.direct.length = 0;
};

describe('copy as code', () => {
  it('never contains the key, only the environment variable placeholder', () => {
    const code = generateRequestAsCode({ baseUrl, request, serviceSessionId: 's_AAAAAAAAAA', language: 'en' });
    expect(code.curl).toContain(`$${API_KEY_ENV}`);
    expect(code.typescript).toContain(`process.env.${API_KEY_ENV}`);
    expect(code.python).toContain(`os.environ["${API_KEY_ENV}"]`);
    expect(code.curl + code.typescript + code.python + code.node).not.toMatch(/sk_[A-Za-z0-9]/);
  });

  it('the curl sample sends exactly the request body, shell characters in the prompt untouched', async () => {
    const { curl } = generateRequestAsCode({ baseUrl, request, serviceSessionId: 's_AAAAAAAAAA', language: 'zh' });
    forget();
    const dir = mkdtempSync(join(tmpdir(), 'copy-as-code-'));
    const run = await runSample('sh', ['-c', curl], dir);
    expectSampleDidItAll(fake, run, dir);
    const seen = fake.api.filter((r) => r.path === '/api/v1/generate');
    expect(seen[0]?.lang).toBe('zh-CN');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ ...request, session_id: 's_AAAAAAAAAA' });
  });

  for (const [name, file, command] of [
    ['TypeScript', 'sample.mts', process.execPath],
    ['Node', 'sample.mjs', process.execPath],
    ['Python', 'sample.py', 'python3'],
  ] as const) {
    it(`the ${name} sample runs, sends the same request with a client turn id, and downloads the files without the key`, async () => {
      const code = generateRequestAsCode({ baseUrl, request, language: 'en' });
      const dir = mkdtempSync(join(tmpdir(), 'copy-as-code-'));
      writeFileSync(join(dir, file), name === 'TypeScript' ? code.typescript : name === 'Node' ? code.node : code.python);
      forget();
      const run = await runSample(command, [join(dir, file)], dir);
      expectSampleDidItAll(fake, run, dir);
      expect(run.stdout).toContain('34');
      const seen = fake.api.filter((r) => r.path === '/api/v1/generate');
      expect(seen[0]?.lang).toBe('en');
      expect(JSON.parse(seen[0]?.body ?? '')).toEqual(request);
    });
  }

  it('each sample says to look the turn up, not resend, on a timeout, and waits longer than 5 minutes', () => {
    const code = generateRequestAsCode({ baseUrl, request, language: 'en' });
    for (const text of [code.curl, code.python, code.node]) {
      expect(text).toMatch(/do NOT resend/);
      expect(text).toMatch(/client turn id/);
      expect(text).toContain('330');
      expect(text).toContain('X-Client-Turn-Id');
    }
    // Node's global fetch gives up on headers after 300 s: the Node sample must not use it.
    expect(code.node).not.toMatch(/\bfetch\(/);
  });

  it('drops a session id the request carried when the turn had no service session', () => {
    const { curl } = generateRequestAsCode({ baseUrl, request: { ...request, session_id: 's_BBBBBBBBBB' }, language: 'en' });
    expect(curl).not.toContain('s_BBBBBBBBBB');
  });
});
