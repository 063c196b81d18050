// IPC: running generations. A run starts at once and reports through `generation:progress` events; its turn
// record in the library is the source of truth (it survives a reload of the window).
import { z } from 'zod';
import { GenerateRequestSchema, type ApiImage } from '../api.ts';
import type { CreditEstimate } from '../pricing.ts';
import type { GenerationWarning } from '../warnings.ts';
import { IdSchema, method, type IpcError } from './contract.ts';
import type { EnvironmentName } from './settings.ts';

export type TurnStatus = 'running' | 'succeeded' | 'failed' | 'outcome_unknown' | 'cancelled';

export interface ImageRecord {
  /** The service's image id (img_…), usable in ref_image_ids. */
  id: string;
  turnId: string;
  sessionId: string;
  environment: EnvironmentName;
  filename: string;
  width: number;
  height: number;
  starred: boolean;
  /** Culling rating 1–5; 0 = not rated. */
  rating: number;
  /** Culling reject mark. */
  rejected: boolean;
  download: 'pending' | 'done' | 'failed';
  /** Why the last download attempt failed: on `failed` for good; on `pending` while it is being tried again. */
  downloadError?: string;
  /** The service reported it missing (reference_image_missing) or it was cleaned up. */
  missing: boolean;
  createdAt: number;
  /** Copied from the turn for the gallery's filters and captions. */
  model: string;
  prompt: string;
  /**
   * Made by a Catalog batch: the product's SKU and the shot's name (the gallery's tiles and the viewer's details show
   * "SKU · shot"), and the product's name as the batch had it.
   */
  catalog?: { sku: string; shot: string; productName?: string };
}

export interface TurnRecord {
  /** Local id (lt_…); the service's turn id is `serviceTurnId` once known. */
  id: string;
  serviceTurnId: string | null;
  /** Local session id; the service's id is `serviceSessionId` once known. */
  sessionId: string;
  serviceSessionId: string | null;
  environment: EnvironmentName;
  request: z.infer<typeof GenerateRequestSchema>;
  estimate: CreditEstimate;
  status: TurnStatus;
  creditsCharged: number | null;
  warnings: GenerationWarning[];
  requestId: string | null;
  error: IpcError | null;
  /** Why the outcome is unknown, and how to check, in the UI language. */
  outcomeNote: string | null;
  startedAt: number;
  finishedAt: number | null;
  durationMs: number | null;
  images: ImageRecord[];
  /** Image ids this turn used as references, in request order. */
  referenceImageIds: string[];
  /** The turn this one retried, if any. */
  retryOf: string | null;
  /** For a 429 rate_limited turn: when the app will or may retry (ms since epoch). */
  retryAt: number | null;
  /** What the user may do with this turn now, decided by main (spec §7); the renderer only shows it. */
  actions: TurnActions;
  /**
   * The user stopped waiting for this running turn (`generate:stop-waiting`): the call goes on in the
   * background and its images still land in the library. False once the turn has ended, and for every turn
   * after a restart (the flag lives in main's memory, like the call itself).
   */
  waitingInBackground: boolean;
}

/** spec §7 applied to one turn, as data (main decides; the renderer derives nothing). */
export interface TurnActions {
  retry: {
    /** `now`: offer Retry; `later`: offer it disabled until `availableAt`; `never`: no Retry (see `reason`). */
    offer: 'now' | 'later' | 'never';
    /** How to label it: the one retry after a 500, a retry after a 429 wait, or a resend that is safe (nothing ran). */
    kind: 'retry_once' | 'retry_after_wait' | 'retry_safe' | null;
    /** ms since epoch when `offer` is `later`. */
    availableAt: number | null;
    /** Why it is not offered now: `running`, `succeeded`, `outcome_unknown`, `already_retried`, `fix_request`, `retry_too_early`, `retry_limit_reached`. */
    reason: string | null;
  };
  /** The run is waiting for the service in the foreground; the user may stop waiting (it goes on in the background). */
  stopWaiting: boolean;
  /**
   * The run is waiting for the service (in the foreground or the background); the user may abort the connection
   * (`generate:cancel`). The service may still finish and charge, and the images will not arrive.
   */
  abort: boolean;
  /**
   * What fixes a failed turn, from spec §7's client actions (main decides; the card offers the matching button):
   * `top_up`, `keys` (a new key, a key with the scope, or an Authorization header), `new_session`, `free_space`.
   */
  fix: 'top_up' | 'keys' | 'new_session' | 'free_space' | null;
}

export interface GenerationProgress {
  turnId: string;
  status: TurnStatus;
  phase: 'sending' | 'waiting' | 'retrying' | 'downloading' | 'done';
  elapsedMs: number;
  /** For back-off: the wait before the next attempt. */
  waitMs?: number;
  attempt?: number;
}

export const StartGenerationSchema = z.object({
  request: GenerateRequestSchema,
  /** Local session to continue; omitted = a new session. */
  sessionId: IdSchema.optional(),
});

export const generationMethods = {
  /** Answers with the turn it recorded (as `library:get-turn` would), so the UI needs no second round trip. */
  generateStart: method<{ turnId: string; turn: TurnRecord }>()('generate:start', StartGenerationSchema),
  /** Aborts the connection: the turn ends `cancelled`; the service may still finish and charge, its images never arrive. */
  generateCancel: method<{ cancelled: boolean }>()('generate:cancel', z.object({ turnId: IdSchema })),
  /** Stops waiting in the foreground: the call goes on in the background and its images still land in the library. */
  generateStopWaiting: method<{ waitingInBackground: boolean }>()('generate:stop-waiting', z.object({ turnId: IdSchema })),
  /** Retry a failed turn as the spec allows (500 once; 429 after the wait; 503 after seconds). */
  generateRetry: method<{ turnId: string }>()('generate:retry', z.object({ turnId: IdSchema })),
  generateRunning: method<TurnRecord[]>()('generate:running', z.object({})),
};

export type { ApiImage };
