// GET /admin/accounts/:id/turns (docs/local-service.md): an account's generations since a moment, with their
// outcome, charge, what is still reserved and the images that were not deleted, so an app that lost an answer
// can settle its record without resending (spec §7 retry guidance 5).
import type { AdminTurn } from '../../src-shared/admin.ts';
import type { GenerationWarning } from '../../src-shared/warnings.ts';
import type { ServiceDeps } from '../deps.ts';
import { fail } from '../http/errors.ts';
import { createAccountsRepo } from '../repos/accounts.ts';
import { createImagesRepo } from '../repos/images.ts';
import { createTurnsRepo } from '../repos/turns.ts';

/** At most this many turns per answer; page on with `since` = the last created_at. */
export const MAX_TURNS_PER_PAGE = 500;

export function createTurnService(deps: Pick<ServiceDeps, 'db'>) {
  const accounts = createAccountsRepo(deps.db);
  const turns = createTurnsRepo(deps.db);
  const images = createImagesRepo(deps.db);
  return {
    /** Oldest first (newest last), created at or after `sinceSeconds`. */
    listSince(accountId: string, sinceSeconds: number): AdminTurn[] {
      if (!accounts.findById(accountId)) fail('not_found', { what: `account ${accountId}`, what_zh: `账户 ${accountId}` });
      return turns.listSince(accountId, sinceSeconds * 1000, MAX_TURNS_PER_PAGE).map((t) => ({
        turn_id: t.id,
        session_id: t.session_id,
        client_turn_id: t.client_turn_id,
        status: t.status,
        credits_charged: t.credits_charged,
        reserved: t.reserved,
        warnings: t.warnings ? (JSON.parse(t.warnings) as GenerationWarning[]) : [],
        created_at: Math.floor(t.created_at / 1000),
        finished_at: t.finished_at === null ? null : Math.floor(t.finished_at / 1000),
        images: images.listLiveByTurn(t.id).map((i) => ({
          id: i.id,
          filename: i.filename,
          url: `/api/file/${i.filename}`,
          width: i.width,
          height: i.height,
        })),
      }));
    },
  };
}
