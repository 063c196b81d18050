// What the local service did to a damaged service.db at a start (docs/local-service.md "A damaged service.db"): both
// hosts read the records the service appended to `<data>/recoveries.jsonl` during the start they made, once it is
// ready, and tell their listeners (the app turns each into a notice).
import { readServiceRecoveries, type ServiceRecovery } from '../../src-service/start.ts';

export class RecoveryListeners {
  private readonly listeners = new Set<(recovery: ServiceRecovery) => void>();

  add(listener: (recovery: ServiceRecovery) => void): void {
    this.listeners.add(listener);
  }

  /** After a start that began at `sinceMs` is ready: each recovery it made, once. */
  tell(dataDir: string, sinceMs: number): void {
    for (const recovery of readServiceRecoveries(dataDir, sinceMs)) for (const l of this.listeners) l(recovery);
  }
}
