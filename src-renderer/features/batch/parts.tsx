// Small pieces the catalog screen's sections share: the inline error (main's message, already in the UI
// language), a job's status badge, byte and clock formatting.
import type { BatchJobStatus } from '../../../src-shared/ipc/batch.ts';
import type { DesktopError } from '../../lib/desktop.ts';
import type { IpcError } from '../../lib/ipc-types.ts';
import { Badge, type BadgeTone } from '../../ui/Badge.tsx';
import { useBatchT } from './i18n.ts';

/** The IpcError behind a failed call (a DesktopError), or a plain one for anything else thrown. */
export function ipcErrorOf(error: unknown): IpcError | null {
  if (!error) return null;
  const ipc = (error as DesktopError).ipc;
  if (ipc && typeof ipc.code === 'string') return ipc;
  return { code: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

/** One failed call, in a line: the message main wrote (in the UI language), the code small, for support. */
export function ErrorLine({ error, testId }: { error: unknown; testId?: string }) {
  const ipc = ipcErrorOf(error);
  if (!ipc) return null;
  return (
    <p className="batch-error" role="alert" data-testid={testId ?? 'batch-error'} data-code={ipc.code}>
      {ipc.message} <code className="batch-error-code">{ipc.code}</code>
    </p>
  );
}

const STATUS_TONE: Record<BatchJobStatus, BadgeTone> = {
  queued: 'neutral',
  running: 'info',
  succeeded: 'ok',
  failed: 'danger',
  unknown: 'warn',
  over_budget: 'warn',
  cancelled: 'neutral',
};

export function JobStatusBadge({ status }: { status: BatchJobStatus }) {
  const t = useBatchT();
  return <Badge tone={STATUS_TONE[status]}>{t(`jobStatus.${status}`)}</Badge>;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** 14:05 in the UI language's clock, with the date when it is not today (a daily limit waits into tomorrow). */
export function formatClock(ms: number, language: string, now = Date.now()): string {
  const at = new Date(ms);
  const time = at.toLocaleTimeString(language, { hour: '2-digit', minute: '2-digit' });
  if (at.toDateString() === new Date(now).toDateString()) return time;
  return `${at.toLocaleDateString(language, { month: 'short', day: 'numeric' })} ${time}`;
}
