// Export a captured delivery: as a curl command that replays it byte for byte (spec §6: the signature covers the
// raw body, so it goes through --data-binary), and as JSON.
import type { InspectorExport } from '../../src-shared/ipc/inspector.ts';
import type { StoredRequest } from './store.ts';

/** Headers curl computes itself; copying them would be wrong once the target changes. */
const SKIPPED = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'expect']);

/** POSIX shell single-quoting: safe for any text. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function targetUrl(request: StoredRequest): string {
  const host = request.headers.find(([n]) => n.toLowerCase() === 'host')?.[1] ?? '127.0.0.1';
  return `http://${host}${request.path}`;
}

export function exportCurl(request: StoredRequest): InspectorExport {
  const lines = [`curl -X ${request.method} ${shellQuote(targetUrl(request))}`];
  for (const [name, value] of request.headers) {
    if (SKIPPED.has(name.toLowerCase())) continue;
    lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  }
  const bodyText = new TextDecoder().decode(request.body);
  if (request.body.byteLength > 0) lines.push(`  --data-binary ${shellQuote(bodyText)}`);
  return { format: 'curl', filename: `delivery-${request.deliveryId ?? request.id}.sh`, text: `${lines.join(' \\\n')}\n` };
}

export function exportJson(request: StoredRequest): InspectorExport {
  const value = {
    requestId: request.id,
    receivedAt: new Date(request.receivedAt).toISOString(),
    method: request.method,
    path: request.path,
    deliveryId: request.deliveryId,
    event: request.event,
    headers: request.headers.map(([name, v]) => ({ name, value: v })),
    body: new TextDecoder().decode(request.body),
    bodyBase64: Buffer.from(request.body).toString('base64'),
    bodyBytes: request.bodyBytes,
    tooLarge: request.tooLarge,
    responseStatus: request.responseStatus,
    valid: request.valid,
    diagnosis: request.diagnosis,
    verification: request.report,
  };
  return { format: 'json', filename: `delivery-${request.deliveryId ?? request.id}.json`, text: `${JSON.stringify(value, null, 2)}\n` };
}
