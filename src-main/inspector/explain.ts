// Verification explained (spec §6, docs/decisions.md): runs the one shared verifier (src-shared/webhook-signature.ts) and turns
// its first failure into a diagnosis an integrator can act on: which secret, which byte, which clock.
import type { Diagnosis, DiagnosisCode } from '../../src-shared/ipc/inspector.ts';
import type { Language } from '../../src-shared/language.ts';
import { mainMessage } from '../domain/messages.ts';
import {
  computeWebhookSignature,
  constantTimeEqual,
  verifyWebhook,
  type HeaderBag,
  type VerificationReport,
} from '../../src-shared/webhook-signature.ts';

export interface KnownSecret {
  secret: string;
  /** When Regenerate replaced it (ms since epoch). */
  replacedAt: number;
}

export interface ExplainInput {
  headers: HeaderBag;
  body: Uint8Array;
  /** Unix seconds. */
  now: number;
  /** The secret to verify with; null when none is stored. */
  secret: string | null;
  /** Secrets replaced by Regenerate, newest first: an old match means the sender still signs with one. */
  previousSecrets?: readonly KnownSecret[];
  /**
   * Earlier verified attempts of the same delivery id, to tell "body changed" or "timestamp changed" from "wrong
   * secret"; a function is only called when the signature does not match.
   */
  earlierAttempts?: ReadonlyArray<{ body: Uint8Array; timestamp: string | null }> | (() => ReadonlyArray<{ body: Uint8Array; timestamp: string | null }>);
  /**
   * Set for pasted requests: with no earlier attempt to compare with, a mismatch is not blamed on the secret
   * (the paste may have changed the body or the timestamp), it says it cannot tell.
   */
  pasted?: boolean;
}

/**
 * Bodies above this size are not searched for a likely original (each candidate is a decode, a JSON parse and an
 * HMAC on main): a real delivery is a few hundred bytes, and a flood of large bodies must stay cheap.
 */
export const ORIGINALS_BODY_LIMIT = 64 * 1024;

export interface Explained {
  report: VerificationReport;
  code: DiagnosisCode;
  params: Record<string, string | number | null>;
}

/** Turns raw header pairs into the verifier's bag (names lower-cased, repeated headers kept). */
export function headerBag(pairs: ReadonlyArray<readonly [string, string]>): HeaderBag {
  const bag: Record<string, string[]> = {};
  for (const [name, value] of pairs) (bag[name.toLowerCase()] ??= []).push(value);
  return bag;
}

function firstHeader(bag: HeaderBag, name: string): string | null {
  const v = bag[name];
  if (v === undefined) return null;
  return typeof v === 'string' ? v : (v[0] ?? null);
}

/** Does any usable v1 part of the report equal the HMAC of (timestamp, body) under `secret`? */
async function matchesWith(report: VerificationReport, secret: string, body: Uint8Array, timestamp = report.timestamp.raw): Promise<boolean> {
  if (timestamp === null) return false;
  const expected = await computeWebhookSignature(secret, timestamp, body);
  return report.signature.parts.some((p) => p.problem === null && p.value !== null && constantTimeEqual(expected, p.value.toLowerCase()));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Bodies an intermediary commonly makes from the original; if one of them was signed, the body changed. */
function likelyOriginals(body: Uint8Array): Array<{ how: string; bytes: Uint8Array }> {
  if (body.byteLength > ORIGINALS_BODY_LIMIT) return [];
  const text = decoder.decode(body);
  const out: Array<{ how: string; bytes: Uint8Array }> = [];
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed !== text) out.push({ how: 'trailing_whitespace', bytes: encoder.encode(trimmed) });
  if (text.includes('\r\n')) out.push({ how: 'line_endings', bytes: encoder.encode(text.replace(/\r\n/g, '\n')) });
  try {
    const compact = JSON.stringify(JSON.parse(text));
    if (compact !== text && compact !== trimmed) out.push({ how: 'reserialized', bytes: encoder.encode(compact) });
  } catch {
    // Not JSON: no re-serialised form to try.
  }
  return out;
}

const NO_SECRET_STAND_IN = 'no-secret-stored';

/** How many hex characters of the expected HMAC the renderer sees: enough to compare by eye, useless to forge with. */
export const EXPECTED_HMAC_SHOWN = 8;

/**
 * The report as the renderer may see it: the expected HMAC cut to its first EXPECTED_HMAC_SHOWN characters, so
 * verifying bytes of its own choosing never hands out a whole signature (no signing oracle). Reports stored by
 * earlier versions are cut the same way when read.
 */
export function withExpectedPrefix(report: VerificationReport): VerificationReport {
  const expected = report.signature.expected;
  if (expected === null || expected.length <= EXPECTED_HMAC_SHOWN) return report;
  return { ...report, signature: { ...report.signature, expected: expected.slice(0, EXPECTED_HMAC_SHOWN) } };
}

/** Verifies and diagnoses one request. Never throws on any input. */
export async function explainDelivery(input: ExplainInput): Promise<Explained> {
  // Web Crypto refuses an empty HMAC key, so without a secret the other steps run with a stand-in key whose
  // signature result is then discarded: the request is still recorded and explained (spec §6: rejected).
  const report = await verifyWebhook({ headers: input.headers, body: input.body, secret: input.secret ?? NO_SECRET_STAND_IN, now: input.now });
  if (input.secret === null) {
    // Without a secret there is nothing to compare: show the parts, not an HMAC of an empty key.
    report.signature.expected = null;
    for (const part of report.signature.parts) part.matches = false;
    report.signature.verdict = 'skip';
    report.signatureValid = false;
    report.valid = false;
  }
  const params: Record<string, string | number | null> = {};
  const skew = report.timestamp.skewSeconds;

  let code: DiagnosisCode;
  switch (report.reason) {
    case null:
      code = input.secret === null ? 'no_secret' : 'valid';
      break;
    case 'missing_header':
      code = 'missing_header';
      params.missing = report.headers.missing.join(', ');
      break;
    case 'unknown_event':
      code = 'unknown_event';
      params.event = report.event.value;
      break;
    case 'timestamp_invalid':
      code = 'timestamp_invalid';
      params.timestamp = report.timestamp.raw;
      break;
    case 'timestamp_stale':
    case 'timestamp_future':
      code = report.reason;
      params.skew = skew === null ? null : Math.abs(skew);
      params.tolerance = report.timestamp.toleranceSeconds;
      break;
    case 'no_v1_signature':
      code = 'no_v1_signature';
      params.parts = report.signature.parts.map((p) => p.raw.slice(0, 24)).join(', ') || null;
      break;
    case 'body_not_json':
    case 'body_shape':
      code = report.reason;
      params.shape = report.body.shape;
      break;
    case 'signature_mismatch':
      code = await diagnoseMismatch(report, input, params);
      break;
  }
  params.deliveryId = firstHeader(input.headers, 'x-service-delivery');
  return { report: withExpectedPrefix(report), code, params };
}

async function diagnoseMismatch(report: VerificationReport, input: ExplainInput, params: Record<string, string | number | null>): Promise<DiagnosisCode> {
  if (input.secret === null) return 'no_secret';
  for (const old of input.previousSecrets ?? []) {
    if (await matchesWith(report, old.secret, input.body)) {
      params.replacedAt = old.replacedAt;
      return 'old_secret';
    }
  }
  for (const candidate of likelyOriginals(input.body)) {
    if (await matchesWith(report, input.secret, candidate.bytes)) {
      params.how = candidate.how;
      return 'body_changed';
    }
  }
  const earlierAttempts = typeof input.earlierAttempts === 'function' ? input.earlierAttempts() : (input.earlierAttempts ?? []);
  for (const earlier of earlierAttempts) {
    // spec §6: each retry is signed anew with its own timestamp; a signature that fits an earlier attempt's
    // timestamp means the timestamp header was edited without re-signing (a doctored replay).
    if (earlier.timestamp !== null && earlier.timestamp !== report.timestamp.raw && (await matchesWith(report, input.secret, input.body, earlier.timestamp))) {
      params.signedAt = earlier.timestamp;
      return 'timestamp_changed';
    }
    if (!sameBytes(earlier.body, input.body)) {
      params.how = 'differs_from_earlier_attempt';
      return 'body_changed';
    }
  }
  if (input.pasted && earlierAttempts.length === 0) return 'signature_unexplained';
  return 'wrong_secret';
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

type Params = Record<string, string | number | null>;

/** The plain-language explanation of a diagnosis, made from its code and facts in `language` when read. */
export function describeDiagnosis(code: DiagnosisCode, params: Params, language: Language): Diagnosis {
  return { code, params, message: mainMessage(`diagnosis_${code}`, params, language) };
}
