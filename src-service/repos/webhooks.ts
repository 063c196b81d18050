// SQL for the webhook configuration and its persisted deliveries (spec §6).
import type { DatabaseSync } from 'node:sqlite';

export interface WebhookConfigRow {
  accountId: string;
  url: string;
  enabled: boolean;
  secret: string;
  updatedAt: number;
}

export type DeliveryOutcome = 'pending' | 'succeeded' | 'failed';

/** One finished attempt of a delivery, as the admin API shows it. */
export interface DeliveryAttempt {
  attempt: number;
  /** ms since epoch (real time), when the attempt started. */
  at: number;
  /** The receiver's HTTP status; null when none came (refused, timeout, refused address). */
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface DeliveryRow {
  seq: number;
  id: string;
  accountId: string;
  event: string;
  url: string;
  body: string;
  attempts: number;
  outcome: DeliveryOutcome;
  lastStatus: number | null;
  lastError: string | null;
  /** Every finished attempt, oldest first. */
  attemptLog: DeliveryAttempt[];
  /** Real wall-clock ms of the next attempt; null once the delivery is finished. */
  nextAttemptAt: number | null;
  createdAt: number;
  updatedAt: number;
}

type Raw = Record<string, unknown>;

function toDelivery(r: Raw): DeliveryRow {
  return {
    seq: r.seq as number,
    id: r.id as string,
    accountId: r.account_id as string,
    event: r.event as string,
    url: r.url as string,
    body: r.body as string,
    attempts: r.attempts as number,
    outcome: r.outcome as DeliveryOutcome,
    lastStatus: (r.last_status as number | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
    attemptLog: JSON.parse((r.attempt_log as string | undefined) ?? '[]') as DeliveryAttempt[],
    nextAttemptAt: (r.next_attempt_at as number | null) ?? null,
    createdAt: r.created_at as number,
    updatedAt: r.updated_at as number,
  };
}

export function createWebhooksRepo(db: DatabaseSync) {
  const statements = {
    getConfig: db.prepare('SELECT * FROM webhooks WHERE account_id = ?'),
    putConfig: db.prepare(
      `INSERT INTO webhooks (account_id, url, enabled, secret, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, enabled = excluded.enabled, secret = excluded.secret,
         updated_at = excluded.updated_at`,
    ),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (id, account_id, event, url, body, attempts, outcome, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?)`,
    ),
    getDelivery: db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?'),
    pending: db.prepare("SELECT * FROM webhook_deliveries WHERE outcome = 'pending' ORDER BY seq"),
    last: db.prepare('SELECT * FROM webhook_deliveries WHERE account_id = ? ORDER BY seq DESC LIMIT 1'),
    recent: db.prepare('SELECT * FROM webhook_deliveries WHERE account_id = ? ORDER BY seq DESC LIMIT ?'),
    logAttempt: db.prepare(`UPDATE webhook_deliveries SET attempt_log = json_insert(attempt_log, '$[#]', json(?)) WHERE id = ?`),
    recordAttempt: db.prepare(
      `UPDATE webhook_deliveries SET attempts = ?, outcome = ?, last_status = ?, last_error = ?, next_attempt_at = ?, updated_at = ?
       WHERE id = ?`,
    ),
  };

  return {
    getConfig(accountId: string): WebhookConfigRow | null {
      const r = statements.getConfig.get(accountId) as Raw | undefined;
      if (!r) return null;
      return {
        accountId: r.account_id as string,
        url: r.url as string,
        enabled: r.enabled === 1,
        secret: r.secret as string,
        updatedAt: r.updated_at as number,
      };
    },
    putConfig(c: WebhookConfigRow): void {
      statements.putConfig.run(c.accountId, c.url, c.enabled ? 1 : 0, c.secret, c.updatedAt);
    },
    insertDelivery(d: { id: string; accountId: string; event: string; url: string; body: string; nextAttemptAt: number; now: number }): void {
      statements.insertDelivery.run(d.id, d.accountId, d.event, d.url, d.body, d.nextAttemptAt, d.now, d.now);
    },
    getDelivery(id: string): DeliveryRow | null {
      const r = statements.getDelivery.get(id) as Raw | undefined;
      return r ? toDelivery(r) : null;
    },
    pendingDeliveries(): DeliveryRow[] {
      return (statements.pending.all() as Raw[]).map(toDelivery);
    },
    lastDelivery(accountId: string): DeliveryRow | null {
      const r = statements.last.get(accountId) as Raw | undefined;
      return r ? toDelivery(r) : null;
    },
    recentDeliveries(accountId: string, limit: number): DeliveryRow[] {
      return (statements.recent.all(accountId, limit) as Raw[]).map(toDelivery);
    },
    recordAttempt(
      id: string,
      a: { attempts: number; outcome: DeliveryOutcome; lastStatus: number | null; lastError: string | null; nextAttemptAt: number | null; now: number },
    ): void {
      statements.recordAttempt.run(a.attempts, a.outcome, a.lastStatus, a.lastError, a.nextAttemptAt, a.now, id);
    },
    /** Appends one finished attempt to the delivery's log (what the receiver answered, or why there was no answer). */
    logAttempt(id: string, attempt: DeliveryAttempt): void {
      statements.logAttempt.run(JSON.stringify(attempt), id);
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
