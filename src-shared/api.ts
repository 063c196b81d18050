// Shapes that cross the network (spec §2, §6, §7; DESIGN.md §3/§4), as zod schemas; types are inferred.
import { z } from 'zod';
import { IMAGE_COUNTS, MODEL_IDS, PURPOSE_IDS, QUALITIES, RATIOS, RESOLUTIONS } from './catalog.ts';
import { IdSchema } from './ipc/contract.ts';
import { API_SCOPES, type ApiScope } from './limits.ts';

export { API_SCOPES, type ApiScope };

/** The body of POST /api/v1/generate as the app builds it (the service validates raw bodies itself). */
export const GenerateRequestSchema = z.strictObject({
  prompt: z.string().optional(),
  // Ids by the contract's one rule; the count is capped well above any model's limit, so the model's own
  // check (too_many_reference_images, naming its limit) still speaks for 17 to 100.
  ref_image_ids: z.array(IdSchema).max(100).optional(),
  model: z.enum(MODEL_IDS).optional(),
  ratio: z.enum(RATIOS).optional(),
  resolution: z.enum(RESOLUTIONS).optional(),
  quality: z.enum(QUALITIES).optional(),
  n: z.union(IMAGE_COUNTS.map((n) => z.literal(n)) as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<4>]).optional(),
  session_id: IdSchema.optional(),
  purpose_id: z.enum(PURPOSE_IDS).optional(),
});
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

export const ImageSchema = z.object({
  id: z.string(),
  filename: z.string(),
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ApiImage = z.infer<typeof ImageSchema>;

export const WarningSchema = z.object({
  type: z.enum(['unsupported', 'downgraded']),
  feature: z.string(),
  details: z.string(),
});

export const GenerateResultSchema = z.object({
  ok: z.literal(true),
  turn_id: z.string(),
  session_id: z.string(),
  credits_charged: z.number(),
  duration_ms: z.number(),
  warnings: z.array(WarningSchema),
  images: z.array(ImageSchema),
});
export type GenerateResult = z.infer<typeof GenerateResultSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    request_id: z.string(),
    reason: z.string().optional(),
  }),
});

export const PublicationSchema = z.object({
  id: z.number().int(),
  pack_id: z.string(),
  version: z.number().int(),
  style_code: z.string(),
  published_at: z.number().int(),
});
export type Publication = z.infer<typeof PublicationSchema>;

/** GET /api/v1/image-pack-publications/<id>: the notification's fields plus images (DESIGN.md §3). */
export const PublicationRecordSchema = PublicationSchema.extend({ images: z.array(ImageSchema) });
export type PublicationRecord = z.infer<typeof PublicationRecordSchema>;

// ---- Local service admin API (DESIGN.md §4) ----

export const AdminAccountSchema = z.object({
  id: z.string(),
  credits: z.number(),
  banned: z.boolean(),
  created_at: z.number(),
  reserved: z.number().optional(),
});
export type AdminAccount = z.infer<typeof AdminAccountSchema>;

/** An API key as the admin API answers it (never its secret, except once in the 201 of its creation). */
export const AdminApiKeySchema = z.object({
  id: z.string(),
  /** Present only in the 201 of its creation (AdminCreatedApiKeySchema). */
  key: z.string().optional(),
  account_id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  /** Unix seconds, or null for a key that never expires. */
  expires_at: z.number().nullable(),
  revoked: z.boolean(),
  /** The key's own limit, or the default setting when it has none. */
  rate_limit_per_24h: z.number(),
  created_at: z.number(),
});
export type AdminApiKey = z.infer<typeof AdminApiKeySchema>;

export const LastDeliverySchema = z.object({
  delivery_id: z.string(),
  event: z.string(),
  attempts: z.number(),
  outcome: z.enum(['pending', 'succeeded', 'failed']),
  status: z.number().optional(),
  at: z.number(),
});
export const AdminWebhookSchema = z.object({
  url: z.string(),
  enabled: z.boolean(),
  last_delivery: LastDeliverySchema.nullable(),
});

export const FaultsSchema = z.strictObject({
  generate: z
    .strictObject({
      fail: z.number().int().min(0).optional(),
      partial: z.strictObject({ count: z.number().int().min(0), produce: z.number().int().min(0) }).optional(),
      downgrade: z.number().int().min(0).optional(),
      latency_ms: z.number().int().min(0).optional(),
    })
    .optional(),
  auth_unavailable: z.number().int().min(0).optional(),
});
export type Faults = z.infer<typeof FaultsSchema>;

export const ServiceSettingsSchema = z.strictObject({
  allow_loopback_webhooks: z.boolean().optional(),
  default_rate_limit_per_24h: z.number().int().min(1).optional(),
});
export type ServiceSettings = z.infer<typeof ServiceSettingsSchema>;

/** The ready line the service CLI prints (DESIGN.md §4). */
export const ServiceReadyLineSchema = z.object({
  event: z.literal('ready'),
  base_url: z.string(),
  admin_token: z.string(),
  /** The direct-link origin (a second port), where GET /api/file's 302 points (docs/local-service.md "Direct links"). */
  direct_url: z.string().optional(),
  account_id: z.string().optional(),
  api_key: z.string().optional(),
});
export type ServiceReadyLine = z.infer<typeof ServiceReadyLineSchema>;
