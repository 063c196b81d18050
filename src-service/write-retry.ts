// The service's one rule for a write that fails (docs/local-service.md "A full disk does not stop the service"):
// when the storage is at fault (a full disk, an I/O error, a busy or locked file) what could not be written is kept
// and tried again with one bounded back-off until it lands; any other error is a bug in that one piece of work,
// logged once and not retried. Refunds (services/generate.ts), the per-key usage counts (http/auth.ts) and the
// webhook dispatcher's bookkeeping (services/dispatcher.ts) all ask this module.

/** Waits between tries of a failed write: 250 ms doubling to 30 s, then every 30 s for as long as it takes. */
export const WRITE_RETRY_DELAYS_MS: readonly number[] = [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

/** The wait after `failures` failed tries in a row (1 or more). */
export function writeRetryDelay(failures: number, delays: readonly number[] = WRITE_RETRY_DELAYS_MS): number {
  const last = delays.at(-1) ?? 30_000;
  return delays[Math.min(Math.max(failures, 1), delays.length) - 1] ?? last;
}

/**
 * SQLite primary result codes of a storage that can recover by itself: BUSY, LOCKED, NOMEM, READONLY, IOERR, FULL,
 * CANTOPEN. (A constraint or an SQL error is our bug, and trying again would fail the same way.)
 */
const SQLITE_STORAGE_CODES = new Set([5, 6, 7, 8, 10, 13, 14]);
/** The same for files: no space, over quota, I/O error, read-only, out of file handles. */
const FILE_STORAGE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EMFILE', 'ENFILE']);

/** Whether `error` says the storage failed (try again later) rather than our code (a bug). */
export function isStorageFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // node:sqlite reports extended result codes; the low byte is the primary one.
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') return SQLITE_STORAGE_CODES.has(errcode & 0xff);
  return typeof code === 'string' && FILE_STORAGE_CODES.has(code);
}

export interface WriteRetryLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * An outage of one kind of write, logged once when its first try fails and once when a try succeeds again, however
 * many tries fail in between (a full disk must not flood the log).
 */
export function createOutageLog(log: WriteRetryLog, what: string): { failed(error: unknown): void; recovered(): void; readonly down: boolean } {
  let down = false;
  return {
    failed(error) {
      if (!down) log.error({ err: error }, `${what} cannot be written; kept and tried again with back-off`);
      down = true;
    },
    recovered() {
      if (down) log.info({}, `${what} written again`);
      down = false;
    },
    get down() {
      return down;
    },
  };
}

/**
 * Writes that must land (a refund), each under its own key: tried now and, while the storage fails, again with the
 * back-off until one try succeeds; a bug is logged and left for the next start (DESIGN.md §3 crash safety). On stop,
 * each write still waiting gets one last try.
 */
export function createRetryingWrites(options: { log: WriteRetryLog; what: string; delays?: readonly number[] | undefined }) {
  const { log, what } = options;
  const waiting = new Map<string, { timer: NodeJS.Timeout; write: () => void }>();

  /** One try; true when written. Schedules the next try after a storage failure. */
  function attempt(key: string, write: () => void, failures: number): boolean {
    try {
      write();
      if (failures > 0) log.info({ key, tries: failures + 1 }, `${what} written after retrying`);
      return true;
    } catch (error) {
      if (!isStorageFailure(error)) {
        log.error({ err: error, key }, `${what} failed and is not retried; the next start settles it`);
        return false;
      }
      if (failures === 0) log.error({ err: error, key }, `${what} cannot be written; retrying with back-off`);
      const timer = setTimeout(() => {
        waiting.delete(key);
        attempt(key, write, failures + 1);
      }, writeRetryDelay(failures + 1, options.delays));
      waiting.set(key, { timer, write });
      return false;
    }
  }

  return {
    /** Writes now, or keeps trying in the background; true when written now. */
    write(key: string, write: () => void): boolean {
      return attempt(key, write, 0);
    },
    /** The last try of every write still waiting (on stop); what fails stays for the next start. */
    finishAtStop(): void {
      for (const [key, { timer, write }] of waiting) {
        clearTimeout(timer);
        try {
          write();
        } catch (error) {
          log.error({ err: error, key }, `${what} still failing at stop; the next start settles it`);
        }
      }
      waiting.clear();
    },
  };
}
