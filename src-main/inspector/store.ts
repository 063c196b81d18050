// SQL for the inspector's captures (migration 0100). Queries only; rules live in inspector.ts.
import type { DatabaseSync } from 'node:sqlite';
import type { CapturedRequest, DeliveryGroup, DiagnosisCode } from '../../src-shared/ipc/inspector.ts';
import type { VerificationReport } from '../../src-shared/webhook-signature.ts';
import type { ReceivedRequest } from './receiver.ts';

/** A received request (receiver.ts) with what the inspector concluded about it. */
export interface StoredRequest extends ReceivedRequest {
  id: string;
  deliveryId: string | null;
  event: string | null;
  publication: { id: number; packId: string; version: number } | null;
  responseStatus: number;
  valid: boolean;
  diagnosis: DiagnosisCode;
  diagnosisParams: Record<string, string | number | null>;
  report: VerificationReport | null;
}

interface Row {
  id: string;
  received_at: number;
  method: string;
  path: string;
  headers_json: string;
  body: Uint8Array;
  body_bytes: number;
  too_large: number;
  delivery_id: string | null;
  event: string | null;
  publication_id: number | null;
  pack_id: string | null;
  version: number | null;
  response_status: number;
  valid: number;
  diagnosis: string;
  diagnosis_params_json: string;
  report_json: string | null;
}

const SUMMARY_COLUMNS =
  'id, received_at, method, path, body_bytes, too_large, delivery_id, event, publication_id, pack_id, version, response_status, valid, diagnosis';

function toSummary(row: Omit<Row, 'headers_json' | 'body' | 'diagnosis_params_json' | 'report_json'>): CapturedRequest {
  return {
    requestId: row.id,
    receivedAt: row.received_at,
    method: row.method,
    path: row.path,
    deliveryId: row.delivery_id,
    event: row.event,
    responseStatus: row.response_status,
    valid: row.valid === 1,
    diagnosis: row.diagnosis as DiagnosisCode,
    bodyBytes: row.body_bytes,
    tooLarge: row.too_large === 1,
    publication:
      row.publication_id !== null && row.pack_id !== null && row.version !== null
        ? { id: row.publication_id, packId: row.pack_id, version: row.version }
        : null,
  };
}

export class InspectorStore {
  private readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  insert(r: StoredRequest): void {
    this.db
      .prepare(
        `INSERT INTO inspector_requests (id, received_at, method, path, headers_json, body, body_bytes, too_large, delivery_id, event,
           publication_id, pack_id, version, response_status, valid, diagnosis, diagnosis_params_json, report_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        r.id,
        r.receivedAt,
        r.method,
        r.path,
        JSON.stringify(r.headers),
        r.body,
        r.bodyBytes,
        r.tooLarge ? 1 : 0,
        r.deliveryId,
        r.event,
        r.publication?.id ?? null,
        r.publication?.packId ?? null,
        r.publication?.version ?? null,
        r.responseStatus,
        r.valid ? 1 : 0,
        r.diagnosis,
        JSON.stringify(r.diagnosisParams),
        r.report === null ? null : JSON.stringify(r.report),
      );
  }

  get(id: string): StoredRequest | null {
    const row = this.db.prepare('SELECT * FROM inspector_requests WHERE id = ?').get(id) as Row | undefined;
    if (!row) return null;
    const s = toSummary(row);
    return {
      id: row.id,
      receivedAt: row.received_at,
      method: row.method,
      path: row.path,
      headers: JSON.parse(row.headers_json) as Array<[string, string]>,
      body: new Uint8Array(row.body),
      bodyBytes: row.body_bytes,
      tooLarge: s.tooLarge,
      deliveryId: row.delivery_id,
      event: row.event,
      publication: s.publication,
      responseStatus: row.response_status,
      valid: s.valid,
      diagnosis: s.diagnosis,
      diagnosisParams: JSON.parse(row.diagnosis_params_json) as Record<string, string | number | null>,
      report: row.report_json === null ? null : (JSON.parse(row.report_json) as VerificationReport),
    };
  }

  /** Earlier attempts with this delivery id that verified: their raw body and timestamp header. */
  validAttemptsOf(deliveryId: string): Array<{ body: Uint8Array; timestamp: string | null }> {
    const rows = this.db
      .prepare('SELECT body, headers_json FROM inspector_requests WHERE delivery_id = ? AND valid = 1 ORDER BY received_at LIMIT 5')
      .all(deliveryId) as Array<{ body: Uint8Array; headers_json: string }>;
    return rows.map((r) => {
      const headers = JSON.parse(r.headers_json) as Array<[string, string]>;
      return { body: new Uint8Array(r.body), timestamp: headers.find(([n]) => n.toLowerCase() === 'x-service-timestamp')?.[1] ?? null };
    });
  }

  /** Groups attempts by delivery id, newest group first; flags a later delivery of the same (pack_id, version). */
  listGroups(limit: number): { groups: DeliveryGroup[]; total: number } {
    const rows = this.db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM inspector_requests ORDER BY received_at, id`).all() as unknown as Row[];
    const byKey = new Map<string, DeliveryGroup>();
    for (const row of rows) {
      const attempt = toSummary(row);
      const key = attempt.deliveryId ?? attempt.requestId;
      let group = byKey.get(key);
      if (!group) {
        group = {
          key,
          deliveryId: attempt.deliveryId,
          event: attempt.event,
          firstAt: attempt.receivedAt,
          lastAt: attempt.receivedAt,
          attempts: [],
          anyValid: false,
          duplicateOf: null,
        };
        byKey.set(key, group);
      }
      group.attempts.push(attempt);
      group.lastAt = attempt.receivedAt;
      group.anyValid ||= attempt.valid;
      group.event ??= attempt.event;
    }
    // spec §6 rule 4: the same notification may arrive twice; a later delivery id for a (pack_id, version)
    // already seen is a duplicate the receiver must drop.
    const firstForPack = new Map<string, string>();
    for (const group of byKey.values()) {
      const pub = group.attempts.find((a) => a.publication !== null)?.publication;
      if (!pub) continue;
      const packKey = `${pub.packId}\u0000${pub.version}`;
      const first = firstForPack.get(packKey);
      if (first === undefined) firstForPack.set(packKey, group.key);
      else group.duplicateOf = first;
    }
    const groups = [...byKey.values()].sort((a, b) => b.lastAt - a.lastAt);
    return { groups: groups.slice(0, limit), total: groups.length };
  }

  /** Keeps the newest `keep` requests: anyone on loopback can send, so what we store must stay bounded. */
  prune(keep: number): number {
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM inspector_requests').get() as { n: number };
    if (n <= keep) return 0;
    const result = this.db
      .prepare('DELETE FROM inspector_requests WHERE id IN (SELECT id FROM inspector_requests ORDER BY received_at, id LIMIT ?)')
      .run(n - keep);
    return Number(result.changes);
  }

  clear(): number {
    const result = this.db.prepare('DELETE FROM inspector_requests').run();
    return Number(result.changes);
  }

  setting<T>(key: string): T | null {
    const row = this.db.prepare('SELECT value_json FROM inspector_settings WHERE key = ?').get(key) as { value_json: string } | undefined;
    return row ? (JSON.parse(row.value_json) as T) : null;
  }

  setSetting(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO inspector_settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json')
      .run(key, JSON.stringify(value));
  }
}
