// Small pieces the catalog screen's sections share: a job's status badge.
import type { BatchJobStatus } from '../../../src-shared/ipc/batch.ts';
import { useText } from '../../i18n/text.ts';
import { Badge, type BadgeTone } from '../../ui/Badge.tsx';
import { batchText } from './i18n.ts';

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
  const t = useText(batchText);
  return <Badge tone={STATUS_TONE[status]}>{t(`jobStatus.${status}`)}</Badge>;
}
