// Deliveries grouped by delivery id (spec §6: retries keep it), newest first, each with its timeline of
// attempts and a duplicate badge when an earlier delivery carried the same (pack_id, version).
import type { CapturedRequest, DeliveryGroup } from '../../../src-shared/ipc/inspector.ts';
import { formatOffset, useFormats } from '../../i18n/format.ts';
import { useText } from '../../i18n/text.ts';
import { Badge } from '../../ui/Badge.tsx';
import { inspectorText } from './i18n.ts';
import { useDeliveries, useInspectorAction } from './queries.ts';
import { useInspectorStore } from './store.ts';
import { ErrorLine } from '../../ui/ErrorLine.tsx';

function AttemptChip({ attempt, index, first }: { attempt: CapturedRequest; index: number; first: number }) {
  const t = useText(inspectorText);
  const format = useFormats();
  const selected = useInspectorStore((s) => s.selectedRequestId === attempt.requestId);
  const select = useInspectorStore((s) => s.select);
  const tone = attempt.valid ? 'ok' : 'danger';
  const offset = index === 0 ? format.time(attempt.receivedAt) : formatOffset(attempt.receivedAt - first);
  return (
    <li>
      <button
        type="button"
        className={`inspector-attempt inspector-attempt-${tone}`}
        aria-pressed={selected}
        data-testid="inspector-attempt"
        data-valid={attempt.valid ? 'true' : 'false'}
        data-status={attempt.responseStatus}
        onClick={() => select(attempt.requestId)}
      >
        <span className="inspector-attempt-n">{t('attempt', { n: index + 1 })}</span>
        <span className="inspector-attempt-time">{offset}</span>
        <span>{t('answered', { status: attempt.responseStatus })}</span>
      </button>
    </li>
  );
}

/** The attempts of one delivery on a line, spaced by when they arrived. */
export function DeliveryTimeline({ group }: { group: DeliveryGroup }) {
  return (
    <ol className="inspector-timeline" data-testid="delivery-timeline">
      {group.attempts.map((a, i) => (
        <AttemptChip key={a.requestId} attempt={a} index={i} first={group.firstAt} />
      ))}
    </ol>
  );
}

function GroupRow({ group }: { group: DeliveryGroup }) {
  const t = useText(inspectorText);
  const last = group.attempts.at(-1);
  const kind = last?.tooLarge ? 'tooLarge' : last?.diagnosis === 'wrong_path' ? 'otherPath' : null;
  return (
    <li className="inspector-group" data-testid="inspector-delivery-group" data-delivery-id={group.deliveryId ?? ''} data-valid={group.anyValid ? 'true' : 'false'}>
      <div className="inspector-group-head">
        <code className="inspector-event">{group.event ?? last?.method ?? '?'}</code>
        <span className="inspector-delivery-id" title={group.deliveryId ?? ''}>
          {group.deliveryId ?? t('noDeliveryId')}
        </span>
        {group.anyValid ? <Badge tone="ok">{t('valid')}</Badge> : <Badge tone="danger">{t('invalid')}</Badge>}
        {kind ? <Badge tone="warn">{t(kind)}</Badge> : null}
        {group.attempts.length > 1 ? <Badge tone="info">{t('attempts', { count: group.attempts.length })}</Badge> : null}
        {group.duplicateOf ? (
          <Badge tone="warn" testId="duplicate-badge" title={t('duplicateOf', { id: group.duplicateOf })}>
            {t('duplicate')}
          </Badge>
        ) : null}
        {last?.publication ? (
          <span className="muted small">
            {last.publication.packId} v{last.publication.version}
          </span>
        ) : null}
      </div>
      <DeliveryTimeline group={group} />
    </li>
  );
}

export function DeliveryList() {
  const t = useText(inspectorText);
  const list = useDeliveries();
  const clear = useInspectorAction('inspectorClear');
  const select = useInspectorStore((s) => s.select);
  const groups = list.data?.groups ?? [];
  return (
    <section className="card inspector-deliveries" data-testid="inspector-deliveries">
      <div className="row-gap">
        <h3 className="card-title grow">
          {t('deliveries')} {list.data ? <span className="muted small">({list.data.total})</span> : null}
        </h3>
        <button
          type="button"
          className="btn btn-sm"
          data-testid="inspector-clear"
          disabled={groups.length === 0 || clear.isPending}
          onClick={() => {
            if (window.confirm(t('clearConfirm'))) clear.mutate({}, { onSuccess: () => select(null) });
          }}
        >
          {t('clear')}
        </button>
      </div>
      {groups.length === 0 ? (
        <p className="muted">{t('deliveriesEmpty')}</p>
      ) : (
        <ul className="inspector-groups">
          {groups.map((g) => (
            <GroupRow key={g.key} group={g} />
          ))}
        </ul>
      )}
      <ErrorLine error={list.error ?? clear.error} testId="inspector-error" />
    </section>
  );
}
