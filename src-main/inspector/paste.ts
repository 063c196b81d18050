// Paste to verify (spec §6 signature verification): a raw HTTP request captured elsewhere (request line optional), or headers and
// a body given separately, turned into header pairs and body bytes for the same step-by-step verdict.

export interface PastedRequest {
  headers: Array<[string, string]>;
  body: Uint8Array;
}

const REQUEST_LINE = /^[A-Z]{3,10} \S+ HTTP\/\d(\.\d)?$/;

/** Parses "Name: value" lines; a request line or a status line at the top is skipped. */
export function parseHeaderLines(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || REQUEST_LINE.test(trimmed)) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    out.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return out;
}

/**
 * A raw request: headers, one blank line, body. The body is kept byte for byte (no trimming), so a newline the
 * paste added shows up as "body changed" with that reason rather than being silently hidden.
 */
export function parseRawRequest(raw: string): PastedRequest {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : '';
  return { headers: parseHeaderLines(head), body: new TextEncoder().encode(body) };
}

export function parseSeparate(headers: string, body: string): PastedRequest {
  return { headers: parseHeaderLines(headers), body: new TextEncoder().encode(body) };
}
