// The bundled service ends with the app that started it, however the app dies (docs/local-service.md
// "STUDIO_PARENT_PID"): a host sets STUDIO_PARENT_PID, and the service polls that pid and its own parent pid.
// A child-process host also keeps a pipe on stdin, whose end-of-file is the quickest sign of its death.
import { fstatSync } from 'node:fs';
import { processAlive } from './lock.ts';

export const PARENT_PID_ENV = 'STUDIO_PARENT_PID';
export const PARENT_POLL_MS = 250;

/** The pid in STUDIO_PARENT_PID, null when it is absent; throws on a value that is not a pid. */
export function parentPidFromEnv(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env[PARENT_PID_ENV];
  if (raw === undefined || raw === '') return null;
  const pid = Number(raw);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`${PARENT_PID_ENV} must be a process id, got ${JSON.stringify(raw)}`);
  return pid;
}


function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Calls onDeath once when `parentPid` is gone, when this process is re-parented (its parent died and it was
 * adopted), or (with watchStdin) when stdin, a pipe from the parent, reaches its end. Returns a stop function.
 */
export function watchParent(parentPid: number, onDeath: (why: string) => void, options: { watchStdin?: boolean } = {}): () => void {
  const firstPpid = process.ppid;
  let done = false;
  const fire = (why: string): void => {
    if (done) return;
    done = true;
    stop();
    onDeath(why);
  };
  const timer = setInterval(() => {
    if (!processAlive(parentPid)) fire(`the parent process ${parentPid} is gone`);
    else if (process.ppid !== firstPpid) fire(`the parent process ${firstPpid} is gone (re-parented to ${process.ppid})`);
  }, PARENT_POLL_MS);
  timer.unref();
  const onEnd = (): void => fire('stdin from the parent process was closed');
  const useStdin = options.watchStdin === true && stdinIsPipe();
  if (useStdin) {
    process.stdin.on('end', onEnd);
    process.stdin.on('error', onEnd);
    process.stdin.on('data', () => undefined);
    process.stdin.resume();
  }
  function stop(): void {
    clearInterval(timer);
    if (useStdin) {
      process.stdin.off('end', onEnd);
      process.stdin.pause();
    }
  }
  // A parent that died before we started watching.
  if (!processAlive(parentPid)) queueMicrotask(() => fire(`the parent process ${parentPid} is gone`));
  return stop;
}
