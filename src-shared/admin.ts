// The local service's admin API (DESIGN.md §4 table, plus the read-only extras of docs/decisions.md "Extra
// admin ids and routes"): every request body and answer as a zod schema, so the app's one admin client
// parses what it gets instead of trusting it, and the service's routes parse every body with the same schemas
// (their limits included), so each body and answer has one shape. Answers are plain objects (unknown fields are
// dropped, so a service that adds a field stays readable); request bodies are strict.
import { z } from 'zod';
import { ALL_ERROR_CODES, type ErrorCode } from './errors.ts';
import { REQUEST_ROUTES, type RequestRoute } from './limits.ts';
import { CONCRETE_MODEL_IDS, IMAGE_COUNTS, type ConcreteModelId } from './catalog.ts';
import {
  AdminAccountSchema,
  AdminApiKeySchema,
  AdminWebhookSchema,
  API_SCOPES,
  FaultsSchema,
  ImageSchema,
  LastDeliverySchema,
  PublicationSchema,
  ServiceSettingsSchema,
  WarningSchema,
} from './api.ts';

// The shapes the service's routes already validate with live in ./api.ts; they are part of this contract.
export { AdminAccountSchema, AdminApiKeySchema, AdminWebhookSchema, FaultsSchema, LastDeliverySchema, ServiceSettingsSchema };
export type { AdminAccount, AdminApiKey, Faults, ServiceSettings } from './api.ts';

// ---- Request bodies (the service refuses anything else with 400 invalid_request naming the field) ----

/** A balance or an amount of credits: a whole number up to 10^12. */
const Credits = z.number().int().min(0).max(1e12);
/** An account's age in days, up to 100 years. */
const AgeDays = z.number().min(0).max(36500);

export const CreateAccountBodySchema = z.strictObject({
  credits: Credits.optional(),
  age_days: AgeDays.optional(),
  banned: z.boolean().optional(),
});
export type CreateAccountBody = z.infer<typeof CreateAccountBodySchema>;

export const PatchAccountBodySchema = z.strictObject({
  credits: Credits.optional(),
  add_credits: z.number().int().min(-1e12).max(1e12).optional(),
  banned: z.boolean().optional(),
  age_days: AgeDays.optional(),
});
export type PatchAccountBody = z.infer<typeof PatchAccountBodySchema>;

export const CreateApiKeyBodySchema = z.strictObject({
  name: z.string().min(1).max(200),
  scopes: z.array(z.enum(API_SCOPES)),
  /** Unix seconds. */
  expires_at: z.number().int().min(0).nullable().optional(),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBodySchema>;

/** PATCH /admin/api-keys/:id: null returns the key to the default setting. */
export const PatchApiKeyBodySchema = z.strictObject({ rate_limit_per_24h: z.number().int().min(1).nullable() });
export type PatchApiKeyBody = z.infer<typeof PatchApiKeyBodySchema>;

/**
 * POST /admin/clock: `advance_s` moves the service clock forward; `reset: true` first brings it back to real time
 * (both may be given: reset, then advance). At least one of the two.
 */
export const AdvanceClockBodySchema = z
  .strictObject({ advance_s: z.number().min(0).max(1e10).optional(), reset: z.literal(true).optional() })
  .refine((body) => body.advance_s !== undefined || body.reset !== undefined, {
    path: ['advance_s'],
    message: 'give advance_s (seconds) or reset: true',
  });
export type AdvanceClockBody = z.infer<typeof AdvanceClockBodySchema>;

// ---- Snapshots and reset (docs/local-service.md "Snapshots and reset") ----

/** A snapshot's name: a folder name on every system, 1 to 64 letters, digits, `.`, `_` or `-`, not starting with `.`. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}$/;

export const CreateSnapshotBodySchema = z.strictObject({
  name: z.string().regex(SNAPSHOT_NAME, '1 to 64 letters, digits, ".", "_" or "-", not starting with "."'),
});
export type CreateSnapshotBody = z.infer<typeof CreateSnapshotBodySchema>;

/** One snapshot: its name, when it was taken (Unix s of the service clock) and its size on disk in bytes. */
export const AdminSnapshotSchema = z.object({ name: z.string(), created_at: z.number(), size: z.number() });
export type AdminSnapshot = z.infer<typeof AdminSnapshotSchema>;

/** GET /admin/snapshots, newest first. */
export const AdminSnapshotListSchema = z.object({ snapshots: z.array(AdminSnapshotSchema) });
export type AdminSnapshotList = z.infer<typeof AdminSnapshotListSchema>;

/** POST /admin/reset: the service as a fresh data folder has it, and its clock (back at real time). */
export const AdminResetSchema = z.object({ reset: z.literal(true), now: z.number(), offset_s: z.number() });
export type AdminReset = z.infer<typeof AdminResetSchema>;

// ---- Fault scenarios (PUT/GET/DELETE /admin/scenario, `--scenario FILE`; docs/local-service.md "Fault scenarios") ----

/** What a rule can match: the three API routes and the service's own webhook delivery attempts. */
export const SCENARIO_ROUTES = ['generate', 'file', 'publication', 'webhook'] as const;
export type ScenarioRoute = (typeof SCENARIO_ROUTES)[number];
/** The statuses an API route can be forced to answer: the spec's 500 internal_error, 503 and 429. */
export const SCENARIO_API_STATUSES = [500, 503, 429] as const;
/** The longest forced wait: a generation may take 5 minutes (spec §1), a little more tests a client's timeout. */
export const SCENARIO_MAX_WAIT_MS = 600_000;

const WaitMs = z.number().int().min(0).max(SCENARIO_MAX_WAIT_MS);
/** A fixed latency, or one drawn evenly between min and max from the scenario's seeded draws. */
const LatencySchema = z.union([WaitMs, z.strictObject({ min: WaitMs, max: WaitMs }).refine((r) => r.min <= r.max, { message: 'min must not exceed max', path: ['min'] })]);

/** One outcome; which fields a route accepts is checked with its rule (ScenarioRuleSchema). */
export const ScenarioOutcomeSchema = z.strictObject({
  pass: z.literal(true).optional(),
  status: z.number().int().min(100).max(599).optional(),
  retry_after_s: z.number().int().min(0).max(86_400).optional(),
  partial: z.strictObject({ produce: z.number().int().min(0).max(10) }).optional(),
  downgrade: z.literal(true).optional(),
  latency_ms: LatencySchema.optional(),
  expired_link: z.literal(true).optional(),
  drop: z.literal(true).optional(),
  duplicate: z.literal(true).optional(),
  delay_ms: WaitMs.optional(),
});
export type ScenarioOutcome = z.infer<typeof ScenarioOutcomeSchema>;

type OutcomeField = keyof ScenarioOutcome;
/** Fields each route accepts; `pass` is accepted everywhere and only alone. */
const FIELDS_OF: Record<ScenarioRoute | 'api', readonly OutcomeField[]> = {
  generate: ['status', 'retry_after_s', 'partial', 'downgrade', 'latency_ms'],
  file: ['status', 'retry_after_s', 'latency_ms', 'expired_link'],
  publication: ['status', 'retry_after_s', 'latency_ms'],
  api: ['status', 'retry_after_s', 'latency_ms'],
  webhook: ['drop', 'duplicate', 'delay_ms', 'status'],
};
/** Fields that cannot be combined: a forced status or a dropped attempt says everything that happens. */
const EXCLUSIVE: ReadonlyArray<[OutcomeField, readonly OutcomeField[]]> = [
  ['status', ['partial', 'downgrade', 'expired_link']],
  ['drop', ['duplicate', 'delay_ms', 'status']],
];

/** Why an outcome does not fit its rule's route, as [field, reason], or null when it fits. */
function outcomeProblem(outcome: ScenarioOutcome, route: ScenarioRoute | undefined): [string, string] | null {
  const given = (Object.keys(outcome) as OutcomeField[]).filter((k) => outcome[k] !== undefined);
  if (given.length === 0) return ['pass', 'an outcome needs at least one field (pass: true to let the request through)'];
  if (outcome.pass) return given.length === 1 ? null : [given.find((k) => k !== 'pass') ?? 'pass', 'pass: true stands alone'];
  const allowed = FIELDS_OF[route ?? 'api'];
  const where = route ? `route ${route}` : 'a rule without match.route (generate, file and publication)';
  for (const field of given) if (!allowed.includes(field)) return [field, `not an outcome of ${where}; it takes ${allowed.join(', ')} or pass`];
  for (const [field, others] of EXCLUSIVE) {
    const clash = others.find((o) => outcome[field] !== undefined && outcome[o] !== undefined);
    if (clash) return [clash, `cannot be combined with ${field}`];
  }
  if (route !== 'webhook' && outcome.status !== undefined && !(SCENARIO_API_STATUSES as readonly number[]).includes(outcome.status)) {
    return ['status', `must be one of ${SCENARIO_API_STATUSES.join(', ')}`];
  }
  if (route === 'webhook' && outcome.status !== undefined && outcome.status < 300) return ['status', 'must be 300 to 599 (an answer that is not a success)'];
  if (outcome.retry_after_s !== undefined && outcome.status !== 429 && outcome.status !== 503) return ['retry_after_s', 'only with status 429 or 503'];
  return null;
}

export const ScenarioMatchSchema = z.strictObject({
  account_id: z.string().min(1).max(100).optional(),
  key_id: z.string().min(1).max(100).optional(),
  route: z.enum(SCENARIO_ROUTES).optional(),
  model: z.enum(CONCRETE_MODEL_IDS as [ConcreteModelId, ...ConcreteModelId[]]).optional(),
  /** The number of images asked for (the body's `n`, 1 when it is left out); generate only. */
  n: z.union(IMAGE_COUNTS.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<4>]).optional(),
});

export const ScenarioRuleSchema = z
  .strictObject({
    match: ScenarioMatchSchema.default({}),
    sequence: z.array(ScenarioOutcomeSchema).min(1).max(1000).optional(),
    probability: z.number().min(0).max(1).optional(),
    outcome: ScenarioOutcomeSchema.optional(),
  })
  .superRefine((rule, ctx) => {
    const problem = (path: Array<string | number>, message: string): void => void ctx.addIssue({ code: 'custom', path, message });
    const { route, key_id: keyId, model, n } = rule.match;
    if (rule.sequence === undefined && rule.outcome === undefined) return problem(['outcome'], 'a rule needs a sequence or an outcome');
    if (rule.sequence !== undefined && rule.outcome !== undefined) return problem(['outcome'], 'give a sequence or an outcome, not both');
    if (rule.sequence !== undefined && rule.probability !== undefined) return problem(['probability'], 'a probability goes with an outcome, not a sequence');
    if (route === 'webhook' && keyId !== undefined) return problem(['match', 'key_id'], 'a webhook delivery has no key; match it by account_id');
    if (model !== undefined && route !== undefined && route !== 'generate') return problem(['match', 'model'], 'only generate requests have a model');
    if (n !== undefined && route !== undefined && route !== 'generate') return problem(['match', 'n'], 'only generate requests have an n');
    const outcomes = rule.sequence ? rule.sequence.map((o, i) => [['sequence', i], o] as const) : [[['outcome'], rule.outcome as ScenarioOutcome] as const];
    for (const [path, outcome] of outcomes) {
      const found = outcomeProblem(outcome, route);
      if (found) return problem([...path, found[0]], found[1]);
    }
  });
export type ScenarioRule = z.infer<typeof ScenarioRuleSchema>;

/** PUT /admin/scenario and `--scenario FILE`: replaces the scenario; the same seed and requests give the same outcomes. */
export const ScenarioSchema = z.strictObject({
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  rules: z.array(ScenarioRuleSchema).max(100),
});
export type Scenario = z.infer<typeof ScenarioSchema>;

/** GET /admin/scenario: the scenario and, per rule, how many requests it has matched since the PUT. */
export const AdminScenarioSchema = z.object({
  seed: z.number(),
  rules: z.array(z.unknown()),
  matched: z.array(z.number()),
});
export type AdminScenario = z.infer<typeof AdminScenarioSchema>;

export const PutWebhookBodySchema = z.strictObject({ url: z.string().max(2048), enabled: z.boolean() });
export type PutWebhookBody = z.infer<typeof PutWebhookBodySchema>;

const StyleCode = z.string().min(1).max(200);
/** At most 200 images per pack, each id 1 to 100 characters. */
const PackImageIds = z.array(z.string().min(1).max(100)).max(200);

export const CreatePackBodySchema = z.strictObject({ style_code: StyleCode, image_ids: PackImageIds });
export type CreatePackBody = z.infer<typeof CreatePackBodySchema>;

export const PatchPackBodySchema = z.strictObject({
  style_code: StyleCode.optional(),
  image_ids: PackImageIds.optional(),
  /** false marks the pack as having unsaved changes (DESIGN.md §4). */
  saved: z.boolean().optional(),
});
export type PatchPackBody = z.infer<typeof PatchPackBodySchema>;

/** ?limit= of GET /admin/accounts/:id/webhook/deliveries: 1 to 200, 20 when absent. */
export const DeliveryLimitQuerySchema = z.coerce.number().int().min(1).max(200).default(20);

// ---- Answers ----

/** 201 of POST /admin/accounts/:id/api-keys: the only answer that carries the key itself. */
export const AdminCreatedApiKeySchema = AdminApiKeySchema.extend({ key: z.string() });
export type AdminCreatedApiKey = z.infer<typeof AdminCreatedApiKeySchema>;

export const AdminApiKeyListSchema = z.object({ api_keys: z.array(AdminApiKeySchema) });

export const AdminRevokedKeySchema = z.object({ id: z.string(), revoked: z.literal(true) });
export type AdminRevokedKey = z.infer<typeof AdminRevokedKeySchema>;

/** PUT /admin/accounts/:id/webhook: the configuration with its signing secret. */
export const AdminWebhookConfigSchema = z.object({ url: z.string(), enabled: z.boolean(), secret: z.string() });
export type AdminWebhookConfig = z.infer<typeof AdminWebhookConfigSchema>;
export type AdminWebhook = z.infer<typeof AdminWebhookSchema>;

export const AdminWebhookSecretSchema = z.object({ secret: z.string() });
export type AdminWebhookSecret = z.infer<typeof AdminWebhookSecretSchema>;

export const AdminPingSchema = z.object({ delivery_id: z.string() });
export type AdminPing = z.infer<typeof AdminPingSchema>;

/** One row of GET /admin/accounts/:id/webhook/deliveries (docs/decisions.md), newest first. */
/** One finished attempt of a delivery: when it started (ms), what the receiver answered (null: nothing), how long. */
export const AdminDeliveryAttemptSchema = z.object({
  attempt: z.number().int(),
  at: z.number(),
  status: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number(),
});
export const AdminDeliverySchema = LastDeliverySchema.extend({
  error: z.string().optional(),
  created_at: z.number(),
  /** Every finished attempt, oldest first (the fields above say only the last one's status). */
  attempt_log: z.array(AdminDeliveryAttemptSchema).optional(),
});
export const AdminDeliveryListSchema = z.object({ deliveries: z.array(AdminDeliverySchema) });
export type AdminDelivery = z.infer<typeof AdminDeliverySchema>;
export type AdminLastDelivery = z.infer<typeof LastDeliverySchema>;

export const AdminPackSchema = z.object({
  pack_id: z.string(),
  account_id: z.string(),
  style_code: z.string(),
  image_ids: z.array(z.string()),
  saved: z.boolean(),
  /** How many versions were published. */
  versions: z.number().int(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type AdminPack = z.infer<typeof AdminPackSchema>;
export const AdminPackListSchema = z.object({ packs: z.array(AdminPackSchema) });

/** 200 of POST /admin/image-packs/:pack_id/publish (a 409 `publish_rejected` is an error with `reason`). */
export const AdminPublishedSchema = z.object({ published: z.literal(true), publication: PublicationSchema });
export type AdminPublished = z.infer<typeof AdminPublishedSchema>;

/** GET and POST /admin/clock: the service clock (Unix s) and how far it is ahead of real time (s). */
export const AdminClockSchema = z.object({ now: z.number(), offset_s: z.number().optional() });

/** GET/PUT /admin/settings answer every setting. */
export const AdminSettingsSchema = z.object({
  allow_loopback_webhooks: z.boolean(),
  default_rate_limit_per_24h: z.number().int(),
});
export type AdminSettings = z.infer<typeof AdminSettingsSchema>;

/** One generation (turn) of an account, as GET /admin/accounts/:id/turns?since= lists it. */
export const AdminTurnSchema = z.object({
  turn_id: z.string(),
  session_id: z.string(),
  client_turn_id: z.string().nullable(),
  status: z.enum(['running', 'succeeded', 'failed']),
  credits_charged: z.number().nullable(),
  reserved: z.number(),
  warnings: z.array(WarningSchema),
  created_at: z.number(),
  finished_at: z.number().nullable(),
  images: z.array(ImageSchema),
});
export type AdminTurn = z.infer<typeof AdminTurnSchema>;
export const AdminTurnListSchema = z.object({ turns: z.array(AdminTurnSchema) });

// ---- The request ledger (GET /admin/requests, GET /admin/requests/:request_id; docs/local-service.md) ----

// Route names of ledger entries live in ./limits.ts (the renderer's search reads them without zod).
export { REQUEST_ROUTES, type RequestRoute };

/** Ids as DESIGN.md §3 shapes them; a filter of another shape can match nothing, so it is refused. */
const idFilter = (prefix: string, length: number) =>
  z.string().regex(new RegExp(`^${prefix}[A-Za-z0-9]{${length}}$`), `expected ${prefix} and ${length} letters or digits`);
/** A positive whole number in a query string. */
const wholeNumber = (max: number) => z.string().regex(/^\d{1,16}$/, 'expected a whole number').transform(Number).pipe(z.number().max(max));

/** The query of GET /admin/requests: every filter optional, unknown ones refused. */
export const RequestListQuerySchema = z.strictObject({
  request_id: idFilter('req_', 20).optional(),
  account_id: idFilter('acc_', 10).optional(),
  key_id: idFilter('key_', 10).optional(),
  status: wholeNumber(599).pipe(z.number().min(100)).optional(),
  code: z.enum(ALL_ERROR_CODES as [ErrorCode, ...ErrorCode[]]).optional(),
  route: z.enum(REQUEST_ROUTES).optional(),
  /** Unix seconds: entries at or after it. */
  since: wholeNumber(1e12).optional(),
  /** next_cursor of the page before. */
  cursor: wholeNumber(Number.MAX_SAFE_INTEGER).pipe(z.number().min(1)).optional(),
  limit: wholeNumber(200).pipe(z.number().min(1)).default(50),
});
export type RequestListQuery = z.infer<typeof RequestListQuerySchema>;

const CappedBodySchema = z.object({ text: z.string(), cut: z.boolean() });

/** One ledger entry: never a key (key_id only), bodies capped and screened. */
export const AdminRequestSchema = z.object({
  request_id: z.string(),
  at: z.number(),
  account_id: z.string().nullable(),
  key_id: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  route: z.string(),
  status: z.number(),
  error_code: z.string().nullable(),
  duration_ms: z.number(),
  request_body: CappedBodySchema,
  response_body: CappedBodySchema,
  turn_id: z.string().nullable(),
  credits: z.object({ reserved: z.number(), charged: z.number(), refunded: z.number() }),
  deliveries: z.array(
    z.object({ delivery_id: z.string(), event: z.string().nullable(), outcome: z.string().nullable(), attempts: z.number(), status: z.number().nullable() }),
  ),
});
export type AdminRequest = z.infer<typeof AdminRequestSchema>;
export const AdminRequestListSchema = z.object({ requests: z.array(AdminRequestSchema), next_cursor: z.string().nullable() });
