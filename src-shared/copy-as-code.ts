// "Copy as code" for a turn (the spec §4.1 request): the same request as curl and as TypeScript fetch, with the key as an
// environment variable placeholder. Pure: the key is never an input, so it cannot end up in the text.
import type { GenerateRequest } from './api.ts';
import { acceptLanguageFor, type Language } from './language.ts';

export const API_KEY_ENV = 'STUDIO_API_KEY';

export interface CodeSnippets {
  curl: string;
  typescript: string;
}

/** spec §1: a run can take up to 5 minutes, so the samples wait a little longer than that. */
const TIMEOUT_S = 330;

export function generateRequestAsCode(input: {
  baseUrl: string;
  request: GenerateRequest;
  /** The service's session id (s_…) to continue, if the turn had one. */
  serviceSessionId?: string | null;
  language: Language;
}): CodeSnippets {
  const base = input.baseUrl.replace(/\/+$/, '');
  const url = `${base}/api/v1/generate`;
  const body: GenerateRequest = { ...input.request };
  if (input.serviceSessionId) body.session_id = input.serviceSessionId;
  else delete body.session_id;
  const json = JSON.stringify(body, null, 2);
  const acceptLanguage = acceptLanguageFor(input.language);

  // A quoted heredoc passes the body to curl byte for byte: no shell expansion of $, ` or quotes in prompts.
  // JSON.stringify escapes newlines, so no body line can equal the delimiter.
  const curl = [
    `curl -sS -X POST ${shellQuote(url)} \\`,
    `  -H "Authorization: Bearer $${API_KEY_ENV}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -H ${shellQuote(`Accept-Language: ${acceptLanguage}`)} \\`,
    `  --max-time ${TIMEOUT_S} \\`,
    `  --data-binary @- <<'JSON'`,
    json,
    'JSON',
  ].join('\n');

  const typescript = [
    `// Needs ${API_KEY_ENV} in the environment. A run can take up to 5 minutes: keep the timeout long, and after`,
    `// a timeout do not resend blindly (the run may have finished and been charged).`,
    `const response = await fetch(${JSON.stringify(url)}, {`,
    `  method: 'POST',`,
    `  headers: {`,
    `    Authorization: \`Bearer \${process.env.${API_KEY_ENV}}\`,`,
    `    'Content-Type': 'application/json',`,
    `    'Accept-Language': ${JSON.stringify(acceptLanguage)},`,
    `  },`,
    `  body: JSON.stringify(${indent(json, 2).trimStart()}),`,
    `  signal: AbortSignal.timeout(${TIMEOUT_S * 1000}),`,
    `});`,
    `const requestId = response.headers.get('X-Request-Id');`,
    `const result = await response.json();`,
    `if (!response.ok) {`,
    `  throw new Error(\`\${result.error.code}: \${result.error.message} (request \${requestId})\`);`,
    `}`,
    `console.log(result.credits_charged, result.images.map((image: { id: string; url: string }) => image.url));`,
  ].join('\n');

  return { curl, typescript };
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
