// Writes one benchmark's section into docs/benchmarks.md between its markers, leaving the others alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';

const FILE = 'docs/benchmarks.md';

export function machineLine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The value at fraction `p` (0–1) of the sorted values (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? 0;
}

/** What an IPC call of the app core answers. */
export interface IpcResult {
  ok: boolean;
  value?: unknown;
  error?: unknown;
}

/** The value of an IPC answer, or a thrown error naming `what` failed. */
export async function must<T>(result: Promise<IpcResult>, what = 'call'): Promise<T> {
  const r = await result;
  if (!r.ok) throw new Error(`${what}: ${JSON.stringify(r.error)}`);
  return r.value as T;
}

/** One IPC method of the app core (as the renderer calls it), its value or a thrown error. */
export function invokeOk<T>(app: { invoke(method: string, input: unknown): Promise<IpcResult> }, method: string, input: unknown): Promise<T> {
  return must<T>(app.invoke(method, input), method);
}

export function writeSection(name: string, markdown: string): void {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  let doc = existsSync(FILE) ? readFileSync(FILE, 'utf8') : '# Benchmarks\n\nWritten by `npm run bench`; each section by its own benchmark.\n';
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  doc = from >= 0 && to > from ? doc.slice(0, from) + block + doc.slice(to + end.length) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(FILE, doc);
}

/**
 * Scroll speeds of the frame-time benches, in px per second of the page's clock (a slower machine draws fewer frames
 * of the same scroll, not a slower scroll). Chromium's own scrolling benchmarks default to 800 px/s; STEADY is a brisk
 * wheel scroll and holds the frame-time targets; FAST (120 px a frame at 60 fps) skims and is reported beside it, not
 * held to them (docs/decisions.md "Gallery scrolling").
 */
export const SCROLL_PX_S = { steady: 1_200, fast: 7_200 } as const;

