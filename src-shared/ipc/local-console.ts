// IPC: the local service console (Local environment only). Main calls the service's admin API
// (DESIGN.md §4) with its admin token; the renderer never sees that token, API keys or webhook secrets.
import { z } from 'zod';
import type { AdminRequest } from '../admin.ts';
import { REQUEST_ROUTES } from '../limits.ts';
import { API_SCOPES, FaultsSchema, ServiceSettingsSchema, type AdminApiKey, type Faults, type ServiceSettings } from '../api.ts';
import { HeaderTokenSchema, IdSchema, method } from './contract.ts';
import { oneLineName } from './text-fields.ts';

export interface LocalAccountView {
  id: string;
  credits: number;
  reserved: number;
  banned: boolean;
  createdAt: number;
  ageDays: number;
}

export interface LocalWebhookView {
  url: string;
  enabled: boolean;
  /** Whether the signing secret is stored in the keychain (never the secret itself). */
  secretStored: boolean;
  lastDelivery: {
    deliveryId: string;
    event: string;
    attempts: number;
    outcome: 'pending' | 'succeeded' | 'failed';
    status: number | null;
    at: number;
  } | null;
}

export interface LocalPackView {
  packId: string;
  styleCode: string;
  imageIds: string[];
  saved: boolean;
  versions: number;
}

export interface LocalConsoleState {
  baseUrl: string;
  /** The service clock (Unix seconds), which the admin clock can move forward. */
  now: number;
  /** How far the service clock is ahead of real time, in seconds (0: real time). */
  clockOffsetS: number;
  account: LocalAccountView;
  /** Keys the app created or seeded, without their secrets. */
  keys: Array<Omit<AdminApiKey, 'key'> & { usedByApp: boolean }>;
  settings: Required<ServiceSettings>;
  faults: Faults;
  webhook: LocalWebhookView;
  packs: LocalPackView[];
}

export type PublishOutcome =
  | { published: true; publication: { id: number; pack_id: string; version: number; style_code: string; published_at: number } }
  | { published: false; reason: 'unsaved_changes' | 'missing_images' | 'empty_pack' };

/**
 * A key the local console created. It goes into the keychain (useForApp) or onto the system clipboard,
 * cleared after 60 s if still there. Only where no system clipboard reaches the user (the harness) is it
 * in the reply, once (`oneTimeKey`): the one reply the secret screen lets a key through.
 */
export interface CreatedKey {
  keyId: string;
  copiedToClipboard: boolean;
  usedByApp: boolean;
  /** Seconds until main clears the clipboard if the key is still on it; null when not copied. */
  clipboardClearsInS?: number | null;
  oneTimeKey?: string | null;
}

/**
 * One entry of the local service's request ledger, as the service answers it (GET /admin/requests/:request_id;
 * bodies capped and screened by the service, never a key).
 */
export type LocalRequestView = AdminRequest;

export interface LocalRequestPage {
  requests: LocalRequestView[];
  /** Pass back as `cursor` for the next (older) page; null on the last one. */
  nextCursor: string | null;
}

/** A request id as the service makes them (req_ + 20). */
const RequestIdSchema = z.string().regex(/^req_[A-Za-z0-9]{20}$/);

/** A pack's style code, the same on create and update (an update had no bound). */
const StyleCodeSchema = z.string().trim().min(1).max(64);

export const localConsoleMethods = {
  localStatus: method<LocalConsoleState>()('local:status', z.object({})),
  localTopUp: method<LocalConsoleState>()('local:top-up', z.object({ credits: z.number().int().min(1).max(10_000_000) })),
  localUpdateAccount: method<LocalConsoleState>()(
    'local:update-account',
    z.object({ banned: z.boolean().optional(), ageDays: z.number().int().min(0).max(3650).optional(), credits: z.number().int().min(0).optional() }),
  ),
  localCreateKey: method<CreatedKey>()(
    'local:create-key',
    z.object({
      name: oneLineName(80),
      scopes: z.array(z.enum(API_SCOPES)).min(1),
      expiresAt: z.number().int().optional(),
      /** Store it in the keychain as the Local environment's key. */
      useForApp: z.boolean().optional(),
    }),
  ),
  localRevokeKey: method<LocalConsoleState>()('local:revoke-key', z.object({ keyId: IdSchema })),
  localSetKeyRateLimit: method<LocalConsoleState>()(
    'local:set-key-rate-limit',
    z.object({ keyId: IdSchema, ratePer24h: z.number().int().min(1) }),
  ),
  localSetFaults: method<LocalConsoleState>()('local:set-faults', FaultsSchema),
  localAdvanceClock: method<LocalConsoleState>()('local:advance-clock', z.object({ seconds: z.number().int().min(1).max(400 * 86400) })),
  /** The service clock back to real time (POST /admin/clock {reset: true}). */
  localResetClock: method<LocalConsoleState>()('local:reset-clock', z.object({})),
  localSetSettings: method<LocalConsoleState>()('local:set-settings', ServiceSettingsSchema),
  localWebhookSet: method<LocalConsoleState>()('local:webhook-set', z.object({ url: z.string().max(2048), enabled: z.boolean() })),
  localWebhookRegenerate: method<LocalConsoleState>()('local:webhook-regenerate', z.object({})),
  localWebhookPing: method<{ deliveryId: string }>()('local:webhook-ping', z.object({})),
  localPackCreate: method<LocalPackView>()(
    'local:pack-create',
    z.object({ styleCode: StyleCodeSchema, imageIds: z.array(IdSchema).max(100) }),
  ),
  localPackUpdate: method<LocalPackView>()(
    'local:pack-update',
    z.object({ packId: IdSchema, styleCode: StyleCodeSchema.optional(), imageIds: z.array(IdSchema).max(1000).optional(), saved: z.literal(false).optional() }),
  ),
  localPackPublish: method<PublishOutcome>()(
    'local:pack-publish',
    z.object({ packId: IdSchema, idempotencyKey: HeaderTokenSchema.optional() }),
  ),
  localDeleteImage: method<{ deleted: boolean }>()('local:delete-image', z.object({ imageId: IdSchema })),
  /** The service's request ledger, newest first (GET /admin/requests); the filters are the service's. */
  localRequests: method<LocalRequestPage>()(
    'local:requests',
    z.object({
      requestId: RequestIdSchema.optional(),
      status: z.number().int().min(100).max(599).optional(),
      code: z.string().regex(/^[a-z_]{1,64}$/).optional(),
      route: z.enum(REQUEST_ROUTES).optional(),
      cursor: z.string().regex(/^\d{1,16}$/).optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
  ),
  /** One ledger entry by its request id (the X-Request-Id of an answer); not_found when the ledger has none. */
  localRequest: method<LocalRequestView>()('local:request', z.object({ requestId: RequestIdSchema })),
};

export type { ServiceSettings };
