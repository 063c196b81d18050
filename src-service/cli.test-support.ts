// The service CLI as a child process, for tests: start it, read its ready line, wait for its exit; every child still
// running is killed and every temporary folder removed after each test.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ServiceReadyLineSchema, type ServiceReadyLine } from '../src-shared/api.ts';

export const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  dirs.push(dir);
  return dir;
}

export interface Started {
  child: ChildProcessWithoutNullStreams;
  ready: ServiceReadyLine;
  stdout: () => string;
  stderr: () => string;
}

/** `node <entry> …args`, resolved with the first line of stdout parsed as the ready line. */
export function startCli(args: string[], entry = 'src-service/cli.ts'): Promise<Started> {
  const child = spawn(process.execPath, [entry, ...args], { cwd: process.cwd() });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) {
        try {
          resolve({ child, ready: ServiceReadyLineSchema.parse(JSON.parse(out.slice(0, newline))), stdout: () => out, stderr: () => err });
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${err}`)));
  });
}

export function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}
