// The bundled service ends with the app that started it, however the app dies (docs/local-service.md
// "STUDIO_PARENT_PID"): a host sets STUDIO_PARENT_PID, and the service polls that pid and its own parent pid.
// A child-process host also keeps a pipe on stdin, whose end-of-file is the quickest sign of its death.
import { fstatSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { processAlive } from './lock.ts';

export const PARENT_PID_ENV = 'STUDIO_PARENT_PID';
export const PARENT_POLL_MS = 250;
/** After the parent died the service must be gone within 2 s (docs/local-service.md); a slow close is cut here… */
export const PARENT_DEATH_EXIT_MS = 1_000;
/**
 * …and here by a worker thread, which a stuck main thread (a blocked write, a long loop) cannot starve: it watches
 * the parent itself and kills this process this long after it saw the parent go or was told so.
 */
export const HARD_KILL_MS = 1_500;
const GUARD_POLL_MS = 100;

// Plain CommonJS, evaluated in the worker (the bundled build has no file to point a Worker at).
const GUARD_SCRIPT = `const { workerData, parentPort } = require('node:worker_threads');
const { pid, parentPid, firstPpid, pollMs, killMs } = workerData;
let armed = false;
const arm = () => { if (!armed) { armed = true; setTimeout(() => process.kill(pid, 'SIGKILL'), killMs); } };
const alive = (p) => { try { process.kill(p, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
parentPort.on('message', arm);
setInterval(() => { if (!alive(parentPid) || process.ppid !== firstPpid) arm(); }, pollMs);`;

let guard: Worker | null = null;

/** Starts the worker that kills this process HARD_KILL_MS after the parent is gone, whatever the main thread does. */
function startGuard(parentPid: number): void {
  try {
    guard = new Worker(GUARD_SCRIPT, {
      eval: true,
      workerData: { pid: process.pid, parentPid, firstPpid: process.ppid, pollMs: GUARD_POLL_MS, killMs: HARD_KILL_MS },
    });
    // A guard that fails later must not become an uncaught error that ends a service whose parent is alive.
    guard.on('error', () => {
      guard = null;
    });
    guard.unref();
  } catch {
    guard = null; // no worker threads in this runtime: exitSoon's timer is the only deadline
  }
}

/**
 * The parent is gone: this process ends soon whatever it is doing. A timer exits with code 1 after
 * PARENT_DEATH_EXIT_MS (a clean stop that finishes first exits as usual), and the guard worker kills the process
 * after HARD_KILL_MS should the main thread be stuck.
 */
export function exitSoon(): void {
  guard?.postMessage('arm');
  setTimeout(() => process.exit(1), PARENT_DEATH_EXIT_MS).unref();
}

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
  startGuard(parentPid);
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
