// The local service's admin API (DESIGN.md §4 and the read-only extras of docs/decisions.md), called with its
// admin token. Only main holds the token. One method per route; every answer is parsed with its schema from
// src-shared/admin.ts, so a malformed answer is an `unexpected_response` error, never an unchecked value.
import type { z } from 'zod';
import {
  AdminAccountSchema,
  AdminApiKeyListSchema,
  AdminApiKeySchema,
  AdminClockSchema,
  AdminCreatedApiKeySchema,
  AdminDeliveryListSchema,
  AdminPackListSchema,
  AdminPackSchema,
  AdminPingSchema,
  AdminPublishedSchema,
  AdminRequestListSchema,
  AdminRequestSchema,
  AdminResetSchema,
  AdminRevokedKeySchema,
  AdminScenarioSchema,
  AdminSettingsSchema,
  AdminSnapshotListSchema,
  AdminSnapshotSchema,
  AdminTurnListSchema,
  AdminWebhookConfigSchema,
  AdminWebhookSchema,
  AdminWebhookSecretSchema,
  FaultsSchema,
  type CreateAccountBody,
  type CreateApiKeyBody,
  type CreatePackBody,
  type Faults,
  type PatchAccountBody,
  type PatchPackBody,
  type PutWebhookBody,
  type RequestRoute,
  type Scenario,
  type ServiceSettings,
} from '../../src-shared/admin.ts';
import { acceptLanguageFor, type Language } from '../../src-shared/language.ts';
import { headerValue, NetworkError, sendRequest, type BufferedResponse } from './http.ts';
import { readErrorBody } from './service-client.ts';
import { redactSecrets } from '../domain/secret-screen.ts';
import { StudioError } from '../domain/errors.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The filters of GET /admin/requests (the service checks them: a bad one is 400 invalid_request). */
export interface RequestLogQuery {
  request_id?: string;
  account_id?: string;
  key_id?: string;
  status?: number;
  code?: string;
  route?: RequestRoute;
  since?: number;
  cursor?: string;
  limit?: number;
}

const seg = encodeURIComponent;

export interface AdminClientOptions {
  /** The UI language, asked of the service for its error messages (DESIGN.md §3 "Language"). */
  language?: () => Language;
  timeoutMs?: number;
}

export class AdminClient {
  readonly baseUrl: string;
  private readonly adminToken: string;
  private readonly language: () => Language;
  private readonly timeoutMs: number;

  constructor(baseUrl: string, adminToken: string, options: AdminClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.adminToken = adminToken;
    this.language = options.language ?? (() => 'en');
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  // ---- Accounts and keys ----

  createAccount(body: CreateAccountBody = {}) {
    return this.call('POST', '/admin/accounts', AdminAccountSchema, body);
  }

  account(accountId: string) {
    return this.call('GET', `/admin/accounts/${seg(accountId)}`, AdminAccountSchema);
  }

  updateAccount(accountId: string, body: PatchAccountBody) {
    return this.call('PATCH', `/admin/accounts/${seg(accountId)}`, AdminAccountSchema, body);
  }

  createApiKey(accountId: string, body: CreateApiKeyBody) {
    return this.call('POST', `/admin/accounts/${seg(accountId)}/api-keys`, AdminCreatedApiKeySchema, body);
  }

  async apiKeys(accountId: string) {
    return (await this.call('GET', `/admin/accounts/${seg(accountId)}/api-keys`, AdminApiKeyListSchema)).api_keys;
  }

  revokeApiKey(keyId: string) {
    return this.call('POST', `/admin/api-keys/${seg(keyId)}/revoke`, AdminRevokedKeySchema);
  }

  setApiKeyRateLimit(keyId: string, ratePer24h: number | null) {
    return this.call('PATCH', `/admin/api-keys/${seg(keyId)}`, AdminApiKeySchema, { rate_limit_per_24h: ratePer24h });
  }

  // ---- Webhook (spec §6 "Configuration") ----

  webhook(accountId: string) {
    return this.call('GET', `/admin/accounts/${seg(accountId)}/webhook`, AdminWebhookSchema);
  }

  setWebhook(accountId: string, body: PutWebhookBody) {
    return this.call('PUT', `/admin/accounts/${seg(accountId)}/webhook`, AdminWebhookConfigSchema, body);
  }

  regenerateWebhookSecret(accountId: string) {
    return this.call('POST', `/admin/accounts/${seg(accountId)}/webhook/regenerate`, AdminWebhookSecretSchema);
  }

  pingWebhook(accountId: string) {
    return this.call('POST', `/admin/accounts/${seg(accountId)}/webhook/ping`, AdminPingSchema);
  }

  async webhookDeliveries(accountId: string, limit?: number) {
    const query = limit === undefined ? '' : `?limit=${limit}`;
    return (await this.call('GET', `/admin/accounts/${seg(accountId)}/webhook/deliveries${query}`, AdminDeliveryListSchema)).deliveries;
  }

  // ---- Image packs and images ----

  createPack(accountId: string, body: CreatePackBody) {
    return this.call('POST', `/admin/accounts/${seg(accountId)}/image-packs`, AdminPackSchema, body);
  }

  async packs(accountId: string) {
    return (await this.call('GET', `/admin/accounts/${seg(accountId)}/image-packs`, AdminPackListSchema)).packs;
  }

  pack(packId: string) {
    return this.call('GET', `/admin/image-packs/${seg(packId)}`, AdminPackSchema);
  }

  updatePack(packId: string, body: PatchPackBody) {
    return this.call('PATCH', `/admin/image-packs/${seg(packId)}`, AdminPackSchema, body);
  }

  /** 409 `publish_rejected` is thrown as a StudioError whose `details.reason` says why (DESIGN.md §4). */
  publishPack(packId: string, idempotencyKey?: string) {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    return this.call('POST', `/admin/image-packs/${seg(packId)}/publish`, AdminPublishedSchema, undefined, headers);
  }

  async deleteImage(imageId: string): Promise<void> {
    await this.send('DELETE', `/admin/images/${seg(imageId)}`);
  }

  /** GET /admin/accounts/:id/turns?since=: the account's generations created since `sinceUnixS` (service clock). */
  async accountTurns(accountId: string, sinceUnixS: number) {
    const since = Math.max(0, Math.floor(sinceUnixS));
    return (await this.call('GET', `/admin/accounts/${seg(accountId)}/turns?since=${since}`, AdminTurnListSchema)).turns;
  }

  // ---- The request ledger ----

  /** GET /admin/requests: a page of the request ledger, newest first, with the filters given. */
  requestLog(query: RequestLogQuery = {}) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
    const text = params.toString();
    return this.call('GET', `/admin/requests${text ? `?${text}` : ''}`, AdminRequestListSchema);
  }

  /** GET /admin/requests/:request_id: what one request was, answered, cost and caused (404 not_found when unknown). */
  requestEntry(requestId: string) {
    return this.call('GET', `/admin/requests/${seg(requestId)}`, AdminRequestSchema);
  }

  // ---- Faults, clock, settings ----

  faults() {
    return this.call('GET', '/admin/faults', FaultsSchema);
  }

  setFaults(body: Faults) {
    return this.call('PUT', '/admin/faults', FaultsSchema, body);
  }

  async clock(): Promise<number> {
    return (await this.call('GET', '/admin/clock', AdminClockSchema)).now;
  }

  async advanceClock(seconds: number): Promise<number> {
    return (await this.call('POST', '/admin/clock', AdminClockSchema, { advance_s: seconds })).now;
  }

  /** The service clock and how far it is ahead of real time (`offset_s`, 0 at real time). */
  async clockState(): Promise<{ now: number; offsetS: number }> {
    const clock = await this.call('GET', '/admin/clock', AdminClockSchema);
    return { now: clock.now, offsetS: clock.offset_s ?? 0 };
  }

  /** Back to real time (POST /admin/clock {reset: true}). */
  async resetClock(): Promise<number> {
    return (await this.call('POST', '/admin/clock', AdminClockSchema, { reset: true })).now;
  }

  // ---- Fault scenarios, snapshots and reset (docs/local-service.md) ----

  scenario() {
    return this.call('GET', '/admin/scenario', AdminScenarioSchema);
  }

  setScenario(body: Scenario) {
    return this.call('PUT', '/admin/scenario', AdminScenarioSchema, body);
  }

  clearScenario() {
    return this.call('DELETE', '/admin/scenario', AdminScenarioSchema);
  }

  async snapshots() {
    return (await this.call('GET', '/admin/snapshots', AdminSnapshotListSchema)).snapshots;
  }

  saveSnapshot(name: string) {
    return this.call('POST', '/admin/snapshots', AdminSnapshotSchema, { name });
  }

  restoreSnapshot(name: string) {
    return this.call('POST', `/admin/snapshots/${seg(name)}/restore`, AdminSnapshotSchema);
  }

  async deleteSnapshot(name: string): Promise<void> {
    await this.send('DELETE', `/admin/snapshots/${seg(name)}`);
  }

  /** No accounts, no files, an empty ledger, default settings, no faults, the clock at real time. */
  reset() {
    return this.call('POST', '/admin/reset', AdminResetSchema);
  }

  settings() {
    return this.call('GET', '/admin/settings', AdminSettingsSchema);
  }

  setSettings(body: ServiceSettings) {
    return this.call('PUT', '/admin/settings', AdminSettingsSchema, body);
  }

  /**
   * The untyped form, kept only for callers not yet moved to the methods above.
   * @deprecated call the route's own method, which checks the answer.
   */
  async request<T = unknown>(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const text = await this.send(method, path, body, headers);
    return (text === '' ? null : JSON.parse(text)) as T;
  }

  private async call<S extends z.ZodType>(method: Method, path: string, schema: S, body?: unknown, headers: Record<string, string> = {}): Promise<z.output<S>> {
    const { text, response } = await this.exchange(method, path, body, headers);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.unexpected(response, `${method} ${pathOnly(path)}: not JSON`);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw this.unexpected(response, `${method} ${pathOnly(path)}: ${issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'invalid'}`);
    }
    return parsed.data;
  }

  private async send(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<string> {
    return (await this.exchange(method, path, body, headers)).text;
  }

  /** One round trip; a failure becomes a StudioError carrying the service's code, status, request id and words. */
  private async exchange(method: Method, path: string, body: unknown, headers: Record<string, string>): Promise<{ text: string; response: BufferedResponse }> {
    const url = new URL(path.replace(/^\//, ''), `${this.baseUrl}/`);
    const language = this.language();
    const allHeaders: Record<string, string> = {
      authorization: `Bearer ${this.adminToken}`,
      accept: 'application/json',
      'accept-language': acceptLanguageFor(language),
      ...headers,
    };
    if (body !== undefined) allHeaders['content-type'] = 'application/json';
    let response: BufferedResponse;
    try {
      response = await sendRequest(url, { method, headers: allHeaders, body: body === undefined ? undefined : JSON.stringify(body), timeoutMs: this.timeoutMs });
    } catch (error) {
      const e = error instanceof NetworkError ? error : new NetworkError('dropped', String(error));
      throw new StudioError('service_unreachable', { cause: e.message });
    }
    const text = response.body.toString('utf8');
    if (response.status >= 200 && response.status < 300) return { text, response };
    const headerRequestId = headerValue(response.headers, 'x-request-id') ?? undefined;
    const e = readErrorBody(text);
    if (e) {
      const requestId = e.request_id || headerRequestId;
      throw new StudioError(
        e.code,
        {},
        {
          status: response.status,
          ...(requestId ? { requestId } : {}),
          // The service's words are screened before anything keeps them (an echoed admin token).
          serviceMessage: redactSecrets(e.message, [this.adminToken]),
          serviceLanguage: language,
          ...(e.reason ? { details: { reason: redactSecrets(e.reason, [this.adminToken]) } } : {}),
        },
      );
    }
    throw new StudioError('service_error', { status: response.status, text: redactSecrets(text.slice(0, 300), [this.adminToken]) }, { status: response.status, ...(headerRequestId ? { requestId: headerRequestId } : {}) });
  }

  private unexpected(response: BufferedResponse, text: string): StudioError {
    const requestId = headerValue(response.headers, 'x-request-id') ?? undefined;
    return new StudioError('unexpected_response', { text: text.slice(0, 300) }, { status: response.status, ...(requestId ? { requestId } : {}) });
  }
}

function pathOnly(path: string): string {
  return path.split('?')[0] ?? path;
}
