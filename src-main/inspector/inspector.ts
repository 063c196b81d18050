// The webhook inspector (DESIGN.md §1, spec §6): receiver + verdicts + persistence + replay. Handlers (handlers.ts) are thin
// wrappers around this class; tests drive it directly over real HTTP and a real SQLite file.
import { randomUUID } from 'node:crypto';
import type { PublicationRecord } from '../../src-shared/api.ts';
import { randomAlphanumeric } from '../../src-shared/ids.ts';
import type {
  CapturedHeader,
  CapturedRequestDetail,
  DeliveryGroup,
  ForwardAttempt,
  InspectorExport,
  InspectorStatus,
  SendResult,
  VerificationExplained,
} from '../../src-shared/ipc/inspector.ts';
import { BREAKAGE_FAILS_AT, type WebhookBreakage } from '../../src-shared/webhook-breakage.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../src-shared/webhook-signature.ts';
import { ServiceClient } from '../clients/service-client.ts';
import { StudioError, renderText, type StoredError } from '../domain/errors.ts';
import { fromServiceAnswer } from '../domain/service-answer.ts';
import { AdminClient } from '../clients/admin-client.ts';
import type { InspectorContext } from './context.ts';
import { ORIGINALS_BODY_LIMIT, describeDiagnosis, explainDelivery, headerBag, withExpectedPrefix } from './explain.ts';
import { exportCurl, exportJson } from './export.ts';
import { parseRawRequest, parseSeparate } from './paste.ts';
import { openInspectorDatabase } from './database.ts';
import { WebhookReceiver, type ReceivedHead, type ReceivedRequest, type ReceiverAnswer } from './receiver.ts';
import { InspectorSecretKeeper, SECRET_ACCOUNT } from './secrets.ts';
import { postOnce, sendSignedNotification } from './sender.ts';
import { InspectorSettings, InspectorStore, type StoredRequest } from './store.ts';

type SecretChoice = { secret?: string | undefined; useStoredSecret?: boolean | undefined };

interface Behaviour {
  port: number;
  forcedStatus: number | null;
  delayMs: number;
  /** Relay every capture at /webhooks, unchanged, to this URL (the integrator's own receiver). */
  forwardTo: string | null;
}

/** Headers that belong to one connection, not to the delivery: not relayed by forward-to. */
const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'te', 'trailer', 'upgrade', 'proxy-connection']);

const WEBHOOK_PATH = '/webhooks';
/** How many captured requests are kept (oldest dropped first). */
export const DEFAULT_MAX_KEPT = 1000;
/** How many bytes of captures are kept (body, headers and verdict of each; oldest dropped first). */
export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
/** At most one `inspector:delivery` per this window: a burst of deliveries is one refresh of an open list. */
export const DELIVERY_EVENT_WINDOW_MS = 150;
/** Bodies above this size are recorded and verified but not parsed again for a publication (see explain.ts). */
const DIAGNOSE_BODY_LIMIT = ORIGINALS_BODY_LIMIT;

export interface InspectorOptions {
  /** Unix seconds; tests pin it. */
  clock?: () => number;
  maxKept?: number;
  maxBytes?: number;
  eventWindowMs?: number;
  /** The clock `inspector:delivery` events are paced by (ms, and its timer); tests drive it by hand. */
  eventClock?: EventClock;
}

export interface EventClock {
  now(): number;
  after(ms: number, run: () => void): { cancel(): void };
}

const REAL_EVENT_CLOCK: EventClock = {
  now: () => performance.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    return { cancel: () => clearTimeout(timer) };
  },
};

/**
 * A web page can reach 127.0.0.1 (fetch with no-cors, a form post), so it could flood the receiver. Browsers
 * mark every such request with Origin or Sec-Fetch-Site; the service's sender (spec §6 headers), curl and the
 * inspector's own sender send neither. Such a request is refused before its body is read and is not stored.
 */
export function isBrowserRequest(head: Pick<ReceivedHead, 'headers'>): boolean {
  return head.headers.some(([name]) => {
    const n = name.toLowerCase();
    return n === 'origin' || n === 'sec-fetch-site';
  });
}

export class WebhookInspector {
  private readonly ctx: InspectorContext;
  private readonly store: InspectorStore;
  private readonly settings: InspectorSettings;
  private readonly secrets: InspectorSecretKeeper;
  private readonly receiver: WebhookReceiver;
  private behaviour: Behaviour;
  /** Why the receiver is not running, kept as code + facts and rendered in the language of each status(). */
  private error: StoredError | null = null;
  /** Unix seconds; tests pin it. */
  private readonly clock: () => number;
  /** Requests refused since start because a browser sent them (never stored). */
  private browserRefused = 0;
  private readonly eventWindowMs: number;
  private lastEventAt = -Infinity;
  private pendingEvent: { requestId: string; deliveryId: string | null } | null = null;
  private readonly eventClock: EventClock;
  private eventTimer: { cancel(): void } | null = null;

  constructor(ctx: InspectorContext, options: InspectorOptions = {}) {
    this.ctx = ctx;
    this.settings = new InspectorSettings(ctx.db);
    this.vacuumLibraryOnce();
    this.store = new InspectorStore(
      openInspectorDatabase(ctx.dataDir).db,
      { maxKept: options.maxKept ?? DEFAULT_MAX_KEPT, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES },
      (stored) => {
        const last = stored.at(-1);
        if (last) this.notifyDelivery({ requestId: last.id, deliveryId: last.deliveryId });
      },
    );
    this.secrets = new InspectorSecretKeeper(ctx.secrets);
    this.receiver = new WebhookReceiver({ handler: (r) => this.receive(r), refuse: (head) => this.refuse(head) });
    this.clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
    this.eventWindowMs = options.eventWindowMs ?? DELIVERY_EVENT_WINDOW_MS;
    this.eventClock = options.eventClock ?? REAL_EVENT_CLOCK;
    this.behaviour = { port: 0, forcedStatus: null, delayMs: 0, forwardTo: null, ...(this.settings.get<Behaviour>('behaviour') ?? {}) };
  }

  /**
   * Library migration 0101 dropped the captures that used to live in library.db; the pages they held stay in
   * the file until a VACUUM, which cannot run inside a migration. Done here once, before the start-up backup.
   */
  private vacuumLibraryOnce(): void {
    if (!this.settings.get<boolean>('vacuumLibrary')) return;
    try {
      this.ctx.db.exec('VACUUM');
      this.ctx.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      this.settings.delete('vacuumLibrary');
    } catch {
      // No room for the rebuild, or the file is busy: tried again at the next start.
    }
  }

  /** Starts the receiver on the configured port, or the port it had last time so the service's URL still works. */
  async start(): Promise<void> {
    const wanted = this.behaviour.port || (this.settings.get<number>('lastPort') ?? 0);
    try {
      await this.receiver.start(wanted);
      this.error = null;
    } catch (error) {
      if (this.behaviour.port !== 0) {
        this.error = { code: 'receiver_port_unavailable', params: { port: this.behaviour.port, cause: (error as Error).message } };
        return;
      }
      await this.receiver.start(0);
      this.error = null;
    }
    this.settings.set('lastPort', this.receiver.port);
  }

  /** Stops the receiver and closes inspector.db (final: the handlers are closing). */
  async stop(): Promise<void> {
    await this.receiver.stop();
    this.eventTimer?.cancel();
    this.eventTimer = null;
    this.pendingEvent = null;
    await this.store.close();
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
      error: this.error === null ? null : renderText(this.error, this.ctx.language()),
      browserRequestsRefused: this.browserRefused,
      secretKept: this.ctx.secrets.isMemoryOnly?.(SECRET_ACCOUNT) ? 'memory' : 'keychain',
      forwardTo: this.behaviour.forwardTo,
    };
  }

  async configure(input: {
    port?: number | undefined;
    forcedStatus?: number | null | undefined;
    delayMs?: number | undefined;
    forwardTo?: string | null | undefined;
  }): Promise<InspectorStatus> {
    const next: Behaviour = { ...this.behaviour };
    if (input.forcedStatus !== undefined) next.forcedStatus = input.forcedStatus;
    if (input.forwardTo !== undefined) next.forwardTo = input.forwardTo;
    if (input.delayMs !== undefined) next.delayMs = input.delayMs;
    const portChanged = input.port !== undefined && input.port !== this.receiver.port;
    if (input.port !== undefined) next.port = input.port;
    if (portChanged) {
      const oldUrl = this.receiver.url;
      try {
        await this.receiver.start(next.port);
        this.error = null;
        this.settings.set('lastPort', this.receiver.port);
        await this.followLocalWebhook(oldUrl);
      } catch (error) {
        // Keep the old receiver settings and port; a failed change changes nothing.
        await this.start();
        throw new StudioError('port_unavailable', { port: next.port, cause: (error as Error).message });
      }
    }
    this.behaviour = next;
    this.settings.set('behaviour', next);
    return this.status();
  }

  /** Asked before a body is read: a request a browser sent is answered 403 and forgotten (only counted). */
  private refuse(head: ReceivedHead): ReceiverAnswer | null {
    if (!isBrowserRequest(head)) return null;
    this.browserRefused += 1;
    return {
      status: 403,
      body: JSON.stringify({ error: 'browser_request_refused', hint: 'requests sent by a web page (Origin or Sec-Fetch-Site header) are not accepted' }),
    };
  }

  /**
   * `inspector:delivery` at most once per window: the first delivery of a quiet period at once, the rest of a
   * burst as one trailing event naming the latest, so an open list refreshes a few times a second at most.
   */
  private notifyDelivery(payload: { requestId: string; deliveryId: string | null }): void {
    const now = this.eventClock.now();
    if (this.eventTimer === null && now - this.lastEventAt >= this.eventWindowMs) {
      this.lastEventAt = now;
      this.ctx.emit('inspector:delivery', payload);
      return;
    }
    this.pendingEvent = payload;
    this.eventTimer ??= this.eventClock.after(Math.max(0, this.lastEventAt + this.eventWindowMs - now), () => {
      this.eventTimer = null;
      this.lastEventAt = this.eventClock.now();
      const pending = this.pendingEvent;
      this.pendingEvent = null;
      if (pending) this.ctx.emit('inspector:delivery', pending);
    });
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
      const deliveryId = base.deliveryId;
      const explained = await explainDelivery({
        headers: bag,
        body: request.body,
        now: this.clock(),
        secret: current,
        previousSecrets: previous,
        // Read only when the signature fails (a retry of a verified delivery names what changed).
        earlierAttempts: () => (deliveryId ? this.store.validAttemptsOf(deliveryId) : []),
      });
      base.report = explained.report;
      base.valid = explained.report.valid;
      base.diagnosis = explained.code;
      base.diagnosisParams = explained.params;
      base.publication = explained.report.body.json && request.body.byteLength <= DIAGNOSE_BODY_LIMIT ? publicationOf(request.body) : null;
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
      // Written with the other deliveries of this turn of the event loop; `inspector:delivery` follows.
      await this.store.insert(base);
    } catch {
      // A full disk must not take the receiver down; the answer still goes out.
    }
    if (this.behaviour.forwardTo !== null && request.path === WEBHOOK_PATH && !request.tooLarge) void this.forward(base, this.behaviour.forwardTo);
    if (this.behaviour.delayMs > 0 && request.path === WEBHOOK_PATH) await new Promise((r) => setTimeout(r, this.behaviour.delayMs));
    return { status, body: answer };
  }

  /**
   * Forward-to: the capture is relayed byte for byte with its own headers (not re-signed), so the integrator's
   * receiver verifies exactly what the sender signed; its answer is recorded beside the inspector's verdict.
   * In the background: the sender gets the inspector's answer without waiting for the relay.
   */
  private async forward(captured: StoredRequest, url: string): Promise<ForwardAttempt> {
    const headers = captured.headers.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()));
    headers.push(['Content-Length', String(captured.body.byteLength)]);
    const at = Date.now();
    const answer = await postOnce(url, headers, captured.body);
    const attempt: ForwardAttempt = { at, url, ...answer };
    try {
      this.store.addForward(captured.id, attempt);
      this.notifyDelivery({ requestId: captured.id, deliveryId: captured.deliveryId });
    } catch {
      // A full disk or a closed store: the relay happened, only its record is lost.
    }
    return attempt;
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
        report: r.report === null ? emptyReport(r.body.byteLength) : withExpectedPrefix(r.report),
        diagnosis: describeDiagnosis(r.diagnosis, r.diagnosisParams, this.ctx.language()),
      },
      forwards: this.store.forwardsOf(r.id),
    };
  }

  async clear(): Promise<{ cleared: number }> {
    return { cleared: await this.store.clear() };
  }

  private requireRequest(requestId: string): StoredRequest {
    const r = this.store.get(requestId);
    if (!r) throw new StudioError('not_found', { what: 'request', id: requestId });
    return r;
  }

  private async chooseSecret(choice: SecretChoice): Promise<string> {
    if (!choice.useStoredSecret && choice.secret) return choice.secret;
    const { current } = await this.secrets.load();
    if (current === null) {
      throw new StudioError('no_secret');
    }
    return current;
  }

  async verifyPasted(
    input: ({ raw: string } | { headers: string; body: string }) & SecretChoice,
  ): Promise<VerificationExplained & { headers: CapturedHeader[]; bodyBytes: number }> {
    const pasted = 'raw' in input ? parseRawRequest(input.raw) : parseSeparate(input.headers, input.body);
    const stored = await this.secrets.load();
    const secret = await this.chooseSecret(input);
    const bag = headerBag(pasted.headers);
    const deliveryHeader = bag['x-service-delivery'];
    const deliveryId = (Array.isArray(deliveryHeader) ? deliveryHeader[0] : deliveryHeader) ?? null;
    const explained = await explainDelivery({
      headers: bag,
      body: pasted.body,
      now: this.clock(),
      secret,
      // Earlier secrets only help when verifying with the stored one (they are its predecessors).
      previousSecrets: input.useStoredSecret ? stored.previous : [],
      // A capture of the same delivery tells a changed body or timestamp from another secret (D10).
      earlierAttempts: () => (deliveryId ? this.store.validAttemptsOf(deliveryId.slice(0, 200)) : []),
      pasted: true,
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
      breakage?: WebhookBreakage | undefined;
    } & SecretChoice,
  ): Promise<SendResult> {
    const secret = await this.chooseSecret(input);
    const breakage = input.breakage ?? 'none';
    const previousSecret = await this.previousSecretFor(breakage);
    const now = this.clock();
    const body =
      input.event === 'ping'
        ? { event: 'ping' }
        : {
            event: 'image_pack.published',
            publication: input.publication ?? { id: 1, pack_id: `pk_${randomAlphanumeric(8)}`, version: 1, style_code: 'TEST', published_at: now },
          };
    const sent = await sendSignedNotification({
      url: input.url,
      secret,
      previousSecret,
      breakage,
      event: input.event,
      deliveryId: input.deliveryId ?? randomUUID(),
      timestamp: now,
      body: new TextEncoder().encode(JSON.stringify(body)),
    });
    return { ...sent, breakage, failsAt: BREAKAGE_FAILS_AT[breakage] };
  }

  /** The secret Regenerate replaced last, for the `previous_secret` breakage (a clear error when none is known). */
  private async previousSecretFor(breakage: WebhookBreakage): Promise<string | null> {
    if (breakage !== 'previous_secret') return null;
    const { previous } = await this.secrets.load();
    const last = previous[0]?.secret;
    if (!last) throw new StudioError('no_previous_secret');
    return last;
  }

  /**
   * Re-sends a captured delivery, re-signed with a fresh timestamp and the same delivery id: byte for byte, or
   * with the body as the user edited it (then the event follows the edited body).
   */
  async resend(
    input: { requestId: string; url: string; bodyText?: string | undefined; breakage?: WebhookBreakage | undefined } & SecretChoice,
  ): Promise<SendResult> {
    const r = this.requireRequest(input.requestId);
    if (r.tooLarge) throw new StudioError('too_large');
    const secret = await this.chooseSecret(input);
    const breakage = input.breakage ?? 'none';
    const previousSecret = await this.previousSecretFor(breakage);
    const body = input.bodyText === undefined ? r.body : new TextEncoder().encode(input.bodyText);
    const headerEvent = input.bodyText === undefined && (WEBHOOK_EVENTS as readonly string[]).includes(r.event ?? '') ? (r.event as WebhookEvent) : null;
    const sent = await sendSignedNotification({
      url: input.url,
      secret,
      previousSecret,
      breakage,
      event: headerEvent ?? eventOfBody(body),
      deliveryId: r.deliveryId ?? randomUUID(),
      timestamp: this.clock(),
      body,
    });
    return { ...sent, breakage, failsAt: BREAKAGE_FAILS_AT[breakage] };
  }

  /** The integrator's own secret: later deliveries from any sender are verified with it (the old one is kept as previous). */
  async setSecret(secret: string): Promise<InspectorStatus> {
    await this.secrets.replace(secret);
    return this.status();
  }

  /** The whole current secret, asked for by a click (to copy into the integrator's receiver). */
  async revealSecret(): Promise<{ secret: string }> {
    const { current } = await this.secrets.load();
    if (current === null) throw new StudioError('no_secret');
    return { secret: current };
  }

  export(requestId: string, format: 'curl' | 'json'): InspectorExport {
    const r = this.requireRequest(requestId);
    return format === 'curl' ? exportCurl(r) : exportJson(r);
  }

  /** After a port change, a local webhook that pointed at the old URL is moved to the new one (same secret). */
  private async followLocalWebhook(oldUrl: string | null): Promise<void> {
    if (oldUrl === null || this.receiver.url === null) return;
    try {
      const { admin, accountId } = await this.localAdmin();
      const current = await admin.webhook(accountId);
      if (current.url === oldUrl) await admin.setWebhook(accountId, { url: this.receiver.url, enabled: current.enabled });
    } catch {
      // No local service (or it refused): the user can connect again; the port change itself stands.
    }
  }

  private async localAdmin(): Promise<{ admin: AdminClient; accountId: string }> {
    const local = await this.ctx.localAdmin();
    if (!local) throw new StudioError('local_unavailable');
    return { admin: new AdminClient(local.baseUrl, local.adminToken, { language: () => this.ctx.language(), timeoutMs: 10_000 }), accountId: local.accountId };
  }

  /** One click (spec §6 "Configuration"): points the local service's webhook at this receiver and keeps its secret. */
  async connectLocal(): Promise<InspectorStatus> {
    if (this.receiver.port === null) await this.start();
    const url = this.receiver.url;
    if (url === null) throw this.error ? StudioError.fromStored(this.error) : new StudioError('receiver_stopped');
    const { admin, accountId } = await this.localAdmin();
    const answer = await admin.setWebhook(accountId, { url, enabled: true });
    await this.secrets.replace(answer.secret);
    return this.status();
  }

  async regenerateLocal(): Promise<InspectorStatus> {
    const { admin, accountId } = await this.localAdmin();
    const answer = await admin.regenerateWebhookSecret(accountId);
    await this.secrets.replace(answer.secret);
    return this.status();
  }

  /** spec §4.3: the publication a notification points to, with the current environment's key. */
  async fetchPublication(publicationId: number): Promise<PublicationRecord> {
    const api = await this.ctx.currentApi();
    // documents:read is needed (spec §4.3); without a key there is nothing to ask with.
    if (!api?.apiKey) throw new StudioError('no_api_key');
    const client = new ServiceClient({ environment: api.environment ?? 'remote', baseUrl: api.baseUrl, apiKey: api.apiKey, language: this.ctx.language() });
    const result = await client.publication(publicationId);
    if (result.ok) return result.value;
    if (result.kind === 'network') throw new StudioError('service_unreachable', { cause: result.message });
    const { code, message, status, requestId } = result.error;
    if (code === 'unexpected_response') {
      throw new StudioError(code, { text: message }, { ...(status !== undefined ? { status } : {}), ...(requestId !== undefined ? { requestId } : {}) });
    }
    throw StudioError.fromStored(fromServiceAnswer(result.error, this.ctx.language()));
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
