// A turn as the library stores it (codes and facts) and as the renderer receives it (text in the UI language,
// and the actions spec §7 allows now).
import type { TurnRecord } from '../../src-shared/ipc/generation.ts';
import type { Language } from '../../src-shared/language.ts';
import { renderError, type StoredError } from './errors.ts';
import { renderNote, type StoredNote } from './messages.ts';
import { turnActions, type TurnFacts } from './retry-policy.ts';

export interface StoredTurn extends Omit<TurnRecord, 'error' | 'outcomeNote' | 'actions' | 'waitingInBackground'> {
  error: StoredError | null;
  /** Why the outcome is unknown / what happened, as a catalog code. */
  outcome: StoredNote | null;
  /** A later turn already retried this one. */
  retried: boolean;
  /** The error code of the turn this one retried. */
  retryOfCode: string | null;
  /** Sent with the app's own turn id (X-Client-Turn-Id), so the bundled service can be asked about it. */
  clientIdSent: boolean;
}

/** The facts spec §7's verdicts are taken on, the same for the turn card and the batch (./retry-policy.ts). */
export function turnFacts(turn: StoredTurn, waitingInBackground = false): TurnFacts {
  const { status, error, requestId, retryAt, retried, retryOfCode, retryOf } = turn;
  return { status, error, requestId, retryAt, retried, retryOfCode, isRetry: retryOf !== null, waitingInBackground };
}

/**
 * `waitingInBackground` is the runner's (in memory, like the call itself): true only while the turn runs after
 * the user stopped waiting for it.
 */
export function presentTurn(turn: StoredTurn, language: Language, now: number, waitingInBackground = false): TurnRecord {
  const { error, outcome, retried: _retried, retryOfCode: _retryOfCode, clientIdSent: _clientIdSent, ...rest } = turn;
  const background = waitingInBackground && turn.status === 'running';
  return {
    ...rest,
    error: error ? renderError(error, language) : null,
    outcomeNote: outcome ? renderNote(outcome, language) : null,
    actions: turnActions(turnFacts(turn, background), now),
    waitingInBackground: background,
  };
}
