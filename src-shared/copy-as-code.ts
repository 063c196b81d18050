// "Copy as code" for a turn (the spec §4.1 request): the same request as curl, Python (requests) and Node, each waiting the
// full 5 minutes, sending X-Client-Turn-Id and downloading the files through the 302 without the key; the key is an
// environment variable placeholder. Pure: the key is never an input, so it cannot end up in the text.
import type { GenerateRequest } from './api.ts';
import { acceptLanguageFor, type Language } from './language.ts';

export const API_KEY_ENV = 'STUDIO_API_KEY';

export interface CodeSnippets {
  curl: string;
  python: string;
  node: string;
  /** The Node sample (it runs as TypeScript too); kept under its old name for the app's "Copy fetch" button. */
  typescript: string;
}

/** spec §1: a run can take up to 5 minutes, so the samples wait a little longer than that. */
export const TIMEOUT_S = 330;

/** What every sample says about a timeout: the one rule that keeps a paid result from being paid twice. */
const ON_TIMEOUT = [
  'A run can take up to 5 minutes: this waits 330 s. If no answer comes, do NOT resend: the run may have',
  'finished and been charged. Look the turn up by its client turn id first (the local service lists it in',
  'GET /admin/accounts/<account>/turns as client_turn_id; in production, the Developer Center logs).',
  'Downloads: /api/file answers 302 to a direct link that must be opened WITHOUT the API key.',
];

export function generateRequestAsCode(input: {
  baseUrl: string;
  request: GenerateRequest;
  /** The service's session id (s_…) to continue, if the turn had one. */
  serviceSessionId?: string | null;
  language: Language;
}): CodeSnippets {
  const base = input.baseUrl.replace(/\/+$/, '');
  const body: GenerateRequest = { ...input.request };
  if (input.serviceSessionId) body.session_id = input.serviceSessionId;
  else delete body.session_id;
  const sample: Sample = { base, json: JSON.stringify(body, null, 2), acceptLanguage: acceptLanguageFor(input.language) };
  const node = nodeSample(sample);
  return { curl: curlSample(sample), python: pythonSample(sample), node, typescript: node };
}

interface Sample {
  base: string;
  json: string;
  acceptLanguage: string;
}

function comment(prefix: string): string[] {
  return [`${prefix} Needs ${API_KEY_ENV} in the environment.`, ...ON_TIMEOUT.map((line) => `${prefix} ${line}`)];
}

/** POSIX shell: a quoted heredoc passes the body byte for byte (no expansion of $, ` or quotes in prompts). */
function curlSample({ base, json, acceptLanguage }: Sample): string {
  // JSON.stringify escapes newlines, so no body line can equal the delimiter.
  return [
    ...comment('#'),
    `BASE_URL=${shellQuote(base)}`,
    `TURN_ID="lt_$(LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c 10)"`,
    `echo "client turn id: $TURN_ID" >&2`,
    `RESULT=$(curl -sS -X POST "$BASE_URL/api/v1/generate" \\`,
    `  -H "Authorization: Bearer $${API_KEY_ENV}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`Accept-Language: ${acceptLanguage}`)} \\`,
    `  -H "X-Client-Turn-Id: $TURN_ID" \\`,
    `  --max-time ${TIMEOUT_S} \\`,
    `  --data-binary @- <<'JSON'`,
    json,
    'JSON',
    `) || { echo "no answer: do not resend; look turn $TURN_ID up first" >&2; exit 1; }`,
    `echo "$RESULT"`,
    `# Each image: ask /api/file with the key for its direct link (no -L: it would send the key on), then`,
    `# download the link without the key.`,
    `for path in $(printf '%s' "$RESULT" | grep -o '"url": *"[^"]*"' | sed 's/.*"\\([^"]*\\)"$/\\1/'); do`,
    `  link=$(curl -sS -o /dev/null -w '%{redirect_url}' -H "Authorization: Bearer $${API_KEY_ENV}" "$BASE_URL$path")`,
    `  curl -sS -f -o "\${path##*/}" "$link" && echo "saved \${path##*/}"`,
    `done`,
  ].join('\n');
}

/** Python 3 with requests. The body is sent as the exact JSON text. */
function pythonSample({ base, json, acceptLanguage }: Sample): string {
  return [
    ...comment('#'),
    'import os, secrets, string, sys',
    'from urllib.parse import urljoin',
    '',
    'import requests',
    '',
    `BASE_URL = ${JSON.stringify(base)}`,
    `KEY = os.environ[${JSON.stringify(API_KEY_ENV)}]`,
    `BODY = ${JSON.stringify(json)}`,
    `turn_id = "lt_" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(10))`,
    `print("client turn id:", turn_id, file=sys.stderr)`,
    'try:',
    '    response = requests.post(',
    '        BASE_URL + "/api/v1/generate",',
    '        data=BODY.encode("utf-8"),',
    `        headers={"Authorization": "Bearer " + KEY, "Content-Type": "application/json", "Accept-Language": ${JSON.stringify(acceptLanguage)}, "X-Client-Turn-Id": turn_id},`,
    `        timeout=(10, ${TIMEOUT_S}),`,
    '    )',
    'except requests.RequestException as error:',
    '    sys.exit(f"no answer ({error}): do not resend; look turn {turn_id} up first")',
    'result = response.json()',
    'if not response.ok:',
    `    sys.exit(f"{result['error']['code']}: {result['error']['message']} (request {response.headers.get('X-Request-Id')})")`,
    'print(result["credits_charged"], [image["id"] for image in result["images"]])',
    'for image in result["images"]:',
    '    # The key goes to /api/file only; the direct link of its 302 is opened without it.',
    '    answer = requests.get(urljoin(BASE_URL + "/", image["url"]), headers={"Authorization": "Bearer " + KEY}, allow_redirects=False, timeout=60)',
    '    if answer.status_code != 302:',
    '        sys.exit(f"{image[\'filename\']}: {answer.status_code} {answer.text}")',
    '    file = requests.get(answer.headers["Location"], timeout=60)',
    '    file.raise_for_status()',
    '    with open(image["filename"], "wb") as out:',
    '        out.write(file.content)',
    '    print("saved", image["filename"])',
  ].join('\n');
}

/**
 * Node (ESM, no npm install) with node:http/https: the global fetch gives up on headers after 300 s, before a
 * 5-minute run answers, and would lose a paid result.
 */
function nodeSample({ base, json, acceptLanguage }: Sample): string {
  return [
    ...comment('//'),
    `// Node's global fetch stops waiting for headers after 300 s, so this uses node:http/https.`,
    `import { randomBytes } from 'node:crypto';`,
    `import { writeFileSync } from 'node:fs';`,
    `import { request as httpRequest } from 'node:http';`,
    `import { request as httpsRequest } from 'node:https';`,
    '',
    `const BASE_URL = ${JSON.stringify(base)};`,
    `const KEY = process.env.${API_KEY_ENV};`,
    `const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';`,
    `const turnId = 'lt_' + [...randomBytes(10)].map((b) => ALNUM[b % ALNUM.length]).join('');`,
    `console.error('client turn id:', turnId);`,
    '',
    `function send(url, { method = 'GET', headers = {}, body, timeoutS = 60 } = {}) {`,
    `  return new Promise((resolve, reject) => {`,
    `    const target = new URL(url);`,
    `    const open = target.protocol === 'https:' ? httpsRequest : httpRequest;`,
    `    const req = open(target, { method, headers }, (res) => {`,
    `      const chunks = [];`,
    `      res.on('data', (chunk) => chunks.push(chunk));`,
    `      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));`,
    `      res.on('error', reject);`,
    `    });`,
    `    req.setTimeout(timeoutS * 1000, () => req.destroy(new Error(\`no answer in \${timeoutS} s\`)));`,
    `    req.on('error', reject);`,
    `    req.end(body);`,
    `  });`,
    `}`,
    '',
    `const body = JSON.stringify(${indent(json, 0).trimStart()});`,
    `let answer;`,
    `try {`,
    `  answer = await send(BASE_URL + '/api/v1/generate', {`,
    `    method: 'POST',`,
    `    headers: { Authorization: \`Bearer \${KEY}\`, 'Content-Type': 'application/json', 'Accept-Language': ${JSON.stringify(acceptLanguage)}, 'X-Client-Turn-Id': turnId },`,
    `    body,`,
    `    timeoutS: ${TIMEOUT_S},`,
    `  });`,
    `} catch (error) {`,
    `  console.error(\`no answer (\${error.message}): do not resend; look turn \${turnId} up first\`);`,
    `  process.exit(1);`,
    `}`,
    `const result = JSON.parse(answer.body.toString('utf8'));`,
    `if (answer.status !== 200) {`,
    `  console.error(\`\${result.error.code}: \${result.error.message} (request \${answer.headers['x-request-id']})\`);`,
    `  process.exit(1);`,
    `}`,
    `console.log(result.credits_charged, result.images.map((image) => image.id));`,
    `for (const image of result.images) {`,
    `  // The key goes to /api/file only; the direct link of its 302 is opened without it.`,
    `  const link = await send(new URL(image.url, BASE_URL + '/').href, { headers: { Authorization: \`Bearer \${KEY}\` } });`,
    `  if (link.status !== 302) throw new Error(\`\${image.filename}: \${link.status} \${link.body}\`);`,
    `  const file = await send(link.headers.location);`,
    `  if (file.status !== 200) throw new Error(\`\${image.filename}: \${file.status} \${file.body}\`);`,
    `  writeFileSync(image.filename, file.body);`,
    `  console.log('saved', image.filename);`,
    `}`,
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? line : pad + line))
    .join('\n');
}
