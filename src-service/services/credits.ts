// Credits as a ledger (spec §4.1 Billing, DESIGN.md §3): reserve after validation in one transaction with
// the balance change, settle on success, refund the difference on partial success, refund all on failure.
import type { Clock } from '../clock.ts';
import { transaction, type Database } from '../db.ts';
import { createAccountsRepo } from '../repos/accounts.ts';
import { createCreditsRepo } from '../repos/credits.ts';

export interface CreditServiceHooks {
  /** Test seam: runs first in every settle or refund; a throw stands in for a failing write (SQLITE_FULL). */
  beforeClose?: (turnId: string) => void;
}

export function createCreditService(db: Database, clock: Clock, hooks: CreditServiceHooks = {}) {
  const accounts = createAccountsRepo(db);
  const credits = createCreditsRepo(db);

  /**
   * Returns unused credits of a pending reservation and closes it; call inside a transaction. Idempotent by
   * turn id: a reservation that is no longer pending is left alone, so a retried settle never applies twice.
   */
  function close(turnId: string, charged: number): number {
    hooks.beforeClose?.(turnId);
    const reservation = credits.findByTurn(turnId);
    if (!reservation || reservation.status !== 'pending') return 0;
    const refund = reservation.amount - charged;
    const now = clock.now();
    credits.close(turnId, charged === 0 ? 'refunded' : 'settled', charged, now);
    if (refund > 0) {
      const account = accounts.findById(reservation.account_id);
      if (account) accounts.moveCredits(account.id, account.credits + refund, 'refund', refund, turnId, now);
    }
    return refund;
  }

  return {
    /** Takes `amount` out of the balance as a pending reservation; call inside the validating transaction. */
    reserve(accountId: string, turnId: string, amount: number): void {
      const account = accounts.findById(accountId);
      if (!account) throw new Error(`no account ${accountId}`);
      const now = clock.now();
      credits.insert(turnId, accountId, amount, now);
      accounts.moveCredits(accountId, account.credits - amount, 'reserve', -amount, turnId, now);
    },
    /** Settles for `charged` credits and refunds the rest of the reservation. */
    settle(turnId: string, charged: number): number {
      return transaction(db, () => close(turnId, charged));
    },
    refundAll(turnId: string): number {
      return transaction(db, () => close(turnId, 0));
    },
    close,
    /** Credits spent in the 24 hours before now (settled charges plus pending reservations). */
    spentLast24h(accountId: string): number {
      return credits.spendSince(accountId, clock.now() - 86_400_000);
    },
    /** What each reservation of the last 24 hours spends (pending: its amount; settled: its charge), oldest first. */
    spendsLast24h(accountId: string): Array<{ created_at: number; spend: number }> {
      return credits.spendBySince(accountId, clock.now() - 86_400_000);
    },
    /** DESIGN.md §3 crash safety: refunds every reservation a crash left pending. Returns how many. */
    refundPendingAfterCrash(onTurn: (turnId: string) => void): number {
      return transaction(db, () => {
        const pending = credits.listPending();
        for (const r of pending) {
          close(r.turn_id, 0);
          onTurn(r.turn_id);
        }
        return pending.length;
      });
    },
  };
}
export type CreditService = ReturnType<typeof createCreditService>;
