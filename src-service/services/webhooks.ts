// Webhook configuration, test pings and publish notifications (spec §6, DESIGN.md §4). One per running service,
// created and started by start.ts, shared by the pack routes (publish) and the webhook admin routes.
import type {
  AdminDelivery,
  AdminLastDelivery,
  AdminPing,
  AdminWebhook,
  AdminWebhookConfig,
  AdminWebhookSecret,
  PutWebhookBody,
} from '../../src-shared/admin.ts';
import { newId } from '../../src-shared/ids.ts';
import type { Publication } from '../../src-shared/api.ts';
import type { ServiceDeps } from '../deps.ts';
import type { FaultStore } from '../faults.ts';
import { fail } from '../http/errors.ts';
import { createAccountsRepo } from '../repos/accounts.ts';
import { createWebhooksRepo, type DeliveryRow, type WebhookConfigRow } from '../repos/webhooks.ts';
import { createDispatcher, type Dispatcher, type DispatcherTimers, type ResolveHost } from './dispatcher.ts';
import { checkWebhookUrlText } from './webhook-url.ts';

/** The exact bytes of an image_pack.published body (spec §6: event and publication, no images, no text). */
export function publishedBody(p: Publication): string {
  return JSON.stringify({
    event: 'image_pack.published',
    publication: { id: p.id, pack_id: p.pack_id, version: p.version, style_code: p.style_code, published_at: p.published_at },
  });
}

export const PING_BODY = JSON.stringify({ event: 'ping' });

export function createWebhookService(
  deps: Pick<ServiceDeps, 'db' | 'clock' | 'settings' | 'logger'> & { faults?: FaultStore },
  options: { resolve?: ResolveHost; timers?: DispatcherTimers } = {},
) {
  const repo = createWebhooksRepo(deps.db);
  const accounts = createAccountsRepo(deps.db);
  const dispatcher: Dispatcher = createDispatcher({
    repo,
    now: () => deps.clock.now(),
    allowLoopback: () => deps.settings.get().allow_loopback_webhooks,
    log: deps.logger,
    ...(deps.faults ? { faults: deps.faults.drawWebhook } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });

  const mustHaveAccount = (accountId: string): void => {
    if (!accounts.findById(accountId)) fail('not_found', { what: `account ${accountId}`, what_zh: `账户 ${accountId}` });
  };

  // DESIGN.md §4: exactly {delivery_id, event, attempts, outcome, status?, at}; `status` is the last HTTP status
  // received, `at` Unix seconds (service clock) of the last attempt, or of the creation while none was made.
  const lastView = (row: DeliveryRow): AdminLastDelivery => ({
    delivery_id: row.id,
    event: row.event,
    attempts: row.attempts,
    outcome: row.outcome,
    ...(row.lastStatus !== null ? { status: row.lastStatus } : {}),
    at: Math.floor(row.updatedAt / 1000),
  });

  function view(accountId: string, config: WebhookConfigRow | null): AdminWebhook {
    const last = repo.lastDelivery(accountId);
    return { url: config?.url ?? '', enabled: config?.enabled ?? false, last_delivery: last ? lastView(last) : null };
  }

  return {
    dispatcher,

    get(accountId: string): AdminWebhook {
      mustHaveAccount(accountId);
      return view(accountId, repo.getConfig(accountId));
    },

    /** The most recent deliveries, newest first, with why each last failed. */
    deliveries(accountId: string, limit = 20): AdminDelivery[] {
      mustHaveAccount(accountId);
      return repo.recentDeliveries(accountId, limit).map((row) => ({
        ...lastView(row),
        ...(row.lastError !== null ? { error: row.lastError } : {}),
        created_at: Math.floor(row.createdAt / 1000),
        attempt_log: row.attemptLog,
      }));
    },

    /** PUT: a refused URL changes nothing (DESIGN.md §4); the secret is created on the first save. */
    put(accountId: string, input: PutWebhookBody): AdminWebhookConfig {
      mustHaveAccount(accountId);
      const verdict = checkWebhookUrlText(input.url, { allowLoopback: deps.settings.get().allow_loopback_webhooks });
      if (!verdict.ok) fail('invalid_webhook_url', { rule: verdict.rule, detail: verdict.detail, detail_zh: verdict.detailZh });
      const existing = repo.getConfig(accountId);
      const config: WebhookConfigRow = {
        accountId,
        url: input.url,
        enabled: input.enabled,
        secret: existing?.secret ?? newId('webhookSecret'),
        updatedAt: deps.clock.now(),
      };
      repo.putConfig(config);
      return { url: config.url, enabled: config.enabled, secret: config.secret };
    },

    /** The current signing secret, for an integrator's receiver or `service -- trigger --account` (admin only). */
    secret(accountId: string): AdminWebhookSecret {
      mustHaveAccount(accountId);
      const config = repo.getConfig(accountId);
      if (!config) fail('not_found', { what: `webhook of account ${accountId}`, what_zh: `账户 ${accountId} 的通知设置` });
      return { secret: config.secret };
    },

    /** spec §6 step 6: the old secret stops at once; pending retries are signed with the new one. */
    regenerate(accountId: string): AdminWebhookSecret {
      mustHaveAccount(accountId);
      const existing = repo.getConfig(accountId);
      const secret = newId('webhookSecret');
      repo.putConfig({
        accountId,
        url: existing?.url ?? '',
        enabled: existing?.enabled ?? false,
        secret,
        updatedAt: deps.clock.now(),
      });
      return { secret };
    },

    /** 'Send test notification' (spec §6 event ping). Switched off or no URL: nothing can be sent. */
    ping(accountId: string): AdminPing {
      mustHaveAccount(accountId);
      const config = repo.getConfig(accountId);
      if (!config || !config.enabled || config.url === '') {
        fail('invalid_request', {
          detail: 'the webhook is switched off or has no URL, so no test notification can be sent',
          detail_zh: '通知已关闭或未设置地址，无法发送测试通知',
        });
      }
      return { delivery_id: dispatcher.enqueue(accountId, config.url, 'ping', PING_BODY) };
    },

    /**
     * Called inside the publish transaction: the delivery row commits with the publication, so a crash
     * cannot lose the notification. Sent only when switched on with a URL (spec §6 "when a notification is sent").
     */
    notifyPublished(accountId: string, publication: Publication): string | null {
      const config = repo.getConfig(accountId);
      if (!config || !config.enabled || config.url === '') return null;
      return dispatcher.enqueue(accountId, config.url, 'image_pack.published', publishedBody(publication));
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
