// Test-only helpers about processes, shared by the service's tests, main's host tests and the e2e specs (each
// spawns real processes and kills them). Not part of any build.
import { readFileSync } from 'node:fs';

/**
 * Whether process `pid` still runs. A zombie (exited, not yet reaped by this machine's init) has ended: it holds
 * no memory, lock or port, so it counts as gone.
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}
