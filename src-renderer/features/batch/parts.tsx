// Small pieces the catalog screen's sections share: the card a section sits in, a table's column heads and a
// job's status badge.
import { useId, type ReactNode } from 'react';
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

/** A section of the catalog screen: its title (which names the section for screen readers), what sits beside it. */
export function BatchCard(props: { title: string; testId: string; className?: string; head?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section className={`card batch-card ${props.className ?? ''}`} aria-labelledby={id} data-testid={props.testId}>
      <div className="batch-card-head">
        <h2 className="card-title" id={id}>
          {props.title}
        </h2>
        {props.head}
      </div>
      {props.children}
    </section>
  );
}

/**
 * A table's column heads: a check column when given, text columns, right-aligned number columns, then an actions
 * column named only for screen readers.
 */
export function TableHead({ check, names, numbers = [], actions }: { check?: ReactNode; names: string[]; numbers?: string[]; actions?: string }) {
  return (
    <thead>
      <tr>
        {check !== undefined ? <th className="batch-check">{check}</th> : null}
        {names.map((name) => (
          <th key={name}>{name}</th>
        ))}
        {numbers.map((name) => (
          <th key={name} className="batch-num">
            {name}
          </th>
        ))}
        {actions !== undefined ? (
          <th>
            <span className="sr-only">{actions}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
