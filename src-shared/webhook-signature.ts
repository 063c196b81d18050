// spec §6 "Signature verification": HMAC-SHA256 over `ts + '.' + raw body` with a whsec_ secret, sent as
// `X-Service-Signature: v1=<hex>`. The verifier reports every step with its verdict so the webhook inspector
// can explain a failure instead of saying "signature mismatch".

export const WEBHOOK_EVENTS = ['image_pack.published', 'ping'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_TOLERANCE_S = 5 * 60;
export const WEBHOOK_USER_AGENT = 'service-webhook/1';
/**
 * A signing secret someone brings (their own app's, or one typed to sign a test): `whsec_` and at least 8 letters,
 * digits, `-` or `_`. Wider than the secrets the service makes (ID_SHAPES.webhookSecret), which all fit it.
 */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{8,256}$/;
export const WEBHOOK_SECRET_RULE = 'a webhook secret: whsec_ followed by at least 8 letters, digits, - or _';

export const WEBHOOK_HEADERS = {
  event: 'x-service-event',
  delivery: 'x-service-delivery',
  timestamp: 'x-service-timestamp',
  signature: 'x-service-signature',
} as const;

const encoder = new TextEncoder();

function toBytes(body: Uint8Array | string): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body);
  const copy = new Uint8Array(body.byteLength);
  copy.set(body);
  return copy;
}

function toHex(buffer: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(buffer)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Hex HMAC-SHA256 of `${timestamp}.${body}` with the secret (the whole whsec_… string is the key). */
export async function computeWebhookSignature(secret: string, timestamp: string | number, body: Uint8Array | string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const bytes = toBytes(body);
  const message = new Uint8Array(prefix.byteLength + bytes.byteLength);
  message.set(prefix, 0);
  message.set(bytes, prefix.byteLength);
  return toHex(await crypto.subtle.sign('HMAC', key, message));
}

/** The headers of one delivery attempt, signed with a fresh timestamp (spec §6). */
export async function signWebhookDelivery(options: {
  secret: string;
  event: WebhookEvent;
  deliveryId: string;
  timestamp: number;
  body: Uint8Array | string;
}): Promise<Record<string, string>> {
  const signature = await computeWebhookSignature(options.secret, options.timestamp, options.body);
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Service-Event': options.event,
    'X-Service-Delivery': options.deliveryId,
    'X-Service-Timestamp': String(options.timestamp),
    'X-Service-Signature': `v1=${signature}`,
  };
}

/** Compares two strings in time that depends only on the expected length (spec §6 step 3). */
export function constantTimeEqual(expected: string, received: string): boolean {
  let diff = expected.length ^ received.length;
  for (let i = 0; i < expected.length; i++) {
    diff |= expected.charCodeAt(i) ^ (i < received.length ? received.charCodeAt(i) : 0);
  }
  return diff === 0;
}

export type VerifyFailure =
  | 'missing_header'
  | 'unknown_event'
  | 'timestamp_invalid'
  | 'timestamp_stale'
  | 'timestamp_future'
  | 'no_v1_signature'
  | 'signature_mismatch'
  | 'body_not_json'
  | 'body_shape';

export type StepVerdict = 'pass' | 'fail' | 'skip';

export interface SignaturePart {
  raw: string;
  scheme: string | null;
  value: string | null;
  /** Why a part is not usable: not scheme=value, not v1, not 64 hex digits. */
  problem: 'not_key_value' | 'other_scheme' | 'not_hex' | 'uppercase_hex' | null;
  matches: boolean;
}

export interface VerificationReport {
  /** Signature and timestamp hold, and the body is JSON of the documented shape. */
  valid: boolean;
  /** The signature matched one v1 part with the timestamp inside the window. */
  signatureValid: boolean;
  /** The first failing step's reason, or null when valid. */
  reason: VerifyFailure | null;
  headers: { verdict: StepVerdict; missing: string[] };
  event: { verdict: StepVerdict; value: string | null };
  deliveryId: string | null;
  timestamp: {
    verdict: StepVerdict;
    raw: string | null;
    value: number | null;
    /** now − timestamp in seconds: positive means the delivery is older than now. */
    skewSeconds: number | null;
    /** Seconds left before the timestamp leaves the 5-minute window (negative once it has). */
    expiresInSeconds: number | null;
    toleranceSeconds: number;
  };
  signature: { verdict: StepVerdict; parts: SignaturePart[]; expected: string | null };
  body: { verdict: StepVerdict; json: boolean; shape: string | null; byteLength: number };
}

export type HeaderBag = Record<string, string | readonly string[] | undefined>;

function headerValues(headers: HeaderBag, name: string): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    if (typeof value === 'string') out.push(value);
    else out.push(...value);
  }
  return out;
}

/** Parses `v1=<hex>, v1=<hex>, v0=…` into its parts (spec §6 step 3: any matching v1 part is valid). */
export function parseSignatureHeader(header: string): SignaturePart[] {
  return header
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((raw): SignaturePart => {
      const eq = raw.indexOf('=');
      if (eq <= 0) return { raw, scheme: null, value: null, problem: 'not_key_value', matches: false };
      const scheme = raw.slice(0, eq).trim();
      const value = raw.slice(eq + 1).trim();
      if (scheme !== 'v1') return { raw, scheme, value, problem: 'other_scheme', matches: false };
      if (!/^[0-9a-f]{64}$/i.test(value)) return { raw, scheme, value, problem: 'not_hex', matches: false };
      // The service writes lower-case hex, and receivers that compare strings reject upper case: so does this one.
      if (!/^[0-9a-f]{64}$/.test(value)) return { raw, scheme, value, problem: 'uppercase_hex', matches: false };
      return { raw, scheme, value, problem: null, matches: false };
    });
}

/** Describes the documented body shapes of spec §6, or returns why it is not one. */
export function describeWebhookBody(value: unknown): { ok: true; shape: WebhookEvent } | { ok: false; shape: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, shape: 'not an object' };
  const body = value as Record<string, unknown>;
  if (body.event === 'ping') return { ok: true, shape: 'ping' };
  if (body.event !== 'image_pack.published') return { ok: false, shape: `unknown event ${JSON.stringify(body.event)}` };
  const p = body.publication as Record<string, unknown> | null | undefined;
  if (typeof p !== 'object' || p === null) return { ok: false, shape: 'publication missing' };
  const problems: string[] = [];
  if (!Number.isInteger(p.id)) problems.push('publication.id is not an integer');
  if (typeof p.pack_id !== 'string' || !/^pk_[A-Za-z0-9]{8}$/.test(p.pack_id)) problems.push('publication.pack_id is not pk_<8>');
  if (!Number.isInteger(p.version)) problems.push('publication.version is not an integer');
  if (typeof p.style_code !== 'string') problems.push('publication.style_code is not a string');
  if (!Number.isInteger(p.published_at)) problems.push('publication.published_at is not an integer');
  if (problems.length > 0) return { ok: false, shape: problems.join('; ') };
  return { ok: true, shape: 'image_pack.published' };
}

/**
 * Verifies one received request step by step (spec §6 steps 1–4). Every step is evaluated even after a
 * failure, so a report can show all of them; `reason` is the first failure in this order: headers, event,
 * timestamp format, signature, timestamp window, body.
 */
export async function verifyWebhook(input: {
  headers: HeaderBag;
  body: Uint8Array;
  secret: string;
  /** Current Unix time in seconds. */
  now: number;
  toleranceSeconds?: number;
}): Promise<VerificationReport> {
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TOLERANCE_S;
  const required = [WEBHOOK_HEADERS.event, WEBHOOK_HEADERS.delivery, WEBHOOK_HEADERS.timestamp, WEBHOOK_HEADERS.signature];
  const missing = required.filter((h) => headerValues(input.headers, h).every((v) => v.trim() === ''));
  const eventValue = headerValues(input.headers, WEBHOOK_HEADERS.event)[0] ?? null;
  const deliveryId = headerValues(input.headers, WEBHOOK_HEADERS.delivery)[0] ?? null;
  const tsValues = headerValues(input.headers, WEBHOOK_HEADERS.timestamp);
  const tsRaw = tsValues.length === 1 ? (tsValues[0] ?? null) : tsValues.length > 1 ? tsValues.join(', ') : null;
  const sigHeader = headerValues(input.headers, WEBHOOK_HEADERS.signature).join(', ');

  const eventVerdict: StepVerdict =
    eventValue === null ? 'skip' : (WEBHOOK_EVENTS as readonly string[]).includes(eventValue) ? 'pass' : 'fail';

  // Timestamp: decimal Unix seconds only; one header.
  let tsValue: number | null = null;
  if (tsRaw !== null && tsValues.length === 1 && /^\d{1,12}$/.test(tsRaw.trim())) tsValue = Number(tsRaw.trim());
  const skew = tsValue === null ? null : input.now - tsValue;
  const tsFormatOk = tsValue !== null;
  const tsInWindow = skew !== null && Math.abs(skew) <= tolerance;

  // Signature: HMAC over the exact timestamp text and the raw bytes.
  const parts = sigHeader ? parseSignatureHeader(sigHeader) : [];
  let expected: string | null = null;
  if (tsRaw !== null && tsValues.length === 1) {
    expected = await computeWebhookSignature(input.secret, tsRaw, input.body);
    for (const part of parts) {
      if (part.problem === null && part.value !== null) part.matches = constantTimeEqual(expected, part.value.toLowerCase());
    }
  }
  const usableParts = parts.filter((p) => p.problem === null);
  const signatureMatched = parts.some((p) => p.matches);

  // Body: JSON of the documented shape, and its event equal to the header's.
  let json = false;
  let shape: string | null = null;
  let bodyOk = false;
  try {
    const parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(input.body)) as unknown;
    json = true;
    const described = describeWebhookBody(parsed);
    shape = described.shape;
    bodyOk = described.ok && (eventValue === null || described.shape === eventValue);
    if (described.ok && eventValue !== null && described.shape !== eventValue) shape = `body event ${described.shape} differs from header ${eventValue}`;
  } catch {
    // Not UTF-8 or not JSON: `json` stays false.
  }

  let reason: VerifyFailure | null = null;
  if (missing.length > 0) reason = 'missing_header';
  else if (eventVerdict === 'fail') reason = 'unknown_event';
  else if (!tsFormatOk) reason = 'timestamp_invalid';
  else if (usableParts.length === 0) reason = 'no_v1_signature';
  else if (!signatureMatched) reason = 'signature_mismatch';
  else if (!tsInWindow) reason = skew !== null && skew < 0 ? 'timestamp_future' : 'timestamp_stale';
  else if (!json) reason = 'body_not_json';
  else if (!bodyOk) reason = 'body_shape';

  const signatureValid = missing.length === 0 && tsFormatOk && signatureMatched && tsInWindow;
  return {
    valid: reason === null,
    signatureValid,
    reason,
    headers: { verdict: missing.length === 0 ? 'pass' : 'fail', missing },
    event: { verdict: eventVerdict, value: eventValue },
    deliveryId,
    timestamp: {
      verdict: tsRaw === null ? 'skip' : tsInWindow ? 'pass' : 'fail',
      raw: tsRaw,
      value: tsValue,
      skewSeconds: skew,
      expiresInSeconds: skew === null ? null : tolerance - skew,
      toleranceSeconds: tolerance,
    },
    signature: {
      verdict: parts.length === 0 && expected === null ? 'skip' : signatureMatched ? 'pass' : 'fail',
      parts,
      expected,
    },
    body: { verdict: json && bodyOk ? 'pass' : 'fail', json, shape, byteLength: input.body.byteLength },
  };
}
