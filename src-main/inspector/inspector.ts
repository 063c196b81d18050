// The webhook inspector: receiver + verdicts + persistence + replay (issue 6). Handlers (handlers.ts) are thin
// wrappers around this class; tests drive it directly over real HTTP and a real SQLite file.
import { randomUUID } from 'node:crypto';
import { PublicationRecordSchema, type PublicationRecord } from '../../src-shared/api.ts';
import { randomAlphanumeric } from '../../src-shared/ids.ts';
import type {
  CapturedHeader,
  CapturedRequestDetail,
  DeliveryGroup,
  InspectorExport,
  InspectorStatus,
  SendResult,
  VerificationExplained,
} from '../../src-shared/ipc/inspector.ts';
import { acceptLanguageFor } from '../../src-shared/language.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../src-shared/webhook-signature.ts';
import type { InspectorContext } from './context.ts';
import { describeDiagnosis, explainDelivery, headerBag } from './explain.ts';
import { exportCurl, exportJson } from './export.ts';
import { parseRawRequest, parseSeparate } from './paste.ts';
import { WebhookReceiver, type ReceivedRequest, type ReceiverAnswer } from './receiver.ts';
import { InspectorSecretKeeper } from './secrets.ts';
import { sendSignedNotification } from './sender.ts';
import { InspectorStore, type StoredRequest } from './store.ts';

/** A failure with a stable code; main's IPC table turns it into an IpcError. */
export class InspectorError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly requestId?: string;
  constructor(code: string, message: string, extra: { status?: number; requestId?: string } = {}) {
    super(message);
    this.name = 'InspectorError';
    this.code = code;
    if (extra.status !== undefined) this.status = extra.status;
    if (extra.requestId !== undefined) this.requestId = extra.requestId;
  }
}

type SecretChoice = { secret?: string | undefined; useStoredSecret?: boolean | undefined };

interface Behaviour {
  port: number;
  forcedStatus: number | null;
  delayMs: number;
}

const WEBHOOK_PATH = '/webhooks';
/** How many captured requests are kept (oldest dropped first); at most ~1 GB of bodies. */
export const DEFAULT_MAX_KEPT = 1000;

export class WebhookInspector {
  private readonly ctx: InspectorContext;
  private readonly store: InspectorStore;
  private readonly secrets: InspectorSecretKeeper;
  private readonly receiver: WebhookReceiver;
  private behaviour: Behaviour;
  private error: string | null = null;
  /** Unix seconds; tests pin it. */
  private readonly clock: () => number;
  private readonly maxKept: number;

  constructor(ctx: InspectorContext, options: { clock?: () => number; maxKept?: number } = {}) {
    this.ctx = ctx;
    this.store = new InspectorStore(ctx.db);
    this.secrets = new InspectorSecretKeeper(ctx.secrets);
    this.receiver = new WebhookReceiver({ handler: (r) => this.receive(r) });
    this.clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
    this.maxKept = options.maxKept ?? DEFAULT_MAX_KEPT;
    this.behaviour = { port: 0, forcedStatus: null, delayMs: 0, ...(this.store.setting<Behaviour>('behaviour') ?? {}) };
  }

  private text(zh: string, en: string): string {
    return this.ctx.language() === 'en' ? en : zh;
  }

  /** Starts the receiver on the configured port, or the port it had last time so the service's URL still works. */
  async start(): Promise<void> {
    const wanted = this.behaviour.port || (this.store.setting<number>('lastPort') ?? 0);
    try {
      await this.receiver.start(wanted);
      this.error = null;
    } catch (error) {
      if (this.behaviour.port !== 0) {
        this.error = this.text(
          `端口 ${this.behaviour.port} 无法使用（${(error as Error).message}）；接收器未运行。`,
          `Port ${this.behaviour.port} cannot be used (${(error as Error).message}); the receiver is not running.`,
        );
        return;
      }
      await this.receiver.start(0);
      this.error = null;
    }
    this.store.setSetting('lastPort', this.receiver.port);
  }

  async stop(): Promise<void> {
    await this.receiver.stop();
  }

  async status(): Promise<InspectorStatus> {
    const { current, previous } = await this.secrets.load();
    return {
      running: this.receiver.port !== null,
      port: this.receiver.port,
      url: this.receiver.url,
      secretStored: current !== null,
      secretMasked: current === null ? null : InspectorSecretKeeper.mask(current),
      previousSecrets: previous.length,
      forcedStatus: this.behaviour.forcedStatus,
      delayMs: this.behaviour.delayMs,
      error: this.error,
    };
  }

  async configure(input: { port?: number | undefined; forcedStatus?: number | null | undefined; delayMs?: number | undefined }): Promise<InspectorStatus> {
    const next: Behaviour = { ...this.behaviour };
    if (input.forcedStatus !== undefined) next.forcedStatus = input.forcedStatus;
    if (input.delayMs !== undefined) next.delayMs = input.delayMs;
    const portChanged = input.port !== undefined && input.port !== this.receiver.port;
    if (input.port !== undefined) next.port = input.port;
    if (portChanged) {
      const oldUrl = this.receiver.url;
      try {
        await this.receiver.start(next.port);
        this.error = null;
        this.store.setSetting('lastPort', this.receiver.port);
        await this.followLocalWebhook(oldUrl);
      } catch (error) {
        // Keep the old receiver settings and port; a failed change changes nothing.
        await this.start();
        throw new InspectorError(
          'port_unavailable',
          this.text(`端口 ${next.port} 无法使用：${(error as Error).message}`, `Port ${next.port} cannot be used: ${(error as Error).message}`),
        );
      }
    }
    this.behaviour = next;
    this.store.setSetting('behaviour', next);
    return this.status();
  }

  /** The receiver's handler: record, verify, answer. Never throws, never acts on the content. */
  private async receive(request: ReceivedRequest): Promise<ReceiverAnswer> {
    const id = `r_${randomAlphanumeric(12)}`;
    const base: StoredRequest = {
      id,
      receivedAt: request.receivedAt,
      method: request.method.slice(0, 16),
      path: request.path.slice(0, 2048),
      headers: request.headers,
      body: request.body,
      bodyBytes: request.bodyBytes,
      tooLarge: request.tooLarge,
      deliveryId: null,
      event: null,
      publication: null,
      responseStatus: 0,
      valid: false,
      diagnosis: 'wrong_path',
      diagnosisParams: {},
      report: null,
    };
    const bag = headerBag(request.headers);
    const first = (name: string) => {
      const v = bag[name];
      return (Array.isArray(v) ? v[0] : v)?.slice(0, 200) ?? null;
    };
    base.deliveryId = first('x-service-delivery');
    base.event = first('x-service-event');

    let status: number;
    let answer: string;
    if (request.path !== WEBHOOK_PATH) {
      status = 404;
      answer = JSON.stringify({ error: 'not_found', hint: `deliveries go to ${WEBHOOK_PATH}` });
      base.diagnosisParams = { path: base.path };
    } else if (request.tooLarge) {
      status = 413;
      answer = JSON.stringify({ error: 'payload_too_large', limit_bytes: 1024 * 1024 });
      base.diagnosis = 'too_large';
      base.diagnosisParams = { bytes: request.bodyBytes };
    } else {
      const { current, previous } = await this.secrets.load();
      const explained = await explainDelivery({
        headers: bag,
        body: request.body,
        now: this.clock(),
        secret: current,
        previousSecrets: previous,
        earlierAttempts: base.deliveryId ? this.store.validAttemptsOf(base.deliveryId) : [],
      });
      base.report = explained.report;
      base.valid = explained.report.valid;
      base.diagnosis = explained.code;
      base.diagnosisParams = explained.params;
      base.publication = publicationOf(request.body);
      // spec §6: 2xx when valid; 401 and discard when verification fails. A body that verifies but is not of
      // the documented shape gets 400, so the failure is visible in the service's last delivery.
      status = explained.report.valid ? 200 : explained.report.signatureValid ? 400 : 401;
      answer = JSON.stringify({ received: true, valid: explained.report.valid, reason: explained.code });
    }
    if (this.behaviour.forcedStatus !== null && request.path === WEBHOOK_PATH) {
      status = this.behaviour.forcedStatus;
      answer = JSON.stringify({ forced: status });
    }
    base.responseStatus = status;
    try {
      this.store.insert(base);
      this.store.prune(this.maxKept);
      this.ctx.emit('inspector:delivery', { requestId: id, deliveryId: base.deliveryId });
    } catch {
      // A full disk must not take the receiver down; the answer still goes out.
    }
    if (this.behaviour.delayMs > 0 && request.path === WEBHOOK_PATH) await new Promise((r) => setTimeout(r, this.behaviour.delayMs));
    return { status, body: answer };
  }

  list(limit = 200): { groups: DeliveryGroup[]; total: number } {
    return this.store.listGroups(limit);
  }

  get(requestId: string): CapturedRequestDetail {
    const r = this.requireRequest(requestId);
    return {
      requestId: r.id,
      receivedAt: r.receivedAt,
      method: r.method,
      path: r.path,
      deliveryId: r.deliveryId,
      event: r.event,
      responseStatus: r.responseStatus,
      valid: r.valid,
      diagnosis: r.diagnosis,
      bodyBytes: r.bodyBytes,
      tooLarge: r.tooLarge,
      publication: r.publication,
      headers: r.headers.map(([name, value]) => ({ name, value })),
      bodyText: new TextDecoder().decode(r.body),
      verification: {
        report: r.report ?? emptyReport(r.body.byteLength),
        diagnosis: describeDiagnosis(r.diagnosis, r.diagnosisParams, this.ctx.language()),
      },
    };
  }

  clear(): { cleared: number } {
    return { cleared: this.store.clear() };
  }

  private requireRequest(requestId: string): StoredRequest {
    const r = this.store.get(requestId);
    if (!r) throw new InspectorError('not_found', this.text(`没有 ID 为 ${requestId} 的请求记录。`, `No captured request has the id ${requestId}.`));
    return r;
  }

  private async chooseSecret(choice: SecretChoice): Promise<string> {
    if (!choice.useStoredSecret && choice.secret) return choice.secret;
    const { current } = await this.secrets.load();
    if (current === null) {
      throw new InspectorError(
        'no_secret',
        this.text('没有存储签名密钥：先连接本地服务，或直接填写密钥。', 'No signing secret is stored: connect the local service first, or type the secret.'),
      );
    }
    return current;
  }

  async verifyPasted(
    input: ({ raw: string } | { headers: string; body: string }) & SecretChoice,
  ): Promise<VerificationExplained & { headers: CapturedHeader[]; bodyBytes: number }> {
    const pasted = 'raw' in input ? parseRawRequest(input.raw) : parseSeparate(input.headers, input.body);
    const stored = await this.secrets.load();
    const secret = await this.chooseSecret(input);
    const explained = await explainDelivery({
      headers: headerBag(pasted.headers),
      body: pasted.body,
      now: this.clock(),
      secret,
      // Earlier secrets only help when verifying with the stored one (they are its predecessors).
      previousSecrets: input.useStoredSecret ? stored.previous : [],
    });
    return {
      report: explained.report,
      diagnosis: describeDiagnosis(explained.code, explained.params, this.ctx.language()),
      headers: pasted.headers.map(([name, value]) => ({ name, value })),
      bodyBytes: pasted.body.byteLength,
    };
  }

  async sendTest(
    input: {
      url: string;
      event: WebhookEvent;
      publication?: { id: number; pack_id: string; version: number; style_code: string; published_at: number } | undefined;
      deliveryId?: string | undefined;
    } & SecretChoice,
  ): Promise<SendResult> {
    const secret = await this.chooseSecret(input);
    const now = this.clock();
    const body =
      input.event === 'ping'
        ? { event: 'ping' }
        : {
            event: 'image_pack.published',
            publication: input.publication ?? { id: 1, pack_id: `pk_${randomAlphanumeric(8)}`, version: 1, style_code: 'TEST', published_at: now },
          };
    return sendSignedNotification({
      url: input.url,
      secret,
      event: input.event,
      deliveryId: input.deliveryId ?? randomUUID(),
      timestamp: now,
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
  }

  /** Re-sends a captured delivery byte for byte, re-signed with a fresh timestamp and the same delivery id. */
  async resend(input: { requestId: string; url: string } & SecretChoice): Promise<SendResult> {
    const r = this.requireRequest(input.requestId);
    if (r.tooLarge) throw new InspectorError('too_large', this.text('这个请求的正文超过 1 MB，没有保存，无法重发。', 'This request was over 1 MB and its body was not kept; it cannot be re-sent.'));
    const secret = await this.chooseSecret(input);
    const event = (WEBHOOK_EVENTS as readonly string[]).includes(r.event ?? '') ? (r.event as WebhookEvent) : eventOfBody(r.body);
    return sendSignedNotification({
      url: input.url,
      secret,
      event,
      deliveryId: r.deliveryId ?? randomUUID(),
      timestamp: this.clock(),
      body: r.body,
    });
  }

  export(requestId: string, format: 'curl' | 'json'): InspectorExport {
    const r = this.requireRequest(requestId);
    return format === 'curl' ? exportCurl(r) : exportJson(r);
  }

  /** After a port change, a local webhook that pointed at the old URL is moved to the new one (same secret). */
  private async followLocalWebhook(oldUrl: string | null): Promise<void> {
    if (oldUrl === null || this.receiver.url === null) return;
    try {
      const current = await this.admin('/webhook', 'GET');
      if (current.url === oldUrl) await this.admin('/webhook', 'PUT', { url: this.receiver.url, enabled: current.enabled === true });
    } catch {
      // No local service (or it refused): the user can connect again; the port change itself stands.
    }
  }

  private async admin(path: string, method: 'GET' | 'PUT' | 'POST', body?: unknown): Promise<Record<string, unknown>> {
    const local = await this.ctx.localAdmin();
    if (!local) {
      throw new InspectorError(
        'local_unavailable',
        this.text('本地服务没有运行；连接只在本地环境中可用。', 'The local service is not running; connecting works in the Local environment only.'),
      );
    }
    const res = await fetch(`${local.baseUrl}/admin/accounts/${encodeURIComponent(local.accountId)}${path}`, {
      method,
      headers: { Authorization: `Bearer ${local.adminToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const err = (json.error ?? {}) as { code?: string; message?: string; request_id?: string };
      throw new InspectorError(err.code ?? 'local_failed', err.message ?? `HTTP ${res.status}`, {
        status: res.status,
        ...(err.request_id ? { requestId: err.request_id } : {}),
      });
    }
    return json;
  }

  /** One click (issue 6 §7): points the local service's webhook at this receiver and keeps its secret. */
  async connectLocal(): Promise<InspectorStatus> {
    if (this.receiver.port === null) await this.start();
    const url = this.receiver.url;
    if (url === null) throw new InspectorError('receiver_stopped', this.error ?? 'receiver not running');
    const answer = await this.admin('/webhook', 'PUT', { url, enabled: true });
    if (typeof answer.secret !== 'string') throw new InspectorError('local_failed', 'the service answered without a secret');
    await this.secrets.replace(answer.secret);
    return this.status();
  }

  async regenerateLocal(): Promise<InspectorStatus> {
    const answer = await this.admin('/webhook/regenerate', 'POST');
    if (typeof answer.secret !== 'string') throw new InspectorError('local_failed', 'the service answered without a secret');
    await this.secrets.replace(answer.secret);
    return this.status();
  }

  /** spec §4.3: the publication a notification points to, with the current environment's key. */
  async fetchPublication(publicationId: number): Promise<PublicationRecord> {
    const api = await this.ctx.currentApi();
    if (!api?.apiKey) {
      throw new InspectorError('no_api_key', this.text('当前环境没有 API 密钥（需要 documents:read 权限）。', 'The current environment has no API key (it needs documents:read).'));
    }
    const res = await fetch(`${api.baseUrl}/api/v1/image-pack-publications/${publicationId}`, {
      headers: { Authorization: `Bearer ${api.apiKey}`, 'Accept-Language': acceptLanguageFor(this.ctx.language()) },
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await res.json().catch(() => null)) as unknown;
    if (!res.ok) {
      const err = ((json as { error?: { code?: string; message?: string; request_id?: string } } | null)?.error ?? {}) as {
        code?: string;
        message?: string;
        request_id?: string;
      };
      throw new InspectorError(err.code ?? 'fetch_failed', err.message ?? `HTTP ${res.status}`, {
        status: res.status,
        ...(err.request_id ? { requestId: err.request_id } : {}),
      });
    }
    const parsed = PublicationRecordSchema.safeParse(json);
    if (!parsed.success) throw new InspectorError('unexpected_body', this.text('服务返回的出版记录格式不对。', 'The service answered with a publication of an unexpected shape.'));
    return parsed.data;
  }
}

function publicationOf(body: Uint8Array): { id: number; packId: string; version: number } | null {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { publication?: { id?: unknown; pack_id?: unknown; version?: unknown } };
    const p = parsed?.publication;
    if (p && Number.isInteger(p.id) && typeof p.pack_id === 'string' && Number.isInteger(p.version)) {
      return { id: p.id as number, packId: p.pack_id.slice(0, 64), version: p.version as number };
    }
  } catch {
    // Not JSON: no publication.
  }
  return null;
}

function eventOfBody(body: Uint8Array): WebhookEvent {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(body)) as { event?: unknown };
    if (parsed?.event === 'ping') return 'ping';
  } catch {
    // fall through
  }
  return 'image_pack.published';
}

function emptyReport(byteLength: number): CapturedRequestDetail['verification']['report'] {
  return {
    valid: false,
    signatureValid: false,
    reason: null,
    headers: { verdict: 'skip', missing: [] },
    event: { verdict: 'skip', value: null },
    deliveryId: null,
    timestamp: { verdict: 'skip', raw: null, value: null, skewSeconds: null, expiresInSeconds: null, toleranceSeconds: 300 },
    signature: { verdict: 'skip', parts: [], expected: null },
    body: { verdict: 'skip', json: false, shape: null, byteLength },
  };
}
