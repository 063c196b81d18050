// IPC: the webhook inspector (DESIGN.md §1). A receiver on 127.0.0.1 records every request, verifies it step by
// step (spec §6), groups retries by delivery id and replays deliveries. The renderer never receives a webhook
// secret: only whether one is stored and its masked tail (DESIGN.md §2 rule 3).
import { z } from 'zod';
import type { PublicationRecord } from '../api.ts';
import { WEBHOOK_BREAKAGES, type WebhookBreakage } from '../webhook-breakage.ts';
import { WEBHOOK_SECRET_PATTERN, WEBHOOK_SECRET_RULE, type VerificationReport, type VerifyFailure, type WebhookEvent } from '../webhook-signature.ts';
import { HeaderTokenSchema, IdSchema, method } from './contract.ts';

/** Largest body the receiver keeps; bigger ones are refused with 413 (DESIGN.md §2 rule 6). */
export const INSPECTOR_BODY_LIMIT = 1024 * 1024;
/** Longest delay the receiver may be told to wait before answering (the service gives up after 8 s). */
export const INSPECTOR_MAX_DELAY_MS = 30_000;

export interface InspectorStatus {
  running: boolean;
  port: number | null;
  /** e.g. http://127.0.0.1:8430/webhooks */
  url: string | null;
  secretStored: boolean;
  /** Last four characters of the stored secret, e.g. `whsec_…Ab3d`; null when none is stored. */
  secretMasked: string | null;
  /** How many earlier secrets (replaced by Regenerate) the inspector still knows. */
  previousSecrets: number;
  forcedStatus: number | null;
  delayMs: number;
  error: string | null;
  /**
   * Requests refused (403, not stored) since the app started because a web page sent them: they carried an
   * Origin or Sec-Fetch-Site header, which the service's sender and curl never send.
   */
  browserRequestsRefused?: number;
  /**
   * Where the secret is kept: the system keychain, or this run's memory when there is no keychain (then it is
   * gone at quit and the badge must not say "keychain").
   */
  secretKept?: 'keychain' | 'memory';
  /** Every capture at /webhooks is relayed unchanged to this URL (forward-to); null when off. */
  forwardTo?: string | null;
}

/** One relay of a capture to the forward-to endpoint: what the integrator's endpoint answered. */
export interface ForwardAttempt {
  /** ms since epoch, when the relay started. */
  at: number;
  url: string;
  /** null when no answer came (connection refused, timeout). */
  status: number | null;
  durationMs: number;
  error: string | null;
  responseHeaders: CapturedHeader[];
  /** First 4 KB of the answer. */
  responseSnippet: string;
}

/**
 * Why a verification failed, in the user's words (spec §6): the verifier's own failures, except a bare mismatch,
 * which the inspector explains by its cause (wrong or old secret, changed timestamp or body).
 */
export type DiagnosisCode =
  | 'valid'
  | Exclude<VerifyFailure, 'signature_mismatch'>
  | 'no_secret'
  | 'wrong_secret'
  /** Pasted without anything to compare with: another secret, or a body or timestamp changed after signing. */
  | 'signature_unexplained'
  | 'old_secret'
  | 'timestamp_changed'
  | 'body_changed'
  | 'too_large'
  | 'wrong_path';

export interface Diagnosis {
  code: DiagnosisCode;
  /** A plain-language explanation in the UI language. */
  message: string;
  /** Facts behind the message (e.g. which header is missing, when the old secret was replaced). */
  params: Record<string, string | number | null>;
}

export interface CapturedHeader {
  name: string;
  value: string;
}

/** One request the receiver recorded (an attempt, when it carries a delivery id). */
export interface CapturedRequest {
  requestId: string;
  receivedAt: number;
  method: string;
  path: string;
  deliveryId: string | null;
  event: string | null;
  /** What the receiver answered. */
  responseStatus: number;
  valid: boolean;
  diagnosis: DiagnosisCode;
  bodyBytes: number;
  tooLarge: boolean;
  publication: { id: number; packId: string; version: number } | null;
}

export interface DeliveryGroup {
  /** The delivery id, or the request id for requests without one. */
  key: string;
  deliveryId: string | null;
  event: string | null;
  firstAt: number;
  lastAt: number;
  /** Attempts in the order they arrived (spec §6: retries keep the delivery id). */
  attempts: CapturedRequest[];
  /** Whether any attempt verified. */
  anyValid: boolean;
  /** Set when an earlier delivery carried the same (pack_id, version) (spec §6 rule 4). */
  duplicateOf: string | null;
}

export interface VerificationExplained {
  /** `signature.expected` holds only the first 8 hex characters of the expected HMAC (src-main/inspector/explain.ts). */
  report: VerificationReport;
  diagnosis: Diagnosis;
}

export interface CapturedRequestDetail extends CapturedRequest {
  headers: CapturedHeader[];
  /** The body as UTF-8 text (replacement characters where it is not). */
  bodyText: string;
  /** The verdict when it arrived, against the secret stored then. */
  verification: VerificationExplained;
  /** Each relay of this capture to the forward-to endpoint, oldest first. */
  forwards?: ForwardAttempt[];
}

export interface SendResult {
  url: string;
  deliveryId: string;
  timestamp: number;
  /** The request as sent (the signature header included; never the secret). */
  requestHeaders: CapturedHeader[];
  body: string;
  /** null when no answer came (connection refused, timeout). */
  status: number | null;
  responseHeaders: CapturedHeader[];
  /** First 4 KB of the answer. */
  responseSnippet: string;
  durationMs: number;
  error: string | null;
  /** The deliberate breakage sent, and the verifier step a receiver must fail at (null: it must accept). */
  breakage?: WebhookBreakage;
  failsAt?: VerifyFailure | null;
}

export interface InspectorExport {
  format: 'curl' | 'json';
  filename: string;
  text: string;
}

const Port = z.number().int().min(0).max(65535);
const HttpStatus = z.number().int().min(100).max(599);
const RequestId = IdSchema;
const Secret = z.string().trim().min(1).max(512);

/** A target URL for send-test and resend: http(s), no credentials in it. */
const TargetUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.username === '' && u.password === '';
    } catch {
      return false;
    }
  }, 'an http:// or https:// URL without a user name or password');

/** The secret to sign or verify with: one typed by the user, or the stored one. */
const SecretChoice = z.union([
  z.object({ secret: Secret, useStoredSecret: z.literal(false).optional() }),
  z.object({ useStoredSecret: z.literal(true), secret: z.undefined().optional() }),
]);

/** A whsec_ secret the user brings (their own app's), to verify deliveries from any sender with. */
const OwnSecret = z
  .string()
  .trim()
  .regex(WEBHOOK_SECRET_PATTERN, WEBHOOK_SECRET_RULE);

const Breakage = z.enum(WEBHOOK_BREAKAGES);

const PublicationFields = z.object({
  id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  pack_id: z.string().max(64),
  version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  style_code: z.string().max(256),
  published_at: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export const inspectorMethods = {
  inspectorStatus: method<InspectorStatus>()('inspector:status', z.object({})),
  inspectorConfigure: method<InspectorStatus>()(
    'inspector:configure',
    z.object({
      /** Listen on this port (0 = any free port); changing it restarts the receiver. */
      port: Port.optional(),
      /** Answer every /webhooks request with this status instead of the verdict's; null to stop forcing. */
      forcedStatus: HttpStatus.nullable().optional(),
      /** Relay every capture at /webhooks unchanged to this URL (your own receiver); null turns it off. */
      forwardTo: TargetUrl.nullable().optional(),
      delayMs: z.number().int().min(0).max(INSPECTOR_MAX_DELAY_MS).optional(),
    }),
  ),
  inspectorList: method<{ groups: DeliveryGroup[]; total: number }>()(
    'inspector:list',
    z.object({ limit: z.number().int().min(1).max(500).optional() }),
  ),
  inspectorGet: method<CapturedRequestDetail>()('inspector:get', z.object({ requestId: RequestId })),
  inspectorClear: method<{ cleared: number }>()('inspector:clear', z.object({})),
  inspectorVerifyPasted: method<VerificationExplained & { headers: CapturedHeader[]; bodyBytes: number }>()(
    'inspector:verify-pasted',
    z.intersection(
      z.union([
        /** A raw HTTP request: request line (optional), headers, blank line, body. */
        z.object({ raw: z.string().min(1).max(INSPECTOR_BODY_LIMIT + 64 * 1024) }),
        /** Headers ("Name: value" lines) and the body separately. */
        z.object({ headers: z.string().min(1).max(64 * 1024), body: z.string().max(INSPECTOR_BODY_LIMIT) }),
      ]),
      SecretChoice,
    ),
  ),
  inspectorSendTest: method<SendResult>()(
    'inspector:send-test',
    z.intersection(
      z.object({
        url: TargetUrl,
        event: z.enum(['image_pack.published', 'ping'] satisfies WebhookEvent[]),
        publication: PublicationFields.optional(),
        /** Keep this delivery id (to test dedupe) or omit for a new UUID v4. */
        deliveryId: HeaderTokenSchema.optional(),
        /** Break the delivery on purpose (stale timestamp, tampered body, …); none by default. */
        breakage: Breakage.optional(),
      }),
      SecretChoice,
    ),
  ),
  inspectorResend: method<SendResult>()(
    'inspector:resend',
    z.intersection(
      z.object({
        requestId: RequestId,
        url: TargetUrl,
        /** The body edited before the replay; re-signed with a fresh timestamp. Omit to replay the bytes captured. */
        bodyText: z.string().max(INSPECTOR_BODY_LIMIT).optional(),
        breakage: Breakage.optional(),
      }),
      SecretChoice,
    ),
  ),
  /** Verify every later delivery with this secret (your own app's whsec_); the local service's is replaced. */
  inspectorSetSecret: method<InspectorStatus>()('inspector:set-secret', z.object({ secret: OwnSecret })),
  /**
   * The whole current secret, for copying into the integrator's receiver. Asked for by a click only; the
   * renderer shows it until hidden and never caches it.
   */
  inspectorRevealSecret: method<{ secret: string }>()('inspector:reveal-secret', z.object({})),
  inspectorConnectLocal: method<InspectorStatus>()('inspector:connect-local', z.object({})),
  inspectorRegenerateLocal: method<InspectorStatus>()('inspector:regenerate-local', z.object({})),
  inspectorFetchPublication: method<PublicationRecord>()(
    'inspector:fetch-publication',
    z.object({ publicationId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  ),
  inspectorExport: method<InspectorExport>()(
    'inspector:export',
    z.object({ requestId: RequestId, format: z.enum(['curl', 'json']) }),
  ),
};
