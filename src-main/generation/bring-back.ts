// After a restore (docs/main-process.md "Recovery of local data"): every request the send journal holds that the
// library lost is recorded again as a turn left `running` and relinked to its batch job (sent, never queued), so
// nothing is sent twice. The start-up that follows does the rest: the turn becomes outcome unknown, Local turns are
// settled from the service by their X-Client-Turn-Id (reconcile.ts, images included), Remote ones stay unknown.
import { AppMeta, transaction, type LibraryDatabase, type LibraryRepo, type SendJournal, type SentTurn } from '../library/index.ts';

export interface BringBackDeps {
  db: LibraryDatabase;
  repo: LibraryRepo;
  journal: SendJournal;
  /**
   * Marks the batch job sent with this turn, with the request and price it went out with (a first send may have taken
   * the product's master: the restored row held the plan's); false when the restored library has no such queued job.
   */
  relinkJob: (jobId: string, turnId: string, sent: { request: SentTurn['request']; estimate: number }) => boolean;
  onTrouble?: (message: string, error: unknown) => void;
}

/** Brings back the journal's turns the library does not know; returns their ids. */
export function bringBackSentTurns(deps: BringBackDeps): string[] {
  const { db, repo } = deps;
  const meta = new AppMeta(db);
  // Entries at or before the mark were recorded by this library: one missing now was deleted by the user.
  const through = meta.sendsRecordedThrough();
  const brought: string[] = [];
  for (const entry of deps.journal.entries()) {
    if (entry.startedAt <= through || repo.getTurn(entry.turnId)) continue;
    try {
      transaction(db, () => recordAgain(deps, entry));
      brought.push(entry.turnId);
    } catch (error) {
      deps.onTrouble?.(`could not bring back sent generation ${entry.turnId}`, error);
    }
  }
  return brought;
}

function recordAgain(deps: BringBackDeps, entry: SentTurn): void {
  const { repo } = deps;
  if (!repo.sessionRow(entry.sessionId)) repo.createSession(entry.sessionId, entry.environment, entry.startedAt);
  // References to images the restored library lost are left out (the request itself keeps them).
  const references = (entry.request.ref_image_ids ?? []).filter((id) => repo.getImage(id) !== null);
  const retryOf = entry.retryOf && repo.getTurn(entry.retryOf) ? entry.retryOf : null;
  repo.createTurn({ id: entry.turnId, sessionId: entry.sessionId, environment: entry.environment, request: entry.request, estimate: entry.estimate, startedAt: entry.startedAt, retryOf, referenceImageIds: references });
  repo.touchSession(entry.sessionId, entry.startedAt);
  if (entry.batchJobId) deps.relinkJob(entry.batchJobId, entry.turnId, { request: entry.request, estimate: entry.estimate.total });
  new AppMeta(deps.db).recordSendsThrough(entry.startedAt);
}
