// Deliberately broken webhook deliveries, for testing a receiver (the inspector's send-test, its replay and the
// service CLI's `trigger`). One owner for what each variant does to a correctly signed delivery and for the
// verifier step it must fail at, so the app, the command line and the tests agree.
import { WEBHOOK_TOLERANCE_S, computeWebhookSignature, signWebhookDelivery, type VerifyFailure, type WebhookEvent } from './webhook-signature.ts';

export const WEBHOOK_BREAKAGES = [
  'none',
  'stale_timestamp',
  'future_timestamp',
  'tampered_body',
  'wrong_secret',
  'previous_secret',
  'multi_part_signature',
  'missing_signature',
  'missing_timestamp',
] as const;
export type WebhookBreakage = (typeof WEBHOOK_BREAKAGES)[number];

/**
 * The first step a receiver that follows the signature rules fails at, or null when it must accept the
 * delivery. A multi-part header (`v1=<other>, v1=<right>`) is valid: any matching v1 part is enough, which
 * receivers that compare the whole header get wrong.
 */
export const BREAKAGE_FAILS_AT: Readonly<Record<WebhookBreakage, VerifyFailure | null>> = {
  none: null,
  stale_timestamp: 'timestamp_stale',
  future_timestamp: 'timestamp_future',
  tampered_body: 'signature_mismatch',
  wrong_secret: 'signature_mismatch',
  previous_secret: 'signature_mismatch',
  multi_part_signature: null,
  missing_signature: 'missing_header',
  missing_timestamp: 'missing_header',
};

/** How far outside the 5-minute window a stale or future timestamp is put (well past any clock skew). */
export const BREAKAGE_SKEW_S = WEBHOOK_TOLERANCE_S + 60;

export interface BrokenDeliveryInput {
  secret: string;
  /** Needed for `previous_secret`: the secret the receiver's sender used before the current one. */
  previousSecret?: string | null;
  event: WebhookEvent;
  deliveryId: string;
  /** Unix seconds: now, for a timely delivery. */
  timestamp: number;
  body: Uint8Array;
  breakage: WebhookBreakage;
}

export interface BrokenDelivery {
  headers: Record<string, string>;
  /** The bytes to send (differs from the input only for `tampered_body`). */
  body: Uint8Array;
  timestamp: number;
}

export class BreakageError extends Error {
  readonly code = 'no_previous_secret';
}

/** A random whsec_ secret nobody holds, for `wrong_secret`. */
function strangerSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** One byte changed after signing: the JSON stays valid (a space added before the closing brace, or one appended). */
function tamper(body: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(body);
  const at = text.lastIndexOf('}');
  const changed = at >= 0 ? `${text.slice(0, at)} ${text.slice(at)}` : `${text} `;
  return new TextEncoder().encode(changed);
}

/** Signs the delivery as the service would, then breaks it as asked. */
export async function buildBrokenDelivery(input: BrokenDeliveryInput): Promise<BrokenDelivery> {
  const { breakage } = input;
  const timestamp =
    breakage === 'stale_timestamp' ? input.timestamp - BREAKAGE_SKEW_S : breakage === 'future_timestamp' ? input.timestamp + BREAKAGE_SKEW_S : input.timestamp;
  let secret = input.secret;
  if (breakage === 'wrong_secret') secret = strangerSecret();
  if (breakage === 'previous_secret') {
    if (!input.previousSecret) throw new BreakageError('no earlier secret is known to sign with');
    secret = input.previousSecret;
  }
  const headers = await signWebhookDelivery({ secret, event: input.event, deliveryId: input.deliveryId, timestamp, body: input.body });
  let body = input.body;
  if (breakage === 'tampered_body') body = tamper(input.body);
  if (breakage === 'multi_part_signature') {
    // A part signed with another secret first: a receiver must try every v1 part.
    const other = await computeWebhookSignature(strangerSecret(), timestamp, input.body);
    headers['X-Service-Signature'] = `v1=${other}, ${headers['X-Service-Signature']}`;
  }
  if (breakage === 'missing_signature') delete headers['X-Service-Signature'];
  if (breakage === 'missing_timestamp') delete headers['X-Service-Timestamp'];
  return { headers, body, timestamp };
}
